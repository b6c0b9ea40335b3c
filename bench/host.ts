/**
 * The workspace's host: restoring screens and sitting idle.
 * - restore: 8 terminals with 1 MiB of agent-like output each (colours, spinners redrawn in place, lines);
 *   a view (re)attaches to all 8 at once (a dashboard restarted): time until every view's headless terminal
 *   has parsed the screen it was sent (serialize + send + parse), p50/p99 over the runs, and the CPU time it
 *   took (wall time on a loaded machine is mostly waiting for a core); warm (the agents' output paused, so the
 *   host serialized the screens ahead), recent (a line since) and fresh (80 K since: serialized then);
 *   characters lost or doubled (each view's buffer against the host's screen).
 * - idle: `thclaws host --no-lead` with no client for BENCH_HOST_IDLE_SECS (10): its CPU.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import headlessPkg from '@xterm/headless';
import type { HostEvent } from '../src/contract/api.js';
import { OutputScheduler } from '../src/main/host/scheduler.js';
import { bufferText, QUIET_MS } from '../src/main/host/screen-mirror.js';
import { AgentTerminal } from '../src/main/host/terminal.js';
import type { BenchSection } from './types.js';

const { Terminal } = headlessPkg;
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MiB = 1024 * 1024;

function agentOutput(name: string, chars: number): string {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < chars; i++) {
    const f = `\x1b[1;3${i % 7}m● ${name} step ${i}\x1b[0m reading src/file-${i}.ts ${'·'.repeat(i % 60)}\r\n\x1b[2K⠋ working ${i}\r`;
    parts.push(f);
    n += f.length;
  }
  return parts.join('');
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

interface RestoreRun {
  /** Wall time until every view has parsed what it was sent. */
  ms: number;
  /** This process's CPU time over the same span (host and views share it here): load-independent. */
  cpuMs: number;
  /** The host's share alone: 8 screens serialized (or taken from the quiet-time copy). */
  hostMs: number;
}

type Mode = 'warm' | 'recent' | 'fresh';

/**
 * One restore of all 8 panes to 8 fresh views. warm: the agents' output paused past QUIET_MS, so the host
 * serialized the screens ahead; recent: a line of output came after that copy (sent raw after it); fresh:
 * 80 K characters came after it, so every screen is serialized at that moment.
 */
async function restoreOnce(terms: AgentTerminal[], run: number, mode: Mode): Promise<RestoreRun & { lost: number; stateChars: number }> {
  for (const t of terms) t.push(mode === 'fresh' ? agentOutput(t.agent, 80 * 1024) : `\r\n\x1b[32m● ${t.agent} run ${run}\x1b[0m more output\r\n`);
  for (const t of terms) while (t.mirror.backlog > 0) await new Promise((r) => setTimeout(r, 5));
  if (mode === 'warm') await new Promise((r) => setTimeout(r, QUIET_MS + 200));
  const c0 = process.cpuUsage();
  const start = performance.now();
  const snaps = terms.map((t) => t.mirror.snapshot());
  const hostMs = performance.now() - start;
  const stateChars = snaps.reduce((n, x) => n + x.state.length + x.tail.length, 0);
  const views = terms.map((t) => {
    const term = new Terminal({ cols: 120, rows: 32, scrollback: 1000, allowProposedApi: true });
    let chain = Promise.resolve();
    const view = {
      send(ev: HostEvent) {
        if (ev.type !== 'output' && ev.type !== 'replay') return;
        chain = chain.then(() => new Promise<void>((r) => term.write(ev.data, r)));
      },
    };
    t.attach(view);
    return { t, term, view, done: () => chain };
  });
  await Promise.all(views.map((v) => v.done()));
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(c0);
  let lost = 0;
  for (const v of views) {
    if (bufferText(v.term) !== v.t.mirror.text()) lost++;
    v.t.detach(v.view);
    v.term.dispose();
  }
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, hostMs, lost, stateChars };
}

async function restoreRuns(runs: number): Promise<{ runs: Record<Mode, RestoreRun[]>; lost: number; stateChars: number }> {
  const sched = new OutputScheduler();
  const terms = Array.from({ length: 8 }, (_, i) => new AgentTerminal(`a${i + 1}`, sched));
  for (const t of terms) t.push(agentOutput(t.agent, MiB));
  for (const t of terms) while (t.mirror.backlog > 0) await new Promise((r) => setTimeout(r, 10));
  const out: Record<Mode, RestoreRun[]> = { warm: [], recent: [], fresh: [] };
  let lost = 0;
  let stateChars = 0;
  for (let run = 0; run < runs; run++) {
    for (const mode of ['warm', 'recent', 'fresh'] as const) {
      const r = await restoreOnce(terms, run, mode);
      out[mode].push(r);
      lost += r.lost;
      stateChars = r.stateChars;
    }
  }
  for (const t of terms) t.dispose();
  sched.dispose();
  return { runs: out, lost, stateChars };
}

function cpuTicks(pid: number): number {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(f[11]) + Number(f[12]); // utime + stime
}

async function idleHostCpu(secs: number): Promise<number> {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-host-'));
  const runtime = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-rt-'));
  const proc = spawn(path.join(REPO, 'bin/thclaws'), ['host', '--dir', ws, '--no-lead', '--idle-ms', '0'], { env: { ...process.env, XDG_RUNTIME_DIR: runtime }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  while (!/pid (\d+)/.test(out)) await new Promise((r) => setTimeout(r, 50));
  const pid = Number(/pid (\d+)/.exec(out)![1]);
  await new Promise((r) => setTimeout(r, 2_000)); // past start-up
  const t0 = cpuTicks(pid);
  await new Promise((r) => setTimeout(r, secs * 1000));
  const t1 = cpuTicks(pid);
  proc.kill('SIGTERM');
  await new Promise((r) => proc.once('exit', r));
  return ((t1 - t0) / 100 / secs) * 100; // % of one core (100 ticks/s)
}

const p5099 = (xs: number[]) => `${pct(xs, 50).toFixed(0)} / ${pct(xs, 99).toFixed(0)} ms`;

export async function runHostBench(): Promise<BenchSection> {
  const load = os.loadavg()[0]!.toFixed(1);
  const { runs, lost, stateChars } = await restoreRuns(Number(process.env.BENCH_HOST_RUNS ?? 20));
  const { warm, recent, fresh } = runs;
  const idle = await idleHostCpu(Number(process.env.BENCH_HOST_IDLE_SECS ?? 10));
  const col = (rs: RestoreRun[], k: keyof RestoreRun) => rs.map((r) => r[k]);
  return {
    title: `Workspace host: screens restored, idle cost (1-min load ${load} on ${os.cpus().length} cores at start)`,
    file: 'host',
    rows: [
      { metric: 'dashboard restart, agents waiting (screens serialized ahead): 8 panes (1 MiB of output each) restored, serialize → send → parsed by the view, p50 / p99', value: p5099(col(warm, 'ms')), target: '<= 1000 / 2000 ms' },
      { metric: '… the same, CPU time (host + views, one process), p50 / p99', value: p5099(col(warm, 'cpuMs')), target: '-' },
      { metric: 'dashboard restart, a line of output since the screens were serialized (copy + that line raw), p50 / p99', value: p5099(col(recent, 'ms')), target: '<= 1000 / 2000 ms' },
      { metric: '… the same, CPU time, p50 / p99', value: p5099(col(recent, 'cpuMs')), target: '-' },
      { metric: 'dashboard restart, 80 K of output since (every screen serialized then), p50 / p99', value: p5099(col(fresh, 'ms')), target: '<= 1000 / 2000 ms' },
      { metric: '… the same, CPU time, p50 / p99', value: p5099(col(fresh, 'cpuMs')), target: '-' },
      { metric: `of which the host's share: 8 screens serialized, p50 / p99 (${(stateChars / 1024).toFixed(0)} K characters sent)`, value: p5099(col(fresh, 'hostMs')), target: '-' },
      { metric: "panes whose restored buffer differs from the host's screen (lost or doubled)", value: `${lost} of ${(warm.length + recent.length + fresh.length) * 8}`, target: '0' },
      { metric: 'host CPU with no client and no agent', value: `${idle.toFixed(2)} % of a core`, target: '-' },
    ],
    details: { load1AtStart: Number(load), warm, recent, fresh, stateChars, lost, idleCpuPercent: idle },
  };
}
