/**
 * Early conflict warnings: for every pair of teammates whose work (committed and uncommitted) touches the same
 * file, `overlap` when git would merge it clean and `conflict` when `git merge-tree --write-tree` reports a
 * conflict, with the files and the base line ranges both sides touch. Everything is cached on commit ids, so
 * a rescan after one teammate's write costs that teammate's snapshot and the merges of its pairs only.
 */
import { runGit, splitZ } from './git-run.js';
import { hunkRangesByFile, intersectRanges, parseMergeTree, type LineRange } from './diff-parse.js';
import { leadBranch, revParse, worktreeOf } from './changes.js';
import { snapshotWorktree } from './snapshot.js';

export interface WarningFile {
  path: string;
  conflict: boolean;
  /** Lines (in the common base) both sides change; empty when the conflict is not about lines (delete/modify). */
  lines: LineRange[];
}

export interface ConflictWarning {
  kind: 'overlap' | 'conflict';
  /** The two teammates, sorted. */
  agents: [string, string];
  files: WarningFile[];
  /** Stable identity of this warning (kind, agents, conflicting paths): a new id is a new warning. */
  id: string;
}

interface Tip {
  commit: string;
  base: string;
  paths: Set<string>;
}

/** Holds the caches between scans; one per workspace. */
export class ConflictScanner {
  private readonly tips = new Map<string, Tip>();
  private readonly pairs = new Map<string, ConflictWarning | null>();
  /** Per tip (base and commit): the base line ranges its diff touches, by path; one `git diff` per tip. */
  private readonly ranges = new Map<string, Map<string, LineRange[]>>();

  constructor(private readonly root: string) {}

  /** Re-reads one teammate's work (its branch and worktree); null when it has no branch. */
  async refreshTip(agent: string, into: string): Promise<Tip | null> {
    const wt = worktreeOf(this.root, agent);
    let commit: string | null;
    if (wt) commit = (await snapshotWorktree(wt).catch(() => null))?.commit ?? (await revParse(this.root, `refs/heads/team/${agent}`));
    else commit = await revParse(this.root, `refs/heads/team/${agent}`);
    if (!commit) {
      this.tips.delete(agent);
      return null;
    }
    const prev = this.tips.get(agent);
    const base = (await runGit(this.root, ['merge-base', into, commit])).stdout.toString('utf8').trim();
    if (prev && prev.commit === commit && prev.base === base) return prev;
    const names = base ? splitZ((await runGit(this.root, ['diff', '--no-renames', '--name-only', '-z', base, commit])).stdout) : [];
    const tip = { commit, base, paths: new Set(names) };
    this.tips.set(agent, tip);
    return tip;
  }

  /**
   * Every warning among `agents`. `changed` (default: all) are the teammates whose work may have changed
   * since the last scan; the others' snapshots are reused.
   */
  async scan(agents: string[], changed?: Iterable<string>, into?: string): Promise<ConflictWarning[]> {
    const target = into ?? (await leadBranch(this.root));
    const redo = new Set(changed ?? agents);
    for (const a of agents) if (redo.has(a) || !this.tips.has(a)) await this.refreshTip(a, target);
    for (const a of this.tips.keys()) if (!agents.includes(a)) this.tips.delete(a);
    const names = agents.filter((a) => this.tips.has(a)).sort();
    const out: ConflictWarning[] = [];
    const live = new Set<string>();
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        const a = names[i]!;
        const b = names[j]!;
        const ta = this.tips.get(a)!;
        const tb = this.tips.get(b)!;
        const shared = [...ta.paths].filter((p) => tb.paths.has(p));
        if (!shared.length) continue;
        const key = `${ta.commit}:${tb.commit}`;
        live.add(key);
        let w = this.pairs.get(key);
        if (w === undefined) {
          w = await this.pairWarning([a, b], ta, tb, shared);
          this.pairs.set(key, w);
        }
        if (w) out.push(w);
      }
    }
    for (const k of this.pairs.keys()) if (!live.has(k)) this.pairs.delete(k);
    return out;
  }

  private async pairWarning(agents: [string, string], ta: Tip, tb: Tip, shared: string[]): Promise<ConflictWarning | null> {
    const mt = await runGit(this.root, ['merge-tree', '--write-tree', '-z', ta.commit, tb.commit]);
    if (mt.code !== 0 && mt.code !== 1) return null; // unrelated histories and the like: nothing to say
    const parsed = parseMergeTree(mt.stdout, mt.code === 0);
    const files: WarningFile[] = [];
    for (const p of shared.sort()) {
      const conflict = parsed.conflicted.includes(p);
      const lines = intersectRanges(await this.rangesOf(ta, p), await this.rangesOf(tb, p));
      files.push({ path: p, conflict, lines });
    }
    // A conflict on a path neither side names alike (rename/rename, directory/file) still counts.
    for (const p of parsed.conflicted) if (!shared.includes(p)) files.push({ path: p, conflict: true, lines: [] });
    const kind = files.some((f) => f.conflict) ? 'conflict' : 'overlap';
    const conflicting = files.filter((f) => f.conflict || kind === 'overlap').map((f) => f.path);
    return { kind, agents, files, id: `${kind}:${agents.join('+')}:${JSON.stringify(conflicting)}` };
  }

  private async rangesOf(tip: Tip, p: string): Promise<LineRange[]> {
    const key = `${tip.base}:${tip.commit}`;
    let byFile = this.ranges.get(key);
    if (!byFile) {
      const d = await runGit(this.root, ['-c', 'core.bigFileThreshold=5m', 'diff', '--no-renames', '--no-ext-diff', '--no-color', '-U0', tip.base, tip.commit], { maxBytes: 64 * 1024 * 1024 });
      byFile = hunkRangesByFile(d.stdout.toString('utf8'));
      if (this.ranges.size > 200) this.ranges.clear();
      this.ranges.set(key, byFile);
    }
    return byFile.get(p) ?? [];
  }
}

/** One scan, no cache kept (the CLI). */
export async function scanConflicts(root: string, agents: string[]): Promise<ConflictWarning[]> {
  return new ConflictScanner(root).scan(agents);
}
