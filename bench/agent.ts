/**
 * Agent cold start: `thclaws --version`, `thclaws -p` with the scripted provider, the time until the
 * REPL prompt appears in a real pty, and the same one-shot prompt through the Claude Agent SDK's `query()`
 * (its control protocol, stream-json both ways) side by side with the direct `-p`. Target: ≤ 300 ms to the prompt.
 * Then a turn's overhead through the Anthropic and the OpenAI-compatible provider paths against the local
 * fakes, side by side (provider-turn.ts). Needs `dist/cli.mjs` (npm run bench builds it).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { providerTurnSamples } from './provider-turn.js';
import type { BenchSection } from './types.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(REPO, 'bin/thclaws');
const RUNS = 15;
const TARGET_MS = 300;

function stats(samples: number[]): { median: number; p90: number; min: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
  return { median: round(at(0.5)), p90: round(at(0.9)), min: round(s[0]!) };
}

const round = (n: number) => Math.round(n * 10) / 10;

function timeProcess(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`thclaws ${args.join(' ')} exited ${code}`));
      else resolve(Number(process.hrtime.bigint() - t0) / 1e6);
    });
  });
}

async function timeToPrompt(cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const pty = await import('@lydell/node-pty');
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const p = pty.spawn(process.execPath, [BIN, '--provider', 'scripted'], { cwd, env: env as Record<string, string>, cols: 120, rows: 30 });
    let out = '';
    let done = false;
    const timer = setTimeout(() => {
      p.kill();
      reject(new Error(`no REPL prompt within 10 s; saw ${JSON.stringify(out)}`));
    }, 10_000);
    p.onData((d) => {
      out += d;
      if (!done && out.includes('thclaws> ')) {
        done = true;
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        p.write('\x04');
        p.onExit(() => {
          clearTimeout(timer);
          resolve(ms);
        });
      }
    });
  });
}

/** One-shot `query()` of the Claude Agent SDK driving thclaws, from the call to the end of its messages. */
async function timeSdkQuery(cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const { query } = await import('@anthropic-ai/claude-agent-sdk');
  const t0 = process.hrtime.bigint();
  let result = '';
  for await (const m of query({ prompt: 'hello', options: { pathToClaudeCodeExecutable: BIN, cwd, env: env as Record<string, string>, extraArgs: { provider: 'scripted' } } })) {
    if (m.type === 'result') result = m.subtype;
  }
  if (result !== 'success') throw new Error(`SDK query ended with ${result || 'no result'}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

export async function runAgentBench(): Promise<BenchSection> {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'thclaws-bench-')));
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: dir, TERM: 'xterm-256color' };
  const measures: Record<string, number[]> = { version: [], print: [], prompt: [], sdk: [] };
  try {
    Object.assign(measures, await providerTurnSamples(dir));
    // One warm-up each: the first run pays for the disk cache, not for thclaws.
    await timeProcess(['--version'], dir, env);
    await timeToPrompt(dir, env);
    await timeSdkQuery(dir, env);
    for (let i = 0; i < RUNS; i++) {
      measures.version!.push(await timeProcess(['--version'], dir, env));
      measures.print!.push(await timeProcess(['-p', 'hello', '--provider', 'scripted'], dir, env));
      measures.prompt!.push(await timeToPrompt(dir, env));
      measures.sdk!.push(await timeSdkQuery(dir, env));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const row = (metric: string, samples: number[], target?: number) => {
    const s = stats(samples);
    return { metric, median_ms: s.median, p90_ms: s.p90, min_ms: s.min, target_ms: target ?? '-', ok: target === undefined ? '-' : s.median <= target ? 'yes' : 'NO' };
  };
  return {
    title: `Agent cold start (${RUNS} runs each, node ${process.version})`,
    file: 'agent',
    rows: [
      row('thclaws --version', measures.version!),
      row('thclaws -p hello --provider scripted (whole run)', measures.print!),
      row('REPL: spawn → prompt in a pty', measures.prompt!, TARGET_MS),
      row('Agent SDK query() one-shot, same prompt and provider (whole query)', measures.sdk!),
      {
        metric: 'SDK overhead over a direct -p (median difference)',
        median_ms: round(stats(measures.sdk!).median - stats(measures.print!).median),
        p90_ms: '-',
        min_ms: '-',
        target_ms: '-',
        ok: '-',
      },
      row('turn, text reply: Anthropic path (@anthropic-ai/sdk → fake)', measures.anthropicText!),
      row('turn, text reply: OpenAI-compatible path (openai → fake)', measures.openaiText!),
      row('turn, tool call + text: Anthropic path', measures.anthropicTool!),
      row('turn, tool call + text: OpenAI-compatible path', measures.openaiTool!),
    ],
    details: measures,
  };
}

// `node --import tsx bench/agent.ts` runs this section alone.
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const section = await runAgentBench();
  console.log(section.title);
  console.table(section.rows);
}
