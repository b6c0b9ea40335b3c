/**
 * What a new worktree takes from the lead's checkout that git does not carry: the untracked and ignored files
 * `.worktreeinclude` lists (gitignore syntax, matched by git itself), and dependency folders whose lockfile
 * matches the lead's, cloned copy-on-write where the filesystem can, else as hard links — never a symlink.
 *
 * Done by this process, not in the teammate's sandbox: the sandbox binds the worktree as a mount of its own,
 * and link(2) or a clone from the lead's checkout into it fails across mounts (EXDEV). Every source is a path
 * git listed or a configured folder name; every destination is checked to be inside the new worktree.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { splitZ, runGit } from '../git.js';

export const WORKTREE_INCLUDE = '.worktreeinclude';

/** Lockfiles by the dependency folder they describe (by its last name); a folder not listed here checks them all. */
const LOCKFILES: Record<string, readonly string[]> = {
  node_modules: ['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'bun.lockb'],
  '.venv': ['poetry.lock', 'uv.lock', 'Pipfile.lock', 'pdm.lock'],
  venv: ['poetry.lock', 'uv.lock', 'Pipfile.lock', 'pdm.lock'],
  target: ['Cargo.lock'],
  bundle: ['Gemfile.lock'],
  vendor: ['Gemfile.lock', 'composer.lock', 'go.sum'],
};
const ALL_LOCKFILES = [...new Set(Object.values(LOCKFILES).flat())];

/** Paths the team owns: never copied into a worktree. */
const TEAM_PATHS = ['.worktrees/', '.thclaws/', '.git/'];

function inside(dir: string, p: string): boolean {
  const rel = path.relative(dir, p);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** A destination below `wt` whose existing parents are real directories inside it (no symlink leads out). */
function safeDest(wt: string, rel: string): string | null {
  const dst = path.resolve(wt, rel);
  if (!inside(wt, dst)) return null;
  let dir = path.dirname(dst);
  while (dir !== wt && !fs.existsSync(dir)) dir = path.dirname(dir);
  try {
    return inside(wt, fs.realpathSync(dir)) || fs.realpathSync(dir) === wt ? dst : null;
  } catch {
    return null;
  }
}

/** The untracked and ignored files of the lead's checkout that `.worktreeinclude` lists (git matches them). */
export async function includedFiles(root: string): Promise<string[]> {
  const list = path.join(root, WORKTREE_INCLUDE);
  if (!fs.existsSync(list)) return [];
  const r = await runGit(root, ['ls-files', '-z', '--others', '--ignored', `--exclude-from=${list}`]);
  if (r.code !== 0) throw new Error(`${WORKTREE_INCLUDE}: git ls-files failed: ${r.stderr.trim()}`);
  return splitZ(r.stdout).filter((f) => !TEAM_PATHS.some((t) => f.startsWith(t)));
}

/** Copies `files` (relative to `root`) into `wt`, keeping modes and symlinks as they are; returns the count copied. */
export function copyIncluded(root: string, wt: string, files: string[]): number {
  let n = 0;
  for (const rel of files) {
    const src = path.join(root, rel);
    const dst = safeDest(wt, rel);
    // Already there (a tracked file of the same name, or a dangling link): the worktree's own wins.
    if (!dst || fs.lstatSync(dst, { throwIfNoEntry: false })) continue;
    const st = fs.lstatSync(src, { throwIfNoEntry: false });
    if (!st) continue;
    fs.mkdirSync(path.dirname(dst), { recursive: true });
    if (st.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(src), dst);
    else if (st.isFile()) {
      fs.copyFileSync(src, dst, fs.constants.COPYFILE_FICLONE);
      fs.chmodSync(dst, st.mode & 0o7777);
    } else continue;
    n++;
  }
  return n;
}

/** The lockfiles that decide whether `dir` can be reused: next to it, else at the project root. */
function lockfilesFor(root: string, dir: string): string[] {
  const names = LOCKFILES[path.basename(dir)] ?? ALL_LOCKFILES;
  for (const at of [path.dirname(dir), '.']) {
    const found = names.map((n) => path.join(at, n)).filter((f) => fs.existsSync(path.join(root, f)));
    if (found.length) return found;
  }
  return [];
}

/** Why `dir` cannot be reused, or null when every lockfile of the lead's is byte-identical in the worktree. */
export function lockfileMismatch(root: string, wt: string, dir: string): string | null {
  const locks = lockfilesFor(root, dir);
  if (!locks.length) return 'no lockfile to compare';
  for (const f of locks) {
    const theirs = fs.readFileSync(path.join(root, f));
    let mine: Buffer;
    try {
      mine = fs.readFileSync(path.join(wt, f));
    } catch {
      return `${f} is not in the worktree (not committed?)`;
    }
    if (!theirs.equals(mine)) return `${f} differs from the lead's`;
  }
  return null;
}

const run = (cmd: string, args: string[]) =>
  new Promise<{ ok: boolean; err: string }>((resolve) => execFile(cmd, args, { maxBuffer: 4 << 20 }, (e, _o, stderr) => resolve({ ok: !e, err: String(stderr || e?.message || '').trim() })));

export type CloneHow = 'reflink' | 'hard links';

/** The first regular file below `dir` (breadth-first, a bounded look), to probe clones with. */
function someFile(dir: string): string | null {
  const queue = [dir];
  for (let seen = 0; queue.length && seen < 200; seen++) {
    const d = queue.shift()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (e.isFile()) return path.join(d, e.name);
      if (e.isDirectory()) queue.push(path.join(d, e.name));
    }
  }
  return null;
}

/**
 * Whether files of `src` can be cloned copy-on-write next to `dst`: one file, tried first. A tree copy with
 * `--reflink=always` on a filesystem without clones fails file by file after making every directory (16 s
 * and an 8 s clean-up for this repository's node_modules on ext4, against 7 s for the hard links).
 */
function canReflink(src: string, dst: string): boolean {
  const file = someFile(src);
  if (!file) return false;
  const probe = path.join(path.dirname(dst), `.thclaws-reflink-probe-${process.pid}`);
  try {
    fs.copyFileSync(file, probe, fs.constants.COPYFILE_FICLONE_FORCE);
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(probe, { force: true });
  }
}

/**
 * `src` cloned to `dst` (which must not exist): copy-on-write clones where the filesystem has them (each file
 * independent from the first write), else hard links (files shared until replaced). Throws when neither works.
 */
export async function cloneTree(src: string, dst: string): Promise<CloneHow> {
  const attempts: Array<[CloneHow, string[]]> =
    process.platform === 'darwin'
      ? [['reflink', ['-c', '-pPR', src, dst]]]
      : [
          ...(canReflink(src, dst) ? [['reflink', ['-a', '--reflink=always', src, dst]] as [CloneHow, string[]]] : []),
          ['hard links', ['-al', src, dst]],
        ];
  let last = '';
  for (const [how, args] of attempts) {
    const r = await run('cp', args);
    if (r.ok) return how;
    last = r.err.split('\n')[0] ?? '';
    await fs.promises.rm(dst, { recursive: true, force: true });
  }
  throw new Error(last || 'cp failed');
}

export interface ReuseResult {
  dir: string;
  /** How it was cloned, or why not. */
  how?: CloneHow;
  skipped?: string;
  ms: number;
}

/** Clones each configured dependency folder the lead has and the worktree lacks, when its lockfile matches. */
export async function reuseDependencies(root: string, wt: string, dirs: readonly string[]): Promise<ReuseResult[]> {
  const out: ReuseResult[] = [];
  for (const dir of dirs) {
    const t0 = Date.now();
    const src = path.join(root, dir);
    const dst = safeDest(wt, dir);
    const st = fs.lstatSync(src, { throwIfNoEntry: false });
    if (!st?.isDirectory() || !dst) continue;
    if (fs.existsSync(dst)) {
      out.push({ dir, skipped: 'already in the worktree', ms: 0 });
      continue;
    }
    const why = lockfileMismatch(root, wt, dir);
    if (why) {
      out.push({ dir, skipped: why, ms: Date.now() - t0 });
      continue;
    }
    fs.mkdirSync(path.dirname(dst), { recursive: true });
    try {
      out.push({ dir, how: await cloneTree(src, dst), ms: Date.now() - t0 });
    } catch (err) {
      out.push({ dir, skipped: `could not clone: ${(err as Error).message}`, ms: Date.now() - t0 });
    }
  }
  return out;
}
