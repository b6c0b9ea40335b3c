import fs from 'node:fs';
import path from 'node:path';
import { TeamError } from '../store/index.js';

/** `p` must be inside `root` (after symlinks): a teammate's cwd never escapes the project. */
export function assertInside(root: string, p: string): string {
  const real = (x: string) => {
    try {
      return fs.realpathSync(x);
    } catch {
      return path.resolve(x);
    }
  };
  const rel = path.relative(real(root), real(p));
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw new TeamError('invalid', `cwd ${p} is outside the project ${root}`);
  if (!fs.existsSync(p) || !fs.statSync(p).isDirectory()) throw new TeamError('invalid', `cwd ${p} is not a directory`);
  return real(p);
}
