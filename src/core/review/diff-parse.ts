/**
 * Parsers of git's `-z` output (`diff --raw --numstat -z`, `merge-tree -z`): NUL-split fields, never lines,
 * so a path may hold any byte git allows (newlines, tabs, quotes, unicode).
 */
import { splitZ } from '../git.js';

export type ChangeStatus = 'added' | 'modified' | 'deleted' | 'renamed' | 'copied' | 'type_changed';

export interface RawEntry {
  status: ChangeStatus;
  path: string;
  old_path: string | null;
  old_blob: string;
  new_blob: string;
  added: number | null;
  deleted: number | null;
  /** git reported `-\t-` (binary, or past core.bigFileThreshold). */
  binary: boolean;
}

const STATUS: Record<string, ChangeStatus> = { A: 'added', M: 'modified', D: 'deleted', R: 'renamed', C: 'copied', T: 'type_changed' };

/**
 * `git diff --raw --numstat -z`: the raw records (`:mode mode sha sha X\0path\0[path\0]`) come first, then one
 * numstat record per file (`a\td\tpath\0`, or `a\td\t\0old\0new\0` for a rename). Joined by position.
 */
export function parseRawNumstat(out: Buffer | string): RawEntry[] {
  const f = splitZ(out);
  const entries: RawEntry[] = [];
  let i = 0;
  while (i < f.length && f[i]!.startsWith(':')) {
    const meta = f[i]!.slice(1).split(' ');
    const letter = (meta[4] ?? 'M')[0]!;
    const two = letter === 'R' || letter === 'C';
    const a = f[i + 1] ?? '';
    const b = two ? (f[i + 2] ?? '') : a;
    entries.push({ status: STATUS[letter] ?? 'modified', path: b, old_path: two ? a : null, old_blob: meta[2] ?? '', new_blob: meta[3] ?? '', added: null, deleted: null, binary: false });
    i += two ? 3 : 2;
  }
  let n = 0;
  while (i < f.length && n < entries.length) {
    const parts = f[i]!.split('\t');
    const rename = parts.length >= 3 && parts[2] === '';
    const e = entries[n]!;
    if (parts[0] === '-' && parts[1] === '-') e.binary = true;
    else {
      e.added = Number(parts[0]);
      e.deleted = Number(parts[1]);
    }
    i += rename ? 3 : 1;
    n++;
  }
  return entries;
}

export interface MergeTreeResult {
  clean: boolean;
  tree: string;
  /** Paths git lists as conflicted (each once). */
  conflicted: string[];
  /** git's informational messages, one per conflict (`CONFLICT (content): Merge conflict in a.ts`). */
  messages: string[];
}

/**
 * `git merge-tree --write-tree -z` (exit 0 clean, 1 conflicted): `<tree>\0`, then conflicted-file records
 * `<mode> <oid> <stage>\t<path>\0`, then an empty field, then messages
 * (`<n>\0<path>…\0<type>\0<text>\0`).
 */
export function parseMergeTree(out: Buffer | string, clean: boolean): MergeTreeResult {
  const f = splitZ(out);
  const tree = f[0] ?? '';
  const conflicted: string[] = [];
  let i = 1;
  for (; i < f.length && f[i] !== ''; i++) {
    const tab = f[i]!.indexOf('\t');
    const p = tab >= 0 ? f[i]!.slice(tab + 1) : f[i]!;
    if (!conflicted.includes(p)) conflicted.push(p);
  }
  i++;
  const messages: string[] = [];
  while (i < f.length) {
    const count = Number(f[i]);
    if (!Number.isInteger(count) || count < 0) break;
    const paths = f.slice(i + 1, i + 1 + count);
    const type = f[i + 1 + count] ?? '';
    const text = f[i + 2 + count] ?? '';
    messages.push(text.trim() || `${type}: ${paths.join(', ')}`);
    i += count + 3;
  }
  return { clean, tree, conflicted, messages };
}

export interface LineRange {
  start: number;
  end: number;
}

/** Old-side line ranges of the hunks of a `-U0` patch (one file): what a change touches in the base. */
export function hunkRanges(patch: string): LineRange[] {
  const out: LineRange[] = [];
  for (const m of patch.matchAll(/^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/gm)) {
    const start = Number(m[1]);
    const count = m[2] === undefined ? 1 : Number(m[2]);
    // A pure insertion (count 0) sits after line `start`: it touches the gap there, written as that one line.
    out.push(count === 0 ? { start: Math.max(start, 1), end: Math.max(start, 1) } : { start, end: start + count - 1 });
  }
  return out;
}

/** Ranges of `a` that meet a range of `b` (touching counts: git conflicts on adjacent changes), merged. */
export function intersectRanges(a: LineRange[], b: LineRange[]): LineRange[] {
  const hits: LineRange[] = [];
  for (const x of a) for (const y of b) if (x.start <= y.end + 1 && y.start <= x.end + 1) hits.push({ start: Math.min(x.start, y.start), end: Math.max(x.end, y.end) });
  hits.sort((p, q) => p.start - q.start);
  const merged: LineRange[] = [];
  for (const h of hits) {
    const last = merged[merged.length - 1];
    if (last && h.start <= last.end + 1) last.end = Math.max(last.end, h.end);
    else merged.push({ ...h });
  }
  return merged;
}

/** One path of a teammate's diff against the merge base. */
export interface TouchedFile {
  /** Base lines its hunks touch (none for a binary file or a mode change). */
  ranges: LineRange[];
  /** git's status letter (M, A, D, T). */
  status: string;
  old: { mode: string; blob: string };
  new: { mode: string; blob: string };
}

/** One merge's conflicted paths. */
export interface Merged {
  conflicted: string[];
}

/**
 * `git diff --raw -p -U0 -z`: NUL-separated raw records (one per file, in order), an empty field, then the
 * patch, whose sections (`diff --git …`) come in the same order as the records. Pairing them by position
 * keeps every path exactly as git stored it, whatever bytes it holds; a section without hunks (binary, mode
 * change) touches the file as a whole and gets no line ranges.
 */
export function parseRawPatch(out: Buffer): Map<string, TouchedFile> {
  const recs: Array<[string, string[]]> = [];
  let pos = 0;
  while (pos < out.length && out[pos] === 0x3a /* ':' */) {
    const metaEnd = out.indexOf(0, pos);
    const pathEnd = metaEnd < 0 ? -1 : out.indexOf(0, metaEnd + 1);
    if (pathEnd < 0) break;
    recs.push([out.subarray(metaEnd + 1, pathEnd).toString('utf8'), out.subarray(pos + 1, metaEnd).toString('utf8').split(' ')]);
    pos = pathEnd + 1;
  }
  if (out[pos] === 0) pos++;
  const sections = out.subarray(pos).toString('utf8').split(/^(?=diff --git )/m).filter((s) => s.startsWith('diff --git '));
  const files = new Map<string, TouchedFile>();
  recs.forEach(([p, m], i) =>
    files.set(p, {
      ranges: sections.length === recs.length ? hunkRanges(sections[i]!) : [],
      status: (m[4] ?? 'M')[0]!,
      old: { mode: m[0] ?? '', blob: m[2] ?? '' },
      new: { mode: m[1] ?? '', blob: m[3] ?? '' },
    }),
  );
  return files;
}

/**
 * `git merge-tree --write-tree -z --stdin` output: per merge `<1 clean|0 conflicted>\0<tree>\0`, for a
 * conflicted merge its conflicted-file records, an empty field and its messages; an empty field ends each.
 */
export function parseMergeTreeBatch(out: Buffer, count: number): Merged[] | null {
  const f = splitZ(out);
  const results: Merged[] = [];
  let i = 0;
  while (results.length < count) {
    const status = f[i++];
    if (status !== '0' && status !== '1') return null;
    i++; // the tree
    const conflicted: string[] = [];
    if (status === '0') {
      for (; i < f.length && f[i] !== ''; i++) {
        const tab = f[i]!.indexOf('\t');
        const p = tab >= 0 ? f[i]!.slice(tab + 1) : f[i]!;
        if (!conflicted.includes(p)) conflicted.push(p);
      }
      i++;
      // Messages: `<n>\0<n paths>\0<type>\0<text>\0`, until the empty field that ends this merge.
      while (i < f.length && f[i] !== '') {
        const n = Number(f[i]);
        if (!Number.isInteger(n) || n < 0) return null;
        i += n + 3;
      }
    }
    if (f[i] !== '') return null;
    i++;
    results.push({ conflicted });
  }
  return results;
}
