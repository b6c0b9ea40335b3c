/**
 * A teammate's whole work (commits and uncommitted files) as one commit object, made without touching its
 * index or its files: `git add -A` runs against a private index (GIT_INDEX_FILE) seeded from the worktree's
 * own, and `write-tree` + `commit-tree` record the result. The commit is dangling (no ref names it) and
 * deterministic: the same work gives the same id, so callers can cache on it.
 *
 * The private index is kept between snapshots (its stat cache makes the next `add -A` re-hash only files
 * that changed since) and re-seeded whenever the worktree's own index changes (the teammate staged or
 * committed). Files past the size limit are left out; with the paths that changed (from a file watcher) the
 * set of such files is kept up to date without another walk of the worktree.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitText, runGit, splitZ } from '../git.js';
import { HUGE_FILE_BYTES } from './changes.js';

const SNAPSHOT_ENV = {
  GIT_AUTHOR_NAME: 'thclaws snapshot',
  GIT_AUTHOR_EMAIL: 'snapshot@thclaws.local',
  GIT_COMMITTER_NAME: 'thclaws snapshot',
  GIT_COMMITTER_EMAIL: 'snapshot@thclaws.local',
  GIT_AUTHOR_DATE: '1700000000 +0000',
  GIT_COMMITTER_DATE: '1700000000 +0000',
};

export interface Snapshot {
  commit: string;
  /** Something is not committed (the commit is a snapshot, not HEAD). */
  dirty: boolean;
  /** The worktree's HEAD (the snapshot's parent). */
  head: string;
}

interface WorktreeState {
  index: string;
  /** The worktree's own index file, and its stat signature when the private index was seeded from it. */
  realIndex: string;
  seed: string;
  /** Files left out for their size (null: not known yet, a walk is needed). */
  huge: Set<string> | null;
  queue: Promise<unknown>;
}

function statSig(p: string): string {
  try {
    const st = fs.statSync(p);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

/** The index file of a checkout: `.git/index`, or the one in the gitdir a linked worktree's `.git` file names. */
function realIndexOf(worktree: string): string {
  const dotGit = path.join(worktree, '.git');
  try {
    if (fs.statSync(dotGit).isDirectory()) return path.join(dotGit, 'index');
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(fs.readFileSync(dotGit, 'utf8'));
    if (m) return path.join(path.resolve(worktree, m[1]!), 'index');
  } catch {
    // not a checkout: git itself will say so
  }
  return path.join(dotGit, 'index');
}

/** Snapshots of many worktrees, each with its private index; `dispose()` removes the indexes. */
export class WorktreeSnapshots {
  private dir: string | null = null;
  private made = 0;
  private readonly state = new Map<string, WorktreeState>();

  private stateOf(worktree: string): WorktreeState {
    let s = this.state.get(worktree);
    if (!s) {
      this.dir ??= fs.mkdtempSync(path.join(os.tmpdir(), `thclaws-snapshots-${process.pid}-`));
      s = { index: path.join(this.dir, `${this.made++}.index`), realIndex: realIndexOf(worktree), seed: '', huge: null, queue: Promise.resolve() };
      this.state.set(worktree, s);
    }
    return s;
  }

  /**
   * The commit that holds the worktree as it is now: HEAD itself when nothing is uncommitted, otherwise a
   * snapshot commit whose parent is HEAD. `changed`: worktree-relative paths written since the last call
   * (a hint; without it the worktree is walked for files past the size limit).
   */
  snapshot(worktree: string, changed?: Iterable<string>): Promise<Snapshot> {
    const s = this.stateOf(worktree);
    // One snapshot of a worktree at a time: they share the private index.
    const run = s.queue.then(() => this.take(worktree, s, changed));
    s.queue = run.catch(() => undefined);
    return run;
  }

  private async take(worktree: string, s: WorktreeState, changed?: Iterable<string>): Promise<Snapshot> {
    const env = { GIT_INDEX_FILE: s.index, ...SNAPSHOT_ENV };
    const seed = statSig(s.realIndex);
    if (seed !== s.seed || !fs.existsSync(s.index)) {
      try {
        fs.copyFileSync(s.realIndex, s.index);
      } catch {
        fs.rmSync(s.index, { force: true });
        await gitText(worktree, ['read-tree', 'HEAD'], { env });
      }
      s.seed = seed;
      s.huge = null;
    }
    const huge = await this.hugeFiles(worktree, s, env, changed);
    const exclude = [...huge].map((p) => `:(exclude,literal)${p}`);
    // HEAD is read while `add` runs: both are needed before the tree can be compared and recorded.
    const [add, heads] = await Promise.all([runGit(worktree, ['add', '-A', '--', '.', ...exclude], { env }), gitText(worktree, ['rev-parse', 'HEAD', 'HEAD^{tree}'])]);
    if (add.code !== 0) {
      fs.rmSync(s.index, { force: true }); // a broken private index is rebuilt next time
      throw new Error(`git add (snapshot) failed: ${add.stderr.trim().split('\n')[0] ?? ''}`);
    }
    const [head, headTree] = heads.trim().split('\n');
    const tree = (await gitText(worktree, ['write-tree'], { env })).trim();
    if (tree === headTree) return { commit: head!, dirty: false, head: head! };
    const commit = (await gitText(worktree, ['commit-tree', tree, '-p', head!, '-m', 'thclaws snapshot (uncommitted work)'], { env })).trim();
    return { commit, dirty: true, head: head! };
  }

  /** Untracked or modified files past the size limit: left out of the snapshot (hashing them would stall). */
  private async hugeFiles(worktree: string, s: WorktreeState, env: Record<string, string>, changed?: Iterable<string>): Promise<Set<string>> {
    if (s.huge && changed && this.applyHints(worktree, s.huge, changed)) return s.huge;
    const r = await runGit(worktree, ['ls-files', '-z', '--others', '--exclude-standard', '--modified'], { env });
    const out = new Set<string>();
    if (r.code === 0) {
      for (const p of splitZ(r.stdout)) {
        try {
          if (fs.lstatSync(path.join(worktree, p)).size > HUGE_FILE_BYTES) out.add(p);
        } catch {
          // deleted: nothing to hash
        }
      }
    }
    s.huge = out;
    return out;
  }

  /** Updates the huge set from the changed paths; false when a path is a directory (a walk is needed). */
  private applyHints(worktree: string, huge: Set<string>, changed: Iterable<string>): boolean {
    for (const rel of changed) {
      let st: fs.Stats;
      try {
        st = fs.lstatSync(path.join(worktree, rel));
      } catch {
        huge.delete(rel);
        for (const h of huge) if (h.startsWith(`${rel}/`)) huge.delete(h);
        continue;
      }
      if (st.isDirectory()) return false;
      if (st.isFile() && st.size > HUGE_FILE_BYTES) huge.add(rel);
      else huge.delete(rel);
    }
    return true;
  }

  /** Forgets a worktree (removed, or no longer a teammate's). */
  forget(worktree: string): void {
    const s = this.state.get(worktree);
    if (!s) return;
    fs.rmSync(s.index, { force: true });
    this.state.delete(worktree);
  }

  dispose(): void {
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
    this.state.clear();
  }
}

/** One snapshot, nothing kept (the CLI and one-off callers). */
export async function snapshotWorktree(worktree: string): Promise<Snapshot> {
  const snaps = new WorktreeSnapshots();
  try {
    return await snaps.snapshot(worktree);
  } finally {
    snaps.dispose();
  }
}
