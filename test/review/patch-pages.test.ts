/** Pages of a large diff: each page a patch of its own whose hunk headers keep every line's real numbers. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { paginatePatch } from '../../src/renderer/components/review/patch-pages.js';

/** Every hunk line with the old/new line number a renderer gives it, from the `@@` headers. */
function numbered(patch: string): string[] {
  const out: string[] = [];
  let o = 0;
  let n = 0;
  let inHunks = false;
  for (const l of patch.split('\n')) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(l);
    if (m) {
      o = m[2] === '0' ? Number(m[1]) + 1 : Number(m[1]);
      n = m[4] === '0' ? Number(m[3]) + 1 : Number(m[3]);
      inHunks = true;
      continue;
    }
    if (!inHunks) continue; // the file header (--- a/…, +++ b/…)
    if (l[0] === '+') out.push(`+${n++} ${l}`);
    else if (l[0] === '-') out.push(`-${o++} ${l}`);
    else if (l[0] === ' ') out.push(`${o++}/${n++} ${l}`);
    else if (l[0] === '\\') out.push(l);
  }
  return out;
}

function diff(a: string, b: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pages-'));
  fs.writeFileSync(path.join(dir, 'a'), a);
  fs.writeFileSync(path.join(dir, 'b'), b);
  try {
    execFileSync('git', ['diff', '--no-index', '--no-color', 'a', 'b'], { cwd: dir, encoding: 'utf8' });
    return '';
  } catch (err) {
    return (err as { stdout: string }).stdout; // exit 1: they differ
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('paginatePatch', () => {
  it('cuts a 1,000-line new file and a many-hunk change into pages that keep every line number', () => {
    const added = diff('', Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n'));
    const pages = paginatePatch(added, 300);
    expect(pages.map((p) => p.lines)).toEqual([300, 300, 300, 101]);
    for (const p of pages) expect(p.text.startsWith('diff --git a/a b/b\n')).toBe(true);
    expect(pages.flatMap((p) => numbered(p.text))).toEqual(numbered(added));
    // A smaller first page (what the first paint waits for), the same lines in all.
    const small = paginatePatch(added, 300, 80);
    expect(small.map((p) => p.lines)).toEqual([80, 300, 300, 300, 21]);
    expect(small.flatMap((p) => numbered(p.text))).toEqual(numbered(added));
    expect(numbered(pages[3]!.text).at(-1)).toBe('\\ No newline at end of file');
    // The "no newline" marker stays with its line even where a page would end.
    const exact = paginatePatch(diff('', Array.from({ length: 600 }, (_, i) => `l${i}`).join('\n')), 300);
    expect(exact.map((p) => p.lines)).toEqual([300, 301]);

    const base = Array.from({ length: 3000 }, (_, i) => `row ${i}`);
    const changed = base.map((l, i) => (i % 37 === 0 ? `${l} changed` : l)).filter((_, i) => i % 101 !== 5);
    const many = diff(`${base.join('\n')}\n`, `${changed.join('\n')}\n`);
    const mp = paginatePatch(many, 250);
    expect(mp.length).toBeGreaterThan(3);
    expect(mp.every((p) => p.lines <= 250)).toBe(true);
    expect(mp.flatMap((p) => numbered(p.text))).toEqual(numbered(many));
  });

  it('a small patch is one page, unchanged', () => {
    const small = diff('a\nb\n', 'a\nc\n');
    expect(paginatePatch(small)).toEqual([{ text: small, lines: 3 }]);
  });
});
