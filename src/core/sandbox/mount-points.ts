/**
 * The engine puts a mount point (an empty file on the host) at a denied path that does not exist, and removes
 * it only when the command ends normally: a killed process leaves it in the project tree, where it blocks what
 * belongs there (`mkdir .worktrees` fails with EEXIST). Denied directories are therefore made beforehand.
 */
import { lstatSync, mkdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';

/**
 * A denied directory that is absent is made (its parent existing, and no symlink), so the engine never makes a mount point
 * for it in the project tree. An empty regular file there is such a mount point left by a killed run (nothing
 * of ours is ever a file at that path): it is replaced. Anything else is left as it is.
 */
export function ensureDenyDir(dir: string): void {
  // Made by the host, outside any sandbox: a parent that an agent turned into a symlink (`.thclaws` → a folder
  // elsewhere) is not followed, or the host would delete a file and make a directory out there.
  try {
    if (!lstatSync(path.dirname(dir)).isDirectory()) return;
  } catch {
    return;
  }
  try {
    const st = lstatSync(dir);
    if (!st.isFile() || st.size !== 0) return;
    unlinkSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return;
  }
  try {
    mkdirSync(dir);
  } catch {
    // Made meanwhile, or not ours to make: the engine handles what is there.
  }
}
