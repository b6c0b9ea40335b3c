/**
 * A comment's lines followed through the teammate's later versions of the file. The version a comment was
 * written on is kept as a git blob; against the file now, `git diff -U0` of the two says where each old line
 * went: lines above every changed hunk keep their number, lines below shift by what the hunks above added or
 * removed, and a range a hunk touches (or inserts into) has changed: the comment is outdated, never moved onto
 * other code. Comparing only the text at the old line number would put it on an identical line elsewhere.
 */
import { createHash } from 'node:crypto';
import { runGit } from '../git.js';

/** The git blob id a text would have in a SHA-1 repository (to skip the diff when nothing changed). */
export function blobId(text: string): string {
  const body = Buffer.from(text, 'utf8');
  return createHash('sha1').update(`blob ${body.length}\0`).update(body).digest('hex');
}

/** Writes the text as a blob into the repository's objects (shared by its worktrees); its id, or null. */
export async function storeBlob(root: string, text: string): Promise<string | null> {
  const r = await runGit(root, ['hash-object', '-w', '--stdin'], { input: text });
  const id = r.stdout.toString('utf8').trim();
  return r.code === 0 && /^[0-9a-f]{40,64}$/.test(id) ? id : null;
}

export interface Hunk {
  oldStart: number;
  oldCount: number;
  newCount: number;
}

/** The hunks of a zero-context diff (`-U0`). */
export function parseHunks(diff: string): Hunk[] {
  const out: Hunk[] = [];
  for (const m of diff.matchAll(/^@@ -(\d+)(?:,(\d+))? \+\d+(?:,(\d+))? @@/gm)) {
    out.push({ oldStart: Number(m[1]), oldCount: m[2] === undefined ? 1 : Number(m[2]), newCount: m[3] === undefined ? 1 : Number(m[3]) });
  }
  return out;
}

/** Where old lines `line..end` are after the hunks; null when a hunk changed or inserted into them. */
export function mapRange(hunks: Hunk[], line: number, end: number): { line: number; end: number } | null {
  let shift = 0;
  for (const h of hunks) {
    // A pure insertion (`-a,0`) goes after old line a; otherwise the hunk replaces old lines a..a+count-1.
    const first = h.oldCount === 0 ? h.oldStart + 0.5 : h.oldStart;
    const last = h.oldCount === 0 ? h.oldStart + 0.5 : h.oldStart + h.oldCount - 1;
    if (last < line) shift += h.newCount - h.oldCount;
    else if (first <= end) return null;
  }
  return { line: line + shift, end: end + shift };
}

/** Follows `line..end` of blob `from` into the text `now`: its new place, or null (changed, or unreadable). */
export async function followRange(root: string, from: string, now: string, line: number, end: number): Promise<{ line: number; end: number; blob: string } | null> {
  if (blobId(now) === from) return { line, end, blob: from };
  const to = await storeBlob(root, now);
  if (!to) return null;
  if (to === from) return { line, end, blob: to };
  const d = await runGit(root, ['diff', '-U0', '--no-color', '--no-ext-diff', '--no-renames', from, to]);
  if (d.code !== 0 || d.truncated) return null;
  const moved = mapRange(parseHunks(d.stdout.toString('utf8')), line, end);
  return moved ? { ...moved, blob: to } : null;
}
