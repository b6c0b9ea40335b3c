import fs from 'node:fs';
import path from 'node:path';
import { gitOut } from '../git.js';

/** The project root of a path that may sit inside a teammate worktree: worktrees never nest. */
export function outsideWorktrees(p: string): string {
  const parts = path.resolve(p).split(path.sep);
  const i = parts.indexOf('.worktrees');
  return i > 0 && i < parts.length - 1 ? parts.slice(0, i).join(path.sep) || path.sep : path.resolve(p);
}

/**
 * The project root of a team agent's process, however it was started: `THCLAWS_PROJECT_ROOT` (a spawned
 * teammate), the owner of `THCLAWS_TEAM_DIR` (`<root>/.thclaws/state/team`), else the main checkout of the git
 * repository `cwd` is in (a teammate started by hand in its worktree: `--git-common-dir`'s parent), else `cwd`
 * outside any `.worktrees/`. The project's settings (budgets, permissions, deny rules) are read from there.
 */
export function teamProjectRoot(cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env.THCLAWS_PROJECT_ROOT) return path.resolve(env.THCLAWS_PROJECT_ROOT);
  if (env.THCLAWS_TEAM_DIR) {
    const dir = path.resolve(cwd, env.THCLAWS_TEAM_DIR);
    if (dir.endsWith(TEAM_DIR_TAIL)) return dir.slice(0, -TEAM_DIR_TAIL.length) || path.sep;
  }
  const common = gitOut(cwd, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  if (common && path.basename(common) === '.git') {
    const main = path.dirname(common);
    const top = gitOut(cwd, ['rev-parse', '--show-toplevel']);
    // In the main checkout itself the folder given stays as given (no symlink resolved away).
    if (top && !samePath(top, main)) return main;
  }
  return outsideWorktrees(cwd);
}

const TEAM_DIR_TAIL = `${path.sep}${path.join('.thclaws', 'state', 'team')}`;

function samePath(a: string, b: string): boolean {
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return path.resolve(a) === path.resolve(b);
  }
}
