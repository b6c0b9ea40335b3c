/**
 * Agent Teams runtime, end to end through real processes: spawn → live per mode; a message → the
 * recipient's next model request (real teammate process, real SDK, our fake Messages server) with the
 * change feed beside 500 ms and 1000 ms polling; CPU of 8 idle teammates over 30 s; RSS per idle teammate.
 * BENCH_ONLY_IDLE=1 runs only the idle rows (BENCH_IDLE_MS sets their length).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FakeAnthropic } from '../test/agent/fake-anthropic.js';
import { killGroup } from '../src/core/teams/launchers/env.js';
import { LeadHandler } from '../src/core/teams/lead-handler.js';
import { TeamSession } from '../src/core/teams/session.js';
import { shutdownTeam } from '../src/core/teams/shutdown.js';
import { spawnTeammate } from '../src/core/teams/spawn.js';
import { serveSpawnRequests } from '../src/core/teams/serve-spawn-requests.js';
import { PtyLauncher } from '../src/core/teams/launchers/pty.js';
import { round, summarize } from './stats.js';
import type { BenchSection } from './types.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(REPO, 'bin/thclaws');
const SPAWNS = 10;
const MESSAGES = 40;
const POLL_MESSAGES = 20;
const IDLE = 8;
const IDLE_MS = Number(process.env.BENCH_IDLE_MS) || 30_000;

interface Ws {
  dir: string;
  home: string;
  session: TeamSession;
  cleanup(): Promise<void>;
}

async function workspace(members: string[], childFlags: string[], childEnv: Record<string, string> = {}): Promise<Ws> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-bench-teams-')));
  const dir = path.join(base, 'ws');
  const home = path.join(base, 'home');
  fs.mkdirSync(dir);
  fs.mkdirSync(home);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  fs.mkdirSync(path.join(dir, '.thclaws'));
  fs.writeFileSync(path.join(dir, '.thclaws/settings.json'), JSON.stringify({ teamEnabled: true }));
  const session = new TeamSession({
    projectRoot: dir,
    teamDir: path.join(dir, '.thclaws/state/team'),
    cwd: dir,
    role: 'solo',
    teammateMode: 'background',
    selfArgv: [process.execPath, BIN],
    childFlags,
    defaultModel: 'claude-sonnet-4-6',
    maxLiveTeammates: 64,
    childEnv: { HOME: home, ...childEnv },
  });
  session.store.init();
  await session.store.config.create({ name: 'bench', members: members.map((name) => ({ name })) });
  await session.becomeLead();
  return {
    dir,
    home,
    session,
    cleanup: async () => {
      const h = new LeadHandler(session);
      await shutdownTeam(session, h, { graceMs: 1000, force: true }).catch(() => {});
      await session.close();
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}

async function stop(session: TeamSession, name: string): Promise<void> {
  const st = await session.store.statuses.read(name);
  if (st?.pid) killGroup(st.pid, 'SIGKILL');
  for (let i = 0; i < 200; i++) {
    try {
      process.kill(st!.pid!, 0);
    } catch {
      break;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  await session.store.statuses.write(name, { status: 'stopped', pid: null });
}

async function spawnBench(mode: 'background' | 'tmux' | 'host'): Promise<number[]> {
  const names = Array.from({ length: SPAWNS }, (_, i) => `m${i}`);
  const ws = await workspace(names, ['--provider', 'scripted'], mode === 'tmux' ? { TMUX_TMPDIR: os.tmpdir() } : {});
  const out: number[] = [];
  let server: ReturnType<typeof serveSpawnRequests> | undefined;
  let launcher: PtyLauncher | undefined;
  if (mode === 'host') {
    launcher = new PtyLauncher(ws.session.store);
    server = serveSpawnRequests(ws.session.store, launcher, { by: 'bench' });
  }
  try {
    for (const name of names) {
      const o = await spawnTeammate(ws.session, { name, teammateMode: mode });
      out.push(o.bootMs);
      await stop(ws.session, name);
    }
  } finally {
    server?.close();
    await launcher?.dispose();
    await ws.cleanup();
  }
  return out;
}

/** Sends a message to an idle teammate and times until its model request reaches the fake server. */
async function latencyBench(pollMs: number, n: number): Promise<number[]> {
  const fake = await new FakeAnthropic().start();
  fake.fallback = { text: 'ok' };
  const ws = await workspace(['r'], ['--provider', 'anthropic'], { ANTHROPIC_API_KEY: 'bench-key', ANTHROPIC_BASE_URL: fake.url, ...(pollMs ? { THCLAWS_TEAM_POLL_MS: String(pollMs) } : {}) });
  const out: number[] = [];
  try {
    await spawnTeammate(ws.session, { name: 'r', teammateMode: 'background' });
    for (let i = 0; i < n; i++) {
      // Wait until the teammate is idle again so each message starts a turn.
      for (let k = 0; k < 400; k++) {
        const st = await ws.session.store.statuses.read('r');
        if (st?.status === 'idle' && !ws.session.store.inboxes.unread('r').length) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      // Random phase against any polling interval.
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 80));
      const arrived = new Promise<number>((resolve) => (fake.onRequestStart = resolve));
      const t0 = performance.now();
      await ws.session.store.send('lead', 'r', `ping ${i}`);
      const t1 = await Promise.race([arrived, new Promise<number>((r) => setTimeout(() => r(Number.NaN), 5000))]);
      if (!Number.isNaN(t1)) out.push(t1 - t0);
    }
  } finally {
    fake.onRequestStart = undefined;
    await ws.cleanup();
    await fake.close();
  }
  return out;
}

/** abort_turn while the model streams (real SDK, fake server pausing between chunks) → the turn over (status idle). */
async function abortBench(n: number): Promise<number[]> {
  const fake = await new FakeAnthropic().start();
  fake.fallback = { text: Array.from({ length: 400 }, (_, i) => `w${i}`).join(' '), chunkDelayMs: 20 };
  const ws = await workspace(['r'], ['--provider', 'anthropic'], { ANTHROPIC_API_KEY: 'bench-key', ANTHROPIC_BASE_URL: fake.url });
  const out: number[] = [];
  const { sendFrame } = await import('../src/core/teams/protocol.js');
  try {
    await spawnTeammate(ws.session, { name: 'r', teammateMode: 'background' });
    for (let i = 0; i < n; i++) {
      const arrived = new Promise<void>((resolve) => (fake.onRequestStart = () => resolve()));
      await ws.session.store.send('lead', 'r', `stream ${i}`);
      await arrived;
      await new Promise((r) => setTimeout(r, 300)); // mid-stream
      const t0 = performance.now();
      await sendFrame(ws.session.store, 'lead', 'r', 'abort_turn', {}, ws.session.epoch);
      for (let k = 0; k < 1000; k++) {
        if ((await ws.session.store.statuses.read('r'))?.status === 'idle') break;
        await new Promise((r) => setTimeout(r, 2));
      }
      out.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    fake.onRequestStart = undefined;
    await ws.cleanup();
    await fake.close();
  }
  return out;
}

function cpuMs(pid: number): number {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(f[11]) + Number(f[12]);
  return (ticks * 1000) / 100;
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

async function idleBench(): Promise<{ cpuPct: number; cpuMs: number; rss: number[] }> {
  const names = Array.from({ length: IDLE }, (_, i) => `idle${i}`);
  // BENCH_TEAMMATE_NODE_OPTIONS (e.g. `--import <a profiler preload>`): for finding what an idle teammate does.
  const env = { ...(process.env.BENCH_IDLE_POLL ? { THCLAWS_TEAM_POLL_MS: process.env.BENCH_IDLE_POLL } : {}), ...(process.env.BENCH_TEAMMATE_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_TEAMMATE_NODE_OPTIONS } : {}) };
  const ws = await workspace(names, ['--provider', 'scripted'], env);
  try {
    const pids: number[] = [];
    for (const name of names) pids.push((await spawnTeammate(ws.session, { name, teammateMode: 'background' })).pid!);
    // Past start-up work: V8's post-start-up GC and code flushing run for the first ~20 s of a process.
    await new Promise((r) => setTimeout(r, 20_000));
    const before = pids.map(cpuMs);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const used = pids.map((p, i) => cpuMs(p) - before[i]!).reduce((a, b) => a + b, 0);
    return { cpuMs: used, cpuPct: (used / IDLE_MS) * 100, rss: pids.map(rssMb) };
  } finally {
    await ws.cleanup();
  }
}

export async function runTeamsBench(): Promise<BenchSection> {
  if (process.env.BENCH_ONLY_IDLE) return idleOnly();
  const rows: Array<Record<string, string | number>> = [];
  const details: Record<string, unknown> = {};
  const modes: Array<'background' | 'tmux' | 'host'> = ['background', 'host'];
  if (spawnSync('tmux', ['-V']).status === 0) modes.push('tmux');
  for (const mode of modes) {
    const s = summarize(await spawnBench(mode));
    details[`spawn_${mode}`] = s;
    rows.push({ metric: `spawn → live, ${mode} mode`, value: `p50 ${round(s.p50, 0)} ms / p99 ${round(s.p99, 0)} ms`, n: s.n, target: 'p50 <= 500 ms' });
  }
  for (const [label, poll, n] of [['change feed (ours)', 0, MESSAGES], ['polling 500 ms', 500, POLL_MESSAGES], ['polling 1000 ms', 1000, POLL_MESSAGES]] as const) {
    const s = summarize(await latencyBench(poll, n));
    details[`message_${poll || 'feed'}`] = s;
    rows.push({ metric: `message → next model request, ${label}`, value: `p50 ${round(s.p50, 1)} ms / p99 ${round(s.p99, 1)} ms`, n: s.n, target: poll ? 'baseline' : 'p50 <= 50, p99 <= 150 ms' });
  }
  const ab = summarize(await abortBench(10));
  details.abort = ab;
  rows.push({ metric: 'abort_turn mid-stream → turn over (status idle)', value: `p50 ${round(ab.p50, 0)} ms / p99 ${round(ab.p99, 0)} ms`, n: ab.n, target: '<= 1000 ms' });
  const idle = await idleBench();
  details.idle = idle;
  rows.push({ metric: `CPU of ${IDLE} idle teammates over ${IDLE_MS / 1000} s`, value: `${round(idle.cpuMs, 0)} ms (${round(idle.cpuPct, 3)} % of a core)`, n: IDLE, target: '< 2 % of a core' });
  const rss = summarize(idle.rss);
  rows.push({ metric: 'RSS per idle teammate', value: `p50 ${round(rss.p50, 1)} MB / max ${round(rss.max, 1)} MB`, n: rss.n, target: '<= 80 MB' });
  return { title: 'Agent Teams runtime (real processes)', file: 'teams', rows, details };
}

/** BENCH_ONLY_IDLE=1: the idle rows alone (quick iterations on idle cost). */
async function idleOnly(): Promise<BenchSection> {
  const idle = await idleBench();
  return { title: 'idle teammates', file: 'teams-idle', rows: [{ metric: 'cpu', value: `${round(idle.cpuMs, 0)} ms (${round(idle.cpuPct, 3)} %)` }, { metric: 'rss p50', value: round(summarize(idle.rss).p50, 1) }] };
}
