import fs from 'node:fs';
import path from 'node:path';

/**
 * Where a file's lock lives: `<dir>/.locks/<name>.lock`, a hidden subdirectory beside the file (like `.tmp/`).
 * Watchers follow the state directories, not their subdirectories, so a lock created, refreshed every
 * second (a lease) or removed stays out of every change feed: with locks beside the files, each idle
 * teammate's lease refresh and each heartbeat's lock woke every watcher and made chokidar re-read the whole
 * agent directory.
 */
export const LOCK_DIR = '.locks';

export function lockPathFor(target: string): string {
  return path.join(path.dirname(target), LOCK_DIR, `${path.basename(target)}.lock`);
}

/** Makes the `.locks/` directory of a lock path; false when that is not one or its parent is missing. */
export function makeLockDir(lockPath: string): boolean {
  const dir = path.dirname(lockPath);
  if (path.basename(dir) !== LOCK_DIR) return false;
  try {
    fs.mkdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return false;
  }
  return true;
}

/** The lock path of versions before `.locks/`: right beside the file. */
export function legacyLockPathFor(target: string): string {
  return `${target}.lock`;
}

/** The file a lock path (either layout) protects, for messages. */
export function lockedFileOf(lockPath: string): string {
  const dir = path.dirname(lockPath);
  const name = path.basename(lockPath).replace(/\.lock$/, '');
  return path.basename(dir) === LOCK_DIR ? path.join(path.dirname(dir), name) : path.join(dir, name);
}

/**
 * Team dirs where a process of an older version (locks beside the files) was live when this process opened
 * them. There, every lock is taken in both places, new layout first: older processes see the old lock,
 * newer ones the new lock, so a running old team keeps working with this version beside it. Never
 * cleared for the life of the process (a conservative choice: one more lock per write).
 */
const legacyRoots = new Set<string>();

export function markLegacyLayout(root: string): void {
  legacyRoots.add(path.resolve(root) + path.sep);
}

export function usesLegacyLayout(target: string): boolean {
  if (!legacyRoots.size) return false;
  for (const r of legacyRoots) if (target.startsWith(r)) return true;
  return false;
}

/** `agents/<agent>/lease.lock` of every agent: where an older version holds its process leases. */
export function legacyLeaseLocks(agentsDir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(agentsDir);
  } catch {
    return [];
  }
  return names.map((n) => path.join(agentsDir, n, 'lease.lock'));
}
