/**
 * A teammate's whole work (commits and uncommitted files) as one commit object, made without touching its
 * index or its files: the worktree's index is copied to a temporary GIT_INDEX_FILE, `git add -A` runs against
 * the copy (ignored files stay out, as in a real commit), and `write-tree` + `commit-tree` record the result.
 * The commit is dangling (no ref names it) and deterministic: the same work gives the same id, so callers
 * can cache on it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { gitText, runGit } from './git-run.js';
import { HUGE_FILE_BYTES } from './changes.js';

const SNAPSHOT_ENV = {
  GIT_AUTHOR_NAME: 'thclaws snapshot',
  GIT_AUTHOR_EMAIL: 'snapshot@thclaws.local',
  GIT_COMMITTER_NAME: 'thclaws snapshot',
  GIT_COMMITTER_EMAIL: 'snapshot@thclaws.local',
  GIT_AUTHOR_DATE: '1700000000 +0000',
  GIT_COMMITTER_DATE: '1700000000 +0000',
};

/** Untracked or modified files past the size limit: left out of the snapshot (hashing them would stall). */
async function hugeUntracked(worktree: string): Promise<string[]> {
  const r = await runGit(worktree, ['ls-files', '-z', '--others', '--exclude-standard', '--modified']);
  if (r.code !== 0) return [];
  const out: string[] = [];
  for (const p of r.stdout.toString('utf8').split('\0')) {
    if (!p) continue;
    try {
      if (fs.lstatSync(path.join(worktree, p)).size > HUGE_FILE_BYTES) out.push(p);
    } catch {
      // deleted: nothing to hash
    }
  }
  return out;
}

/**
 * The commit that holds the worktree as it is now: HEAD itself when nothing is uncommitted, otherwise a
 * snapshot commit whose parent is HEAD.
 */
export async function snapshotWorktree(worktree: string): Promise<{ commit: string; dirty: boolean }> {
  const head = (await gitText(worktree, ['rev-parse', 'HEAD'])).trim();
  const indexPath = path.resolve(worktree, (await gitText(worktree, ['rev-parse', '--git-path', 'index'])).trim());
  const tmp = path.join(os.tmpdir(), `thclaws-snapshot-${process.pid}-${randomUUID().slice(0, 8)}.index`);
  try {
    // The copy keeps the index's stat cache, so `add -A` re-hashes only files that changed.
    try {
      fs.copyFileSync(indexPath, tmp);
    } catch {
      await gitText(worktree, ['read-tree', 'HEAD'], { env: { GIT_INDEX_FILE: tmp } });
    }
    const env = { GIT_INDEX_FILE: tmp, ...SNAPSHOT_ENV };
    const huge = await hugeUntracked(worktree);
    const exclude = huge.map((p) => `:(exclude,literal)${p}`);
    const add = await runGit(worktree, ['add', '-A', '--', '.', ...exclude], { env });
    if (add.code !== 0) throw new Error(`git add (snapshot) failed: ${add.stderr.trim().split('\n')[0] ?? ''}`);
    const tree = (await gitText(worktree, ['write-tree'], { env })).trim();
    const headTree = (await gitText(worktree, ['rev-parse', 'HEAD^{tree}'])).trim();
    if (tree === headTree) return { commit: head, dirty: false };
    const commit = (await gitText(worktree, ['commit-tree', tree, '-p', head, '-m', 'thclaws snapshot (uncommitted work)'], { env })).trim();
    return { commit, dirty: true };
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}
