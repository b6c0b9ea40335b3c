/**
 * Teammate worktrees: `<root>/.worktrees/<name>` on branch `team/<name>`, created once and reused on
 * respawn; `.worktrees/` and `.thclaws/` excluded so they never dirty the lead's tree.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ensureDenyDir } from '../sandbox/mount-points.js';
import { TeamError } from '../store/index.js';
import { git, gitOut } from '../git.js';
import { teammateBranch } from '../../contract/branch.js';

const INIT_IDENTITY = ['-c', 'user.name=thclaws', '-c', 'user.email=thclaws@local'];
const EXCLUDES = ['.worktrees/', '.thclaws/'];

function canonical(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** The project is a git repository with a HEAD, and the team paths are excluded from it. */
export function ensureRepo(root: string): void {
  if (git(root, ['rev-parse', '--is-inside-work-tree']).stdout.trim() !== 'true') {
    const r = git(root, ['init', '-q']);
    if (!r.ok) throw new TeamError('conflict', `git init failed in ${root}: ${r.stderr.trim()}`);
  }
  if (!git(root, ['rev-parse', '--verify', '-q', 'HEAD']).ok) {
    const r = git(root, [...INIT_IDENTITY, 'commit', '--allow-empty', '-q', '-m', 'init (thclaws team)']);
    if (!r.ok) throw new TeamError('conflict', `cannot create the first commit in ${root}: ${r.stderr.trim()}`);
  }
  const common = gitOut(root, ['rev-parse', '--git-common-dir']);
  if (!common) return;
  const exclude = path.join(path.resolve(root, common), 'info', 'exclude');
  fs.mkdirSync(path.dirname(exclude), { recursive: true });
  const have = fs.existsSync(exclude) ? fs.readFileSync(exclude, 'utf8') : '';
  const lines = new Set(have.split('\n').map((l) => l.trim()));
  const missing = EXCLUDES.filter((e) => !lines.has(e));
  if (missing.length) fs.appendFileSync(exclude, `${have && !have.endsWith('\n') ? '\n' : ''}${missing.join('\n')}\n`);
}

function registeredWorktrees(root: string): Map<string, string | null> {
  const out = new Map<string, string | null>();
  const text = gitOut(root, ['worktree', 'list', '--porcelain']) ?? '';
  let cur: string | null = null;
  for (const line of text.split('\n')) {
    if (line.startsWith('worktree ')) {
      cur = canonical(line.slice(9));
      out.set(cur, null);
    } else if (line.startsWith('branch ') && cur) out.set(cur, line.slice(7));
  }
  return out;
}

/** Creates or reuses the teammate's worktree; verifies git sees it as its own top level. */
export function ensureWorktree(root: string, name: string): string {
  return openWorktree(root, name).dir;
}

/** The worktree, and whether this call made it (and its branch): a new one is bootstrapped, or removed on failure. */
export function openWorktree(root: string, name: string): { dir: string; created: boolean; madeBranch: boolean } {
  ensureRepo(root);
  let created = false;
  let made = false;
  const dir = path.join(root, '.worktrees', name);
  const branch = teammateBranch(name);
  const known = registeredWorktrees(root);
  const existing = known.get(canonical(dir));
  if (existing === undefined || !fs.existsSync(dir)) {
    git(root, ['worktree', 'prune']);
    // `.worktrees` first (a stale sandbox mount point there, an empty file, is replaced): nothing is made
    // before it is sure to be a directory.
    const parent = path.dirname(dir);
    ensureDenyDir(parent);
    if (!fs.statSync(parent, { throwIfNoEntry: false })?.isDirectory()) {
      throw new TeamError('conflict', `refusing to spawn ${name}: ${parent} is not a directory (a file is in the way): move it aside`);
    }
    if (!git(root, ['rev-parse', '--verify', '-q', `refs/heads/${branch}`]).ok) {
      const b = git(root, ['branch', branch, 'HEAD']);
      if (!b.ok) throw new TeamError('conflict', `cannot create branch ${branch}: ${b.stderr.trim()}`);
      made = true;
    }
    const r = git(root, ['worktree', 'add', '-q', dir, branch]);
    if (!r.ok) {
      // A failed spawn leaves no branch of its own making behind.
      if (made) git(root, ['branch', '-D', '-q', branch]);
      throw new TeamError('conflict', `refusing to spawn ${name}: cannot create worktree ${dir} on ${branch}: ${r.stderr.trim()}`);
    }
    created = true;
  } else if (existing !== `refs/heads/${branch}`) {
    throw new TeamError('conflict', `refusing to spawn ${name}: ${dir} is a worktree on ${existing ?? 'a detached HEAD'}, not ${branch}`);
  }
  const top = gitOut(dir, ['rev-parse', '--show-toplevel']);
  if (!top || canonical(top) !== canonical(dir)) {
    throw new TeamError('conflict', `refusing to spawn ${name}: git in ${dir} resolves to ${top ?? 'no repository'}, not the worktree`);
  }
  return { dir: canonical(dir), created, madeBranch: made };
}

/** Undoes a worktree this spawn made: the worktree gone, and its branch when the spawn made that too. */
export function discardWorktree(root: string, name: string, madeBranch: boolean): void {
  const dir = path.join(root, '.worktrees', name);
  git(root, ['worktree', 'remove', '--force', '--force', dir]);
  if (fs.existsSync(dir)) fs.rmSync(dir, { recursive: true, force: true });
  git(root, ['worktree', 'prune']);
  if (madeBranch) git(root, ['branch', '-D', '-q', teammateBranch(name)]);
}

export { outsideWorktrees } from './roots.js';
