/**
 * The OS sandbox's cost per Bash call: the same trivial command through the Bash tool's spawn path without
 * the sandbox and with it (lead and teammate policies), interleaved in one run so machine load hits all alike.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand } from '../src/core/agent/tools/bash.js';
import type { ToolContext } from '../src/core/agent/types.js';
import { SessionPermissionChecker } from '../src/core/agent/permissions.js';
import { createRoleSandbox, sandboxSettings } from '../src/core/sandbox/index.js';
import { round, summarize } from './stats.js';
import type { BenchSection } from './types.js';

const RUNS = 60;
const WARMUP = 5;

function workspace(): { ws: string; alice: string } {
  const ws = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'thclaws-bench-sbx-')));
  const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', '-c', 'init.defaultBranch=main', ...args], { cwd, stdio: 'ignore' });
  git(ws, 'init', '-q');
  mkdirSync(path.join(ws, 'src'));
  writeFileSync(path.join(ws, 'src/a.ts'), 'export const a = 1;\n');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-qm', 'init');
  git(ws, 'worktree', 'add', '-q', '-b', 'team/alice', '.worktrees/alice');
  return { ws, alice: path.join(ws, '.worktrees/alice') };
}

export async function runSandboxBench(): Promise<BenchSection> {
  const { ws, alice } = workspace();
  const base = (cwd: string): ToolContext => ({
    cwd,
    projectRoot: ws,
    role: 'solo',
    signal: new AbortController().signal,
    permissions: new SessionPermissionChecker('auto', { decide: async () => 'deny' }),
  });
  const settings = sandboxSettings({ sandbox: 'required' });
  const cases: Array<[string, ToolContext]> = [
    ['no sandbox (sh -c)', base(ws)],
    ['sandbox, lead policy', { ...base(ws), role: 'lead', sandbox: createRoleSandbox({ role: 'lead', workspaceRoot: ws, cwd: ws }, settings) }],
    ['sandbox, teammate policy', { ...base(alice), role: 'teammate', sandbox: createRoleSandbox({ role: 'teammate', workspaceRoot: ws, cwd: alice, agentName: 'alice' }, settings) }],
  ];
  const times = new Map<string, number[]>(cases.map(([n]) => [n, []]));
  const wrapTimes = new Map<string, number[]>(cases.map(([n]) => [n, []]));
  for (let i = 0; i < WARMUP + RUNS; i++) {
    for (const [name, ctx] of cases) {
      const t0 = performance.now();
      if (ctx.sandbox) await ctx.sandbox.wrap('true', ctx.signal);
      const tw = performance.now() - t0;
      const t1 = performance.now();
      const r = await runCommand('true', ctx, 10_000);
      const dt = performance.now() - t1;
      if (r.isError) throw new Error(`${name}: ${r.content}`);
      if (i >= WARMUP) {
        times.get(name)!.push(dt);
        wrapTimes.get(name)!.push(tw);
      }
    }
  }
  rmSync(ws, { recursive: true, force: true });
  const plain = summarize(times.get(cases[0]![0])!);
  const rows = cases.map(([name]) => {
    const s = summarize(times.get(name)!);
    const w = summarize(wrapTimes.get(name)!);
    const isPlain = name === cases[0]![0];
    return {
      case: name,
      p50_ms: round(s.p50),
      p99_ms: round(s.p99),
      wrap_p50_ms: isPlain ? '-' : round(w.p50),
      added_p50_ms: isPlain ? '-' : round(s.p50 - plain.p50),
      target: isPlain ? 'baseline' : '<= 30 ms added at p50',
    };
  });
  return { title: `Bash tool: \`true\` with and without the OS sandbox (${RUNS} runs each, interleaved)`, file: 'sandbox', rows, details: Object.fromEntries(times) };
}
