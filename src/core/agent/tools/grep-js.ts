/**
 * Grep's fallback when no `rg` is on PATH: a JS walk (tinyglobby, JS regular expressions). Slower, and
 * .gitignore is not read; node_modules, .git and .thclaws are skipped, files linked from outside too.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'tinyglobby';
import type { ToolContext } from '../types.js';
import { looksBinary, sandboxFor } from './common.js';
import { IGNORED } from './glob.js';
import type { GrepQuery, GrepHit } from './grep.js';

export async function searchJs(q: GrepQuery, ctx: ToolContext, maxFileBytes: number): Promise<GrepHit[] | { error: string }> {
  let re: RegExp;
  try {
    re = new RegExp(q.pattern, `${q.ignoreCase ? 'i' : ''}${q.multiline ? 'gms' : ''}`);
  } catch (err) {
    return { error: `invalid regular expression: ${(err as Error).message}` };
  }
  const st = await stat(q.target);
  const base = st.isDirectory() ? q.target : path.dirname(q.target);
  const files = st.isDirectory()
    ? // A glob without a slash matches file names at any depth, as in ripgrep.
      (await glob(q.glob ? (q.glob.includes('/') ? q.glob : `**/${q.glob}`) : '**/*', { cwd: base, ignore: IGNORED, dot: true, followSymbolicLinks: false })).sort()
    : [path.basename(q.target)];
  const hits: GrepHit[] = [];
  for (const rel of files) {
    if (ctx.signal.aborted) return { error: 'search aborted' };
    const abs = path.join(base, rel);
    let buf: Buffer;
    try {
      sandboxFor(ctx).resolve(abs, base, 'read');
      const fst = await stat(abs);
      if (!fst.isFile() || fst.size > maxFileBytes) continue;
      buf = await readFile(abs);
    } catch {
      continue;
    }
    if (looksBinary(buf)) continue;
    const text = buf.toString('utf8');
    const lines = text.split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    const matched = new Set<number>();
    if (q.multiline) {
      for (const m of text.matchAll(re)) {
        const first = text.slice(0, m.index).split('\n').length - 1;
        const n = m[0].split('\n').length;
        for (let i = first; i < first + n; i++) matched.add(i);
      }
    } else {
      lines.forEach((l, i) => re.test(l) && matched.add(i));
    }
    if (!matched.size) continue;
    const show = new Set<number>();
    for (const i of matched) for (let j = Math.max(0, i - q.before); j <= Math.min(lines.length - 1, i + q.after); j++) show.add(j);
    hits.push({ file: rel, count: matched.size, lines: [...show].sort((a, b) => a - b).map((i) => ({ n: i + 1, text: lines[i]!, match: matched.has(i) })) });
  }
  return hits;
}
