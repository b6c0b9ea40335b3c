/**
 * Agent tools: Grep (ripgrep, and the JS fallback) on a generated tree of 20,000 files beside `grep -rn`
 * in the same run (target: Grep ≤ 1.5× grep -rn), and Read of a 3,000-line file.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SessionPermissionChecker } from '../src/core/agent/permissions.js';
import { runToolCall } from '../src/core/agent/tool-run.js';
import { findRipgrep, useRipgrep } from '../src/core/agent/tools/grep.js';
import { builtinTools } from '../src/core/agent/tools/index.js';
import type { ToolContext } from '../src/core/agent/types.js';
import type { BenchSection } from './types.js';

const FILES = 20_000;
const RUNS = 11;
const tools = builtinTools();

function makeTree(root: string): void {
  const body = Array.from({ length: 40 }, (_, i) => `export const value${i} = compute(${i}, "some text to search through");`).join('\n');
  for (let d = 0; d < FILES / 100; d++) {
    const dir = path.join(root, `pkg${d}`, 'src');
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 100; f++) {
      const marker = (d * 100 + f) % 997 === 0 ? '\n// NEEDLE_MARKER found here\n' : '\n';
      writeFileSync(path.join(dir, `file${f}.ts`), body + marker);
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

async function timeTool(ctx: ToolContext, name: string, input: unknown): Promise<{ ms: number; content: string }> {
  const t0 = process.hrtime.bigint();
  const r = await runToolCall({ type: 'tool_use', id: 'b', name, input }, tools, ctx);
  return { ms: ms(t0), content: r.content };
}

export async function runAgentToolsBench(): Promise<BenchSection> {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'thclaws-bench-grep-')));
  const ctx: ToolContext = {
    cwd: root, projectRoot: root, role: 'solo', signal: new AbortController().signal,
    permissions: new SessionPermissionChecker('auto', { decide: async () => 'deny' }),
    limits: { searchMaxResults: 100_000, toolOutputMaxChars: 10_000_000 },
  };
  const rows: BenchSection['rows'] = [];
  try {
    makeTree(root);
    const grep: number[] = [];
    const rg: number[] = [];
    const js: number[] = [];
    let matches = 0;
    // Warm the page cache once for all contenders; grep and Grep alternate so load on the machine hits both alike.
    execFileSync('grep', ['-rn', 'NEEDLE_MARKER', '.'], { cwd: root });
    const rgPath = findRipgrep();
    useRipgrep(rgPath);
    for (let i = 0; i < RUNS; i++) {
      const t0 = process.hrtime.bigint();
      const out = execFileSync('grep', ['-rn', 'NEEDLE_MARKER', '.'], { cwd: root, maxBuffer: 64 * 1024 * 1024 }).toString();
      grep.push(ms(t0));
      matches = out.trim().split('\n').length;
      if (rgPath) {
        const r = await timeTool(ctx, 'Grep', { pattern: 'NEEDLE_MARKER', output_mode: 'content' });
        if (r.content.split('\n').length !== matches) throw new Error(`Grep found ${r.content.split('\n').length} lines, grep -rn ${matches}`);
        rg.push(r.ms);
      }
    }
    useRipgrep(null);
    for (let i = 0; i < 2; i++) js.push((await timeTool(ctx, 'Grep', { pattern: 'NEEDLE_MARKER', output_mode: 'content' })).ms);
    useRipgrep(undefined);
    const g = median(grep);
    rows.push({ metric: `grep -rn (${FILES} files, ${matches} matches)`, median_ms: Math.round(g), ratio: '1.00×', target: '' });
    if (rg.length) {
      const r = median(rg);
      rows.push({ metric: 'Grep tool (ripgrep), content mode', median_ms: Math.round(r), ratio: `${(r / g).toFixed(2)}×`, target: `≤ 1.5× ${r / g <= 1.5 ? 'OK' : 'MISSED'}` });
    }
    const j = median(js);
    rows.push({ metric: 'Grep tool (JS fallback, no rg)', median_ms: Math.round(j), ratio: `${(j / g).toFixed(2)}×`, target: '' });

    const file = path.join(root, 'long.ts');
    writeFileSync(file, Array.from({ length: 3000 }, (_, i) => `const line${i} = "${'x'.repeat(40)}";`).join('\n'));
    const reads: number[] = [];
    for (let i = 0; i < 20; i++) reads.push((await timeTool(ctx, 'Read', { path: 'long.ts' })).ms);
    rows.push({ metric: 'Read of a 3,000-line file (first page)', median_ms: Math.round(median(reads) * 10) / 10, ratio: '', target: '' });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return { title: 'Agent tools: Grep beside grep -rn, Read', file: 'agent-tools', rows };
}
