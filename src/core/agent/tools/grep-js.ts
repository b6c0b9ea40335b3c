/**
 * Grep's fallback when no `rg` is on PATH: the file list from a JS walk (tinyglobby; node_modules, .git,
 * .thclaws skipped; files linked from outside skipped), the matching in a worker thread so that Ctrl-C can
 * end even a catastrophic pattern (`^(a+)+$`): the worker is terminated. JS regular expressions;
 * .gitignore is not read.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { glob } from 'tinyglobby';
import type { ToolContext } from '../types.js';
import { sandboxFor } from './common.js';
import { IGNORED } from './glob.js';
import type { GrepHit, GrepQuery } from './grep.js';

/** Runs in the worker (plain JS, built-ins only): reads each file, matches, posts the hits. */
const WORKER_SOURCE = `(() => {
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { base, files, q, maxFileBytes } = workerData;
let re;
try {
  re = new RegExp(q.pattern, (q.ignoreCase ? 'i' : '') + (q.multiline ? 'gms' : ''));
} catch (err) {
  parentPort.postMessage({ error: 'invalid regular expression: ' + err.message });
  return;
}
const hits = [];
for (const rel of files) {
  let buf;
  try {
    const p = require('node:path').join(base, rel);
    const st = fs.statSync(p);
    if (!st.isFile() || st.size > maxFileBytes) continue;
    buf = fs.readFileSync(p);
  } catch { continue; }
  if (buf.subarray(0, 8192).includes(0)) continue;
  const text = buf.toString('utf8');
  const lines = text.split('\\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const matched = new Set();
  if (q.multiline) {
    for (const m of text.matchAll(re)) {
      const first = text.slice(0, m.index).split('\\n').length - 1;
      const n = m[0].split('\\n').length;
      for (let i = first; i < first + n; i++) matched.add(i);
    }
  } else {
    lines.forEach((l, i) => { if (re.test(l)) matched.add(i); });
  }
  if (!matched.size) continue;
  const show = new Set();
  for (const i of matched) for (let j = Math.max(0, i - q.before); j <= Math.min(lines.length - 1, i + q.after); j++) show.add(j);
  hits.push({ file: rel, count: matched.size, lines: [...show].sort((a, b) => a - b).map((i) => ({ n: i + 1, text: lines[i], match: matched.has(i) })) });
}
parentPort.postMessage({ hits });
})();
`;

export async function searchJs(q: GrepQuery, ctx: ToolContext, maxFileBytes: number): Promise<GrepHit[] | { error: string }> {
  const st = await stat(q.target);
  const base = st.isDirectory() ? q.target : path.dirname(q.target);
  const listed = st.isDirectory()
    ? // A glob without a slash matches file names at any depth, as in ripgrep.
      (await glob(q.glob ? (q.glob.includes('/') ? q.glob : `**/${q.glob}`) : '**/*', { cwd: base, ignore: IGNORED, dot: true, followSymbolicLinks: false })).sort()
    : [path.basename(q.target)];
  // A symlinked file may point outside the root: it is skipped like any other refused path.
  const files = listed.filter((rel) => {
    try {
      sandboxFor(ctx).resolve(path.join(base, rel), base, 'read');
      return true;
    } catch {
      return false;
    }
  });
  if (ctx.signal.aborted) return { error: 'search aborted' };
  return new Promise((resolve) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { base, files, q, maxFileBytes } });
    const onAbort = () => void worker.terminate();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const done = (r: GrepHit[] | { error: string }) => {
      ctx.signal.removeEventListener('abort', onAbort);
      resolve(r);
    };
    worker.on('message', (m: { hits?: GrepHit[]; error?: string }) => {
      done(m.hits ?? { error: m.error ?? 'search failed' });
      void worker.terminate();
    });
    worker.on('error', (err) => done({ error: `search failed: ${err.message}` }));
    worker.on('exit', () => done({ error: 'search aborted' }));
  });
}
