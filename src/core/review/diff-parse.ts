/**
 * Parsers of git's `-z` output (`diff --raw --numstat -z`, `merge-tree -z`): NUL-split fields, never lines,
 * so a path may hold any byte git allows (newlines, tabs, quotes, unicode).
 */
import { splitZ } from './git-run.js';

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

/** A path as git writes it in patch headers: C-quoted (`"a\\nb"`, octal bytes) when it holds special characters. */
export function unquoteGitPath(p: string): string {
  if (!p.startsWith('"')) return p;
  const bytes: number[] = [];
  const esc: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, '\\': 92, a: 7, b: 8, f: 12, v: 11 };
  for (let i = 1; i < p.length - 1; i++) {
    const c = p[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const n = p[i + 1]!;
    if (/[0-7]/.test(n)) {
      bytes.push(parseInt(p.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(esc[n] ?? n.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Old-side hunk ranges of every file of a whole `-U0 --no-renames` patch, by path (the new path; old for deletions). */
export function hunkRangesByFile(patch: string): Map<string, LineRange[]> {
  const out = new Map<string, LineRange[]>();
  let current: LineRange[] | null = null;
  let oldPath: string | null = null;
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ')) {
      current = null;
      oldPath = null;
    } else if (line.startsWith('--- ')) {
      const p = line.slice(4).replace(/\t$/, ''); // git ends a name holding spaces with a tab
      oldPath = p === '/dev/null' ? null : unquoteGitPath(p).replace(/^a\//, '');
    } else if (line.startsWith('+++ ') && current === null) {
      const p = line.slice(4).replace(/\t$/, ''); // git ends a name holding spaces with a tab
      const name = p === '/dev/null' ? oldPath : unquoteGitPath(p).replace(/^b\//, '');
      if (name === null) continue;
      current = [];
      out.set(name, current);
    } else if (line.startsWith('@@ ') && current) {
      current.push(...hunkRanges(line));
    }
  }
  return out;
}
