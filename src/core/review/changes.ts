/**
 * What a teammate changed: the commits on `team/<name>` since its merge base with the lead's branch, plus its
 * worktree's uncommitted work (staged, unstaged, untracked and not ignored), each file marked with where it
 * is. Binary files and files past `HUGE_FILE_BYTES` are listed with their size, never read or diffed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gitText, literalPath, objectSizes, runGit, splitZ } from '../git.js';
import { parseRawNumstat, type ChangeStatus } from './diff-parse.js';
import { TEAMMATE_BRANCHES_REF, teammateBranch } from '../../contract/branch.js';

/** Past this a file is "huge": listed, never diffed (git treats it as binary through core.bigFileThreshold). */
export const HUGE_FILE_BYTES = 5 * 1024 * 1024;
const BIG = ['-c', `core.bigFileThreshold=${HUGE_FILE_BYTES}`];

export type ChangeSource = 'committed' | 'staged' | 'unstaged' | 'untracked';

export interface FileChange {
  path: string;
  old_path: string | null;
  status: ChangeStatus;
  source: ChangeSource;
  binary: boolean;
  huge: boolean;
  /** Bytes of the new side (null: deleted, or unknown). */
  size: number | null;
  added: number | null;
  deleted: number | null;
  /** Changes whenever the file's content does (blob id, or size and mtime of a worktree file): "viewed" marks key on it. */
  sig: string;
}

export interface TeammateChanges {
  agent: string;
  branch: string;
  into: string;
  /** Merge base of `branch` and `into`; null when the branch does not exist. */
  base: string | null;
  head: string | null;
  worktree: string | null;
  ahead: number;
  behind: number;
  last_commit: { sha: string; subject: string; at: number } | null;
  files: FileChange[];
}

/** The branch checked out in the lead's checkout (`HEAD` when detached). */
export async function leadBranch(root: string): Promise<string> {
  const r = await runGit(root, ['symbolic-ref', '-q', '--short', 'HEAD']);
  return r.code === 0 ? r.stdout.toString('utf8').trim() : 'HEAD';
}

export async function revParse(cwd: string, rev: string): Promise<string | null> {
  const r = await runGit(cwd, ['rev-parse', '-q', '--verify', `${rev}^{commit}`]);
  return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
}

/** The teammate's worktree when it exists and is a git checkout, else null. */
export function worktreeOf(root: string, agent: string): string | null {
  const dir = path.join(root, '.worktrees', agent);
  return fs.existsSync(path.join(dir, '.git')) ? dir : null;
}

function blobSizes(cwd: string, blobs: string[]): Promise<Map<string, number>> {
  return objectSizes(cwd, [...new Set(blobs.filter((b) => b && !/^0+$/.test(b)))]);
}

function statSig(abs: string): string {
  try {
    const st = fs.lstatSync(abs);
    return `${st.size}:${st.mtimeMs}`;
  } catch {
    return 'gone';
  }
}

function isSymlink(abs: string): boolean {
  try {
    return fs.lstatSync(abs).isSymbolicLink();
  } catch {
    return false;
  }
}

/** A worktree file's text as git would record it: a symlink's target name, a regular file's content; null for anything else. */
function worktreeText(abs: string): string | null {
  try {
    const st = fs.lstatSync(abs);
    if (st.isSymbolicLink()) return fs.readlinkSync(abs, 'utf8');
    return st.isFile() ? fs.readFileSync(abs, 'utf8') : null;
  } catch {
    return null;
  }
}

function fileSize(abs: string): number | null {
  try {
    return fs.lstatSync(abs).size;
  } catch {
    return null;
  }
}

/** One `git diff` (committed range, `--cached`, or worktree) as file changes of `source`. */
async function diffEntries(cwd: string, args: string[], source: ChangeSource, worktree: string | null): Promise<FileChange[]> {
  const out = await runGit(cwd, [...BIG, 'diff', '--no-ext-diff', '--no-textconv', '-M', '--raw', '--no-abbrev', '--numstat', '-z', ...args]);
  if (out.code !== 0) throw new Error(`git diff failed: ${out.stderr.trim().split('\n')[0] ?? ''}`);
  const entries = parseRawNumstat(out.stdout);
  const sizes = await blobSizes(cwd, entries.filter((e) => e.binary).map((e) => e.new_blob));
  return entries.map((e) => {
    let size: number | null = e.status === 'deleted' ? null : (sizes.get(e.new_blob) ?? null);
    if (size === null && e.status !== 'deleted' && e.binary && worktree) size = fileSize(path.join(worktree, e.path));
    const huge = e.binary && size !== null && size > HUGE_FILE_BYTES;
    const sig = !/^0*$/.test(e.new_blob) ? e.new_blob : worktree ? statSig(path.join(worktree, e.path)) : e.status;
    return { path: e.path, old_path: e.old_path, status: e.status, source, binary: e.binary && !huge, huge, size, added: e.added, deleted: e.deleted, sig };
  });
}

/** Untracked, not ignored files: read (up to HUGE_FILE_BYTES) for binary detection and the line count. */
async function untracked(worktree: string): Promise<FileChange[]> {
  const names = splitZ(await gitText(worktree, ['ls-files', '-z', '--others', '--exclude-standard']));
  const out: FileChange[] = [];
  for (const p of names) {
    const abs = path.join(worktree, p);
    const size = fileSize(abs);
    const base: FileChange = { path: p, old_path: null, status: 'added', source: 'untracked', binary: false, huge: false, size, added: null, deleted: 0, sig: statSig(abs) };
    if (size === null) continue;
    // git records a symlink as its target's name: never read through it (it may point outside the worktree, or at a device).
    if (isSymlink(abs)) {
      out.push({ ...base, added: 1 });
      continue;
    }
    if (size > HUGE_FILE_BYTES) {
      out.push({ ...base, huge: true, deleted: null });
      continue;
    }
    let buf: Buffer;
    try {
      buf = fs.readFileSync(abs);
    } catch {
      continue;
    }
    if (buf.subarray(0, 8000).includes(0)) {
      out.push({ ...base, binary: true, deleted: null });
      continue;
    }
    let lines = 0;
    for (const b of buf) if (b === 10) lines++;
    if (buf.length && buf[buf.length - 1] !== 10) lines++;
    out.push({ ...base, added: lines });
  }
  return out;
}

/** Committed and uncommitted changes of one teammate against the lead's branch. */
export async function teammateChanges(root: string, agent: string, opts: { into?: string; uncommitted?: boolean } = {}): Promise<TeammateChanges> {
  const into = opts.into ?? (await leadBranch(root));
  const branch = teammateBranch(agent);
  const head = await revParse(root, `refs/heads/${branch}`);
  const worktree = worktreeOf(root, agent);
  const empty: TeammateChanges = { agent, branch, into, base: null, head, worktree, ahead: 0, behind: 0, last_commit: null, files: [] };
  if (!head) return empty;
  const baseRun = await runGit(root, ['merge-base', into, head]);
  const base = baseRun.code === 0 ? baseRun.stdout.toString('utf8').trim() : null;
  const counts = (await gitText(root, ['rev-list', '--left-right', '--count', `${into}...${head}`])).trim().split(/\s+/).map(Number);
  const last = splitZ(await gitText(root, ['log', '-1', '-z', '--format=%H%x00%s%x00%ct', head]));
  const files = base ? await diffEntries(root, [base, head], 'committed', null) : [];
  if (worktree && opts.uncommitted !== false) {
    files.push(...(await diffEntries(worktree, ['--cached'], 'staged', worktree)));
    files.push(...(await diffEntries(worktree, [], 'unstaged', worktree)));
    files.push(...(await untracked(worktree)));
  }
  return {
    ...empty,
    base,
    ahead: counts[1] ?? 0,
    behind: counts[0] ?? 0,
    last_commit: last[0] ? { sha: last[0], subject: last[1] ?? '', at: Number(last[2] ?? 0) * 1000 } : null,
    files,
  };
}

/**
 * The unified patch of one file of a teammate's changes, as `git diff` writes it (null for a binary or huge
 * file: there is nothing to show but its listing). `maxBytes` bounds what a page is sent.
 */
export async function filePatch(root: string, changes: TeammateChanges, file: FileChange, maxBytes = 8 * 1024 * 1024): Promise<string | null> {
  if (file.binary || file.huge) return null;
  const spec = [literalPath(file.path), ...(file.old_path ? [literalPath(file.old_path)] : [])];
  const common = [...BIG, 'diff', '--no-ext-diff', '--no-textconv', '-M', '--no-color'];
  let r;
  if (file.source === 'committed') {
    if (!changes.base || !changes.head) return null;
    r = await runGit(root, [...common, changes.base, changes.head, '--', ...spec], { maxBytes });
  } else {
    if (!changes.worktree) return null;
    if (file.source === 'staged') r = await runGit(changes.worktree, [...common, '--cached', '--', ...spec], { maxBytes });
    else if (file.source === 'unstaged') r = await runGit(changes.worktree, [...common, '--', ...spec], { maxBytes });
    // An untracked file against nothing: exit 1 means "differs", which it always does.
    else r = await runGit(changes.worktree, [...common, '--no-index', '--', '/dev/null', file.path], { maxBytes });
  }
  if (r.truncated) return null;
  if (r.code !== 0 && !(file.source === 'untracked' && r.code === 1)) throw new Error(`git diff failed: ${r.stderr.trim().split('\n')[0] ?? ''}`);
  return r.stdout.toString('utf8');
}

/** The new side's text of a file (for a comment's lines): from the worktree for uncommitted files, else the branch. */
export async function newSideText(root: string, changes: TeammateChanges, file: FileChange): Promise<string | null> {
  if (file.status === 'deleted' || file.binary || file.huge) return null;
  if (file.source === 'unstaged' || file.source === 'untracked') {
    return worktreeText(path.join(changes.worktree!, file.path));
  }
  const cwd = file.source === 'staged' ? changes.worktree! : root;
  const rev = file.source === 'staged' ? `:0:${file.path}` : `${changes.head}:${file.path}`;
  const r = await runGit(cwd, ['cat-file', 'blob', rev], { maxBytes: HUGE_FILE_BYTES });
  return r.code === 0 ? r.stdout.toString('utf8') : null;
}

/** Every team branch's agent name (`refs/heads/team/*`). */
export async function teamBranches(root: string): Promise<string[]> {
  const out = await gitText(root, ['for-each-ref', '--format=%(refname:lstrip=3)%00', TEAMMATE_BRANCHES_REF]);
  return splitZ(out.replace(/\n/g, '')).filter(Boolean);
}
