/**
 * Early conflict warnings: for every pair of teammates whose work (committed and uncommitted) touches the same
 * file, `overlap` when git would merge it clean and `conflict` when `git merge-tree --write-tree` reports a
 * conflict, with the files and the base line ranges both sides touch.
 *
 * Built to answer within a few hundred milliseconds of a write: only the teammates whose work changed are
 * re-snapshotted; each teammate's touched paths and line ranges come from one `git diff` per snapshot (cached
 * on the commit ids); `merge-tree` runs only for pairs that share a path and have not been merged at these
 * exact commits before, all of them in one `git merge-tree --stdin` process.
 */
import { literalPath, runGit } from '../git.js';
import { intersectRanges, parseMergeTree, parseMergeTreeBatch, parseRawPatch, type LineRange, type Merged, type TouchedFile } from './diff-parse.js';
import { leadBranch, revParse, worktreeOf } from './changes.js';
import { WorktreeSnapshots } from './snapshot.js';
import { FileMerges, isRegular, type FileTriple } from './file-merges.js';
import { teammateBranch } from '../../contract/branch.js';

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
  /** The commit the snapshot sits on (the branch's tip), or the commit itself. */
  head: string;
  /** Merge base of the lead's tip and `head`. */
  base: string | null;
  /** The lead's tip and this commit: what the paths and ranges were computed against. */
  key: string;
  /** Every path the teammate's work touches since the merge base. */
  files: Map<string, TouchedFile>;
}

export interface ScanOptions {
  /** The lead's branch (default: the one checked out in the lead's checkout). */
  into?: string;
  /** The lead branch's commit when the caller knows it (saves a lookup). */
  intoTip?: string | null;
  /**
   * Per teammate, every worktree-relative path written since the last scan: the snapshot skips a walk, and
   * only these paths are diffed again.
   */
  hints?: Map<string, Iterable<string>>;
}

const MAX_CACHED_TIPS = 64;
const PARALLEL_SNAPSHOTS = 3;
/** Pairs are merged by this many `merge-tree --stdin` processes side by side (each core gets one or more). */
const PARALLEL_MERGES = 4;

async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

interface Pair {
  a: string;
  b: string;
  ta: Tip;
  tb: Tip;
  shared: string[];
  key: string;
}

/** Holds the caches between scans; one per workspace. `dispose()` removes its private indexes. */
export class ConflictScanner {
  private readonly tips = new Map<string, Tip>();
  private readonly diffs = new Map<string, Map<string, TouchedFile>>();
  private readonly bases = new Map<string, string | null>();
  private readonly pairBases = new Map<string, string | null>();
  private readonly merges = new Map<string, Merged | null>();
  /** Per pair of teammates: the tips of their last merge and its result (the start of the next delta). */
  private readonly lastMerge = new Map<string, { ta: Tip; tb: Tip; merged: Merged }>();
  private readonly snapshots = new WorktreeSnapshots();
  private readonly fileMerges: FileMerges;
  /** Counters for benchmarks: snapshots taken, diffs run, whole pairs merged, pairs merged file by file. */
  readonly stats = { snapshots: 0, diffs: 0, merges: 0, delta_merges: 0 };

  constructor(private readonly root: string) {
    this.fileMerges = new FileMerges(root);
  }

  private async baseOf(intoTip: string, head: string): Promise<string | null> {
    const key = `${intoTip}:${head}`;
    if (!this.bases.has(key)) {
      const r = await runGit(this.root, ['merge-base', intoTip, head]);
      if (this.bases.size > 1000) this.bases.clear();
      this.bases.set(key, r.code === 0 ? r.stdout.toString('utf8').trim() : null);
    }
    return this.bases.get(key)!;
  }

  /** Re-reads one teammate's work (its branch and worktree); drops it when it has no branch. */
  private async refreshTip(agent: string, intoTip: string, hint?: Iterable<string>): Promise<void> {
    const wt = worktreeOf(this.root, agent);
    const hinted = hint ? [...hint] : undefined;
    let snap: { commit: string; head: string } | null = null;
    if (wt) {
      this.stats.snapshots++;
      snap = await this.snapshots.snapshot(wt, hinted).catch(() => null);
    }
    if (!snap) {
      const c = await revParse(this.root, `refs/heads/${teammateBranch(agent)}`);
      snap = c ? { commit: c, head: c } : null;
    }
    if (!snap) {
      this.tips.delete(agent);
      return;
    }
    const key = `${intoTip}:${snap.commit}`;
    const prev = this.tips.get(agent);
    if (prev?.key === key) return;
    const basePromise = this.baseOf(intoTip, snap.head);
    let files = this.diffs.get(key);
    if (!files) {
      this.stats.diffs++;
      // Same base (same lead tip, same HEAD) and the written paths known: only those paths can differ.
      const only = prev && hinted && prev.key.startsWith(`${intoTip}:`) && prev.head === snap.head ? hinted : null;
      const d = await runGit(this.root, ['-c', 'core.bigFileThreshold=5m', 'diff', '--no-renames', '--no-ext-diff', '--no-color', '--no-textconv', '--raw', '--no-abbrev', '-p', '-U0', '-z', `${intoTip}...${snap.commit}`, ...(only ? ['--', ...only.map(literalPath)] : [])], { maxBytes: 64 * 1024 * 1024 });
      const found = d.code === 0 ? parseRawPatch(d.stdout) : new Map<string, TouchedFile>();
      if (only && d.code === 0) {
        files = new Map(prev!.files);
        for (const p of only) for (const k of files.keys()) if (k === p || k.startsWith(`${p}/`)) files.delete(k);
        for (const [p, r] of found) files.set(p, r);
      } else files = found;
      if (this.diffs.size >= MAX_CACHED_TIPS) this.diffs.delete(this.diffs.keys().next().value!);
      this.diffs.set(key, files);
    }
    this.tips.set(agent, { commit: snap.commit, head: snap.head, base: await basePromise, key, files });
  }

  /**
   * Every warning among `agents`. `changed` (default: all) are the teammates whose work may have changed
   * since the last scan; the others' snapshots are reused.
   */
  async scan(agents: string[], changed?: Iterable<string>, opts: ScanOptions = {}): Promise<ConflictWarning[]> {
    const target = opts.into ?? (await leadBranch(this.root));
    const redo = new Set(changed ?? agents);
    const intoTip = opts.intoTip !== undefined ? opts.intoTip : await revParse(this.root, target);
    for (const a of this.tips.keys()) {
      if (agents.includes(a)) continue;
      this.tips.delete(a);
      const wt = worktreeOf(this.root, a);
      if (wt) this.snapshots.forget(wt);
    }
    if (!intoTip) {
      this.tips.clear();
      return [];
    }
    const todo = agents.filter((a) => redo.has(a) || !this.tips.has(a) || !this.tips.get(a)!.key.startsWith(`${intoTip}:`));
    await pool(todo, PARALLEL_SNAPSHOTS, (a) => this.refreshTip(a, intoTip, opts.hints?.get(a)));
    const names = agents.filter((a) => this.tips.has(a)).sort();
    const pairs: Pair[] = [];
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        const ta = this.tips.get(names[i]!)!;
        const tb = this.tips.get(names[j]!)!;
        const shared = [...ta.files.keys()].filter((p) => tb.files.has(p));
        if (shared.length) pairs.push({ a: names[i]!, b: names[j]!, ta, tb, shared, key: `${ta.commit}:${tb.commit}` });
      }
    }
    const fresh = pairs.filter((p) => !this.merges.has(p.key));
    const whole = await this.mergeByFile(fresh);
    await this.mergeAll(whole.map((p) => [p.key, p.ta.commit, p.tb.commit] as const));
    if (pairs.length) void this.fileMerges.prepare(); // ready before the first write that needs it
    const live = new Set(pairs.map((p) => p.key));
    for (const k of this.merges.keys()) if (!live.has(k)) this.merges.delete(k);
    const out: ConflictWarning[] = [];
    for (const p of pairs) {
      const merged = this.merges.get(p.key);
      if (merged) this.lastMerge.set(`${p.a}\0${p.b}`, { ta: p.ta, tb: p.tb, merged });
      if (merged) out.push(warningOf([p.a, p.b], p.ta, p.tb, p.shared, merged));
    }
    return out;
  }

  /**
   * The pairs whose last merge can be brought up to date file by file (every path that changed since is a
   * plain modification of a base file on both sides, over the same merge base): merged so, and their
   * results recorded. Returns the pairs that need a whole merge.
   */
  private async mergeByFile(fresh: Pair[]): Promise<Pair[]> {
    const whole: Pair[] = [];
    const plans: Array<{ pair: Pair; keep: string[]; triples: Array<[string, FileTriple]> }> = [];
    for (const pair of fresh) {
      const plan = await this.deltaPlan(pair);
      if (plan) plans.push({ pair, ...plan });
      else whole.push(pair);
    }
    if (!plans.length) return whole;
    const all = plans.flatMap((p) => p.triples.map(([, t]) => t));
    const got = all.length ? await this.fileMerges.conflicts(all) : [];
    if (!got) return [...whole, ...plans.map((p) => p.pair)];
    let i = 0;
    for (const plan of plans) {
      const conflicted = [...plan.keep];
      for (const [p] of plan.triples) if (got[i++]) conflicted.push(p);
      this.merges.set(plan.pair.key, { conflicted });
      this.stats.delta_merges++;
    }
    return whole;
  }

  private async deltaPlan(pair: Pair): Promise<{ keep: string[]; triples: Array<[string, FileTriple]> } | null> {
    const last = this.lastMerge.get(`${pair.a}\0${pair.b}`);
    if (!last) return null;
    const { ta, tb } = pair;
    const intoOf = (t: Tip) => t.key.slice(0, t.key.indexOf(':'));
    if (last.ta.head !== ta.head || last.tb.head !== tb.head || intoOf(last.ta) !== intoOf(ta) || intoOf(last.tb) !== intoOf(ta) || intoOf(tb) !== intoOf(ta)) return null;
    if (!ta.base || ta.base !== tb.base || (await this.pairBase(ta, tb)) !== ta.base) return null;
    const changedPaths = new Set([...changedBetween(last.ta, ta), ...changedBetween(last.tb, tb)]);
    const plain = (f: TouchedFile | undefined) => !f || (f.status === 'M' && isRegular(f.old) && isRegular(f.new));
    const triples: Array<[string, FileTriple]> = [];
    for (const p of changedPaths) {
      const recs = [last.ta.files.get(p), ta.files.get(p), last.tb.files.get(p), tb.files.get(p)];
      if (oneSidedAdd(recs.slice(0, 2), recs.slice(2), ta, last.ta) || oneSidedAdd(recs.slice(2), recs.slice(0, 2), tb, last.tb)) continue;
      if (!recs.every(plain)) return null;
      const [fa, fb] = [ta.files.get(p), tb.files.get(p)];
      if (!fa || !fb) continue; // touched by one side only now: no conflict there
      if (fa.old.blob !== fb.old.blob || fa.old.mode !== fb.old.mode) return null;
      triples.push([p, { name: p, base: fa.old, ours: fa.new, theirs: fb.new }]);
    }
    return { keep: last.merged.conflicted.filter((p) => !changedPaths.has(p)), triples };
  }

  /** Merge base of two teammates' work; the common base itself when one of them has no commits of its own. */
  private async pairBase(ta: Tip, tb: Tip): Promise<string | null> {
    if (ta.base && ta.base === tb.base && (ta.head === ta.base || tb.head === tb.base)) return ta.base;
    const key = [ta.head, tb.head].sort().join(':');
    if (!this.pairBases.has(key)) {
      const r = await runGit(this.root, ['merge-base', ta.head, tb.head]);
      if (this.pairBases.size > 1000) this.pairBases.clear();
      this.pairBases.set(key, r.code === 0 ? r.stdout.toString('utf8').trim() : null);
    }
    return this.pairBases.get(key)!;
  }

  /** Merges the pairs in a few `merge-tree --stdin` processes side by side. */
  private async mergeAll(todo: ReadonlyArray<readonly [string, string, string]>): Promise<void> {
    if (!todo.length) return;
    this.stats.merges += todo.length;
    const per = Math.ceil(todo.length / PARALLEL_MERGES);
    const batches = [];
    for (let i = 0; i < todo.length; i += per) batches.push(todo.slice(i, i + per));
    await Promise.all(batches.map((b) => this.mergeBatch(b)));
  }

  /** Merges the pairs in one `merge-tree --stdin` process; one process per pair if the batch fails. */
  private async mergeBatch(todo: ReadonlyArray<readonly [string, string, string]>): Promise<void> {
    const batch = await runGit(this.root, ['merge-tree', '--write-tree', '-z', '--stdin'], { input: todo.map(([, a, b]) => `${a} ${b}\n`).join('') });
    const parsed = batch.code === 0 ? parseMergeTreeBatch(batch.stdout, todo.length) : null;
    if (parsed) {
      todo.forEach(([key], i) => this.merges.set(key, parsed[i]!));
      return;
    }
    // Unrelated histories and the like end the whole batch: merge each pair alone, skipping the ones git refuses.
    for (const [key, a, b] of todo) {
      const mt = await runGit(this.root, ['merge-tree', '--write-tree', '-z', a, b]);
      this.merges.set(key, mt.code === 0 || mt.code === 1 ? { conflicted: parseMergeTree(mt.stdout, mt.code === 0).conflicted } : null);
    }
  }

  dispose(): void {
    this.snapshots.dispose();
    this.fileMerges.dispose();
  }
}

/**
 * A new file on one side that the other side never touched: it cannot conflict, and it cannot be the target
 * of a rename while that side deletes nothing.
 */
function oneSidedAdd(mine: Array<TouchedFile | undefined>, theirs: Array<TouchedFile | undefined>, now: Tip, before: Tip): boolean {
  if (theirs.some(Boolean) || !mine.some(Boolean) || !mine.every((f) => !f || f.status === 'A')) return false;
  const deletes = (t: Tip) => [...t.files.values()].some((f) => f.status === 'D');
  return !deletes(now) && !deletes(before);
}

/** Paths whose record differs between two tips of one teammate. */
function changedBetween(from: Tip, to: Tip): string[] {
  if (from === to || from.files === to.files) return [];
  const out: string[] = [];
  for (const [p, f] of to.files) {
    const o = from.files.get(p);
    if (!o || o.new.blob !== f.new.blob || o.new.mode !== f.new.mode || o.status !== f.status) out.push(p);
  }
  for (const p of from.files.keys()) if (!to.files.has(p)) out.push(p);
  return out;
}

function warningOf(agents: [string, string], ta: Tip, tb: Tip, shared: string[], merged: Merged): ConflictWarning {
  const files: WarningFile[] = [];
  for (const p of [...shared].sort()) files.push({ path: p, conflict: merged.conflicted.includes(p), lines: intersectRanges(ta.files.get(p)?.ranges ?? [], tb.files.get(p)?.ranges ?? []) });
  // A conflict on a path neither side names alike (rename/rename, directory/file) still counts.
  for (const p of merged.conflicted) if (!shared.includes(p)) files.push({ path: p, conflict: true, lines: [] });
  const kind = files.some((f) => f.conflict) ? 'conflict' : 'overlap';
  const conflicting = files.filter((f) => f.conflict || kind === 'overlap').map((f) => f.path);
  return { kind, agents, files, id: `${kind}:${agents.join('+')}:${JSON.stringify(conflicting)}` };
}

/** One scan, no cache kept (the CLI). */
export async function scanConflicts(root: string, agents: string[]): Promise<ConflictWarning[]> {
  const scanner = new ConflictScanner(root);
  try {
    return await scanner.scan(agents);
  } finally {
    scanner.dispose();
  }
}
