/**
 * The dashboard under load, through the real chain: pty → TeamHost → WebSocket → xterm.js in Chromium.
 * - 8 panes each receiving 5 MiB at once: aggregate MB/s until every pane has rendered it, longest frame gap.
 * - a 50 MiB flood from a child that exits right after writing: characters lost in the pane and in output.log.
 * - 8 idle teammates (heartbeating every 2 s): CPU of the host process and of the renderer's main thread.
 * Environment, for investigating: BENCH_PROFILE=cpu|trace prints where the renderer's main thread spent the
 * throughput run (raw profile in the temp dir); BENCH_HOST_PROF=DIR runs the host with --cpu-prof into DIR;
 * BENCH_RENDERER=DIR serves another renderer build (a baseline) against the same host; BENCH_QUICK=1 stops
 * after the throughput run; BENCH_IDLE_ONLY=1 runs only the idle phase (BENCH_IDLE_SECS sets its length);
 * BENCH_FLOOD_MIB sets the throughput run's MiB per pane (5; less on a machine too loaded to drain 40 MiB);
 * BENCH_ECHO_ONLY=1 runs only the keystroke-echo phase (BENCH_ECHO_KEYS sets its number of keys, 40);
 * BENCH_ECHO_AB=1, BENCH_ECHO_SPIN=1, BENCH_ECHO_TRACE=FILE: see measureEcho.
 * `--baseline <dir>` (`npm run bench -- dashboard --baseline <dir>`): before/after in one run, see dashboard-compare.ts.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { startProfile, stopProfile, type ProfileKind } from './profile.js';
import type { BenchSection } from './types.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const THCLAWS = path.join(REPO, 'bin/thclaws');
const MiB = 1024 * 1024;
const AGENTS = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8'];

/** `root`: the checkout whose source is bundled (another one is a baseline: `--baseline`, dashboard-compare.ts). */
export function bundle(entry: string, name: string, root = REPO): string {
  // Inside the repository so the external native package (node-pty) resolves from node_modules; named by the
  // checkout, as worktrees share node_modules.
  const dir = path.join(root, 'node_modules', '.cache', 'thclaws-bench');
  fs.mkdirSync(dir, { recursive: true });
  const out = path.join(dir, `${name}-${createHash('sha1').update(root).digest('hex').slice(0, 8)}.mjs`);
  buildSync({
    entryPoints: [path.join(root, entry)], outfile: out, bundle: true, platform: 'node', target: 'node20', format: 'esm',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    external: ['@lydell/node-pty'], nodePaths: [path.join(REPO, 'node_modules')], logLevel: 'error',
  });
  return out;
}

/** A child writing `mib` MiB as 1024-char lines, then exiting at once. Returns argv and the characters a pty shows. */
function flood(mib: number): { argv: string[]; chars: number } {
  const lines = mib * 1024;
  const code = `const l='x'.repeat(1023)+'\\n';let n=${lines};const b=l.repeat(64);(function w(){while(n>=64){n-=64;if(!process.stdout.write(b)){process.stdout.once('drain',w);return}}while(n>0){n--;process.stdout.write(l)}})()`;
  return { argv: [process.execPath, '-e', code], chars: mib * MiB + lines }; // the pty turns \n into \r\n
}

/** Busy and total ticks of the whole machine (all cores): tells whether the run was starved of CPU. */
function machineTicks(): { busy: number; total: number } {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - f[3]! - f[4]!, total };
}

function cpuTicks(pid: number): number {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(f[11]) + Number(f[12]); // utime + stime
}

export type Mode = 'in-process' | 'host';

/** A process's stdout, kept, and a wait for a line in it. */
function watchOut(proc: ChildProcess, name: string) {
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  return {
    out: () => out,
    wait: async (re: RegExp, ms = 30_000) => {
      const end = Date.now() + ms;
      for (;;) {
        const m = re.exec(out);
        if (m) return m;
        if (Date.now() > end) throw new Error(`${name}: no ${re} in ${out.slice(-500)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

export interface Dash {
  url: string;
  /** The process that owns the ptys (the dashboard itself in-process; the workspace host otherwise). */
  hostPid: number;
  /** The dashboard's own process: the host's client (the same as hostPid in-process). */
  clientPid: number;
  spawnIn(agent: string, argv: string[]): Promise<void>;
  /** Ends the dashboard client (host mode: the host runs on without one). */
  closeClient(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The dashboard over a fresh 8-member workspace: `in-process` runs the team inside the dashboard (the old
 * way, `--in-process`); `host` runs it in the workspace's host process with the dashboard as its client (the default).
 */
export async function openDashboard(mode: Mode, renderer: string, root = REPO): Promise<Dash & { ws: string }> {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-dash-ws-'));
  execFileSync('git', ['init', '-q'], { cwd: ws });
  execFileSync(THCLAWS, ['team', 'create', 'bench', '--members', AGENTS.join(','), '--dir', ws], { stdio: 'ignore' });
  const env = { ...process.env, XDG_CONFIG_HOME: path.join(ws, '.config'), XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'bench-dash-rt-')) };
  const serverJs = bundle('bench/dashboard-server.ts', 'dashboard-server', root);
  const prof = process.env.BENCH_HOST_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_HOST_PROF}`] : [];
  const stop = async (p: ChildProcess) => {
    if (p.exitCode !== null) return;
    p.stdin!.end();
    await Promise.race([new Promise((r) => p.once('exit', r)), new Promise((r) => setTimeout(r, 5000))]);
    if (p.exitCode === null) p.kill('SIGKILL');
  };
  let owner: ChildProcess;
  let client: ChildProcess;
  if (mode === 'in-process') {
    owner = client = spawn(process.execPath, [...prof, serverJs, ws, renderer], { stdio: ['pipe', 'pipe', 'inherit'], cwd: REPO, env });
  } else {
    owner = spawn(process.execPath, [...prof, bundle('bench/dashboard-host.ts', 'dashboard-host', root), ws], { stdio: ['pipe', 'pipe', 'inherit'], cwd: REPO, env });
    await watchOut(owner, 'workspace host').wait(/READY \d+/);
    client = spawn(process.execPath, [serverJs, ws, renderer, '--via-host'], { stdio: ['pipe', 'pipe', 'inherit'], cwd: REPO, env });
  }
  const ownerOut = owner === client ? null : watchOut(owner, 'workspace host');
  const clientOut = watchOut(client, 'dashboard server');
  const spawnsOut = ownerOut ?? clientOut;
  const url = (await clientOut.wait(/URL (\S+)/))[1]!;
  return {
    ws,
    url,
    hostPid: owner.pid!,
    clientPid: client.pid!,
    spawnIn: async (agent, argv) => {
      const before = spawnsOut.out().split(`SPAWNED ${agent}\n`).length;
      owner.stdin!.write(`spawn ${agent} ${JSON.stringify(argv)}\n`);
      const end = Date.now() + 30_000;
      while (spawnsOut.out().split(`SPAWNED ${agent}\n`).length === before) {
        if (Date.now() > end) throw new Error(`spawn of ${agent} not confirmed`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    closeClient: () => stop(client),
    close: async () => {
      await stop(client);
      await stop(owner);
    },
  };
}

/** Opens the dashboard's page and its longest-frame-gap probe; `written` reads what each pane has rendered. */
export async function openPage(browser: Browser, url: string) {
  const page = await browser.newPage({ viewport: { width: 1800, height: 1100 } });
  await page.goto(url);
  await page.waitForFunction((n) => document.querySelectorAll('.pane .xterm').length >= n, AGENTS.length, { timeout: 60_000 });
  const written = (agents: string[]) => page.evaluate((a) => a.map((x) => (window as unknown as { __thclaws: { terminals: { written(n: string): number } } }).__thclaws.terminals.written(x)), agents);
  // A string, not a function: tsx's name-keeping helper does not exist in the page.
  await page.evaluate(`(() => {
    const g = (window.__gap = { max: 0, last: performance.now(), on: true });
    const tick = (t) => { if (!g.on) return; g.max = Math.max(g.max, t - g.last); g.last = t; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  })()`);
  await page.waitForTimeout(500);
  await page.evaluate(() => ((window as unknown as { __gap: { max: number } }).__gap.max = 0));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metric = async (name: string) => ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === name)?.value ?? 0);
  // Wall time the main thread spent in tasks (includes time the OS gave its core to other processes), and its CPU time.
  return { page, cdp, written, task: () => metric('TaskDuration'), cpu: () => metric('ThreadTime') };
}

const hz = (): number => Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** 8 panes × N MiB at once: aggregate MB/s until every pane has rendered it, and the longest frame gap. */
export async function measureThroughput(dash: Dash, p: Awaited<ReturnType<typeof openPage>>, label: string, rows: Array<Record<string, string | number>>): Promise<{ mbs: number; cpuMsPerMb: number } & Record<string, unknown>> {
  const { page, cdp, written, task, cpu } = p;
  const floodMib = Number(process.env.BENCH_FLOOD_MIB ?? 5);
  const f5 = flood(floodMib);
  const base = await written(AGENTS);
  const th0 = cpuTicks(dash.hostPid);
  const tc0Client = cpuTicks(dash.clientPid);
  const m0 = machineTicks();
  const tr0 = await task();
  const tc0 = await cpu();
  const load0 = os.loadavg()[0]!;
  await page.evaluate(() => ((window as unknown as { __gap: { max: number } }).__gap.max = 0));
  const profile = process.env.BENCH_PROFILE as ProfileKind | undefined;
  if (profile) await startProfile(cdp, profile);
  // The page watches for the end itself, on its own frames: polling it from here would put two CDP tasks
  // every few ms on the very main thread being measured.
  await page.evaluate(`((agents, base, need) => {
    const w = (window.__drain = { start: performance.now(), end: 0, budgets: [], received: 0 });
    const t = window.__thclaws.terminals;
    // Messages the page received and sent (receipts, acks) during the run: each costs its main thread a task
    // or a send, whatever it carries.
    w.sent = 0;
    const c = t.client, receiveText = c.receiveText.bind(c), fire = c.fire.bind(c);
    c.receiveText = (text) => { w.received++; receiveText(text); };
    c.fire = (body) => { w.sent++; fire(body); };
    const tick = () => {
      w.budgets.push(t.frameBudget);
      if (agents.every((a, i) => t.written(a) - base[i] >= need)) w.end = performance.now();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })(${JSON.stringify(AGENTS)}, ${JSON.stringify(base)}, ${f5.chars})`);
  await Promise.all(AGENTS.map((a) => dash.spawnIn(a, f5.argv)));
  const drained = await page.waitForFunction(() => ((window as unknown as { __drain: { end: number } }).__drain.end > 0 ? (window as unknown as { __drain: object }).__drain : null), undefined, { timeout: 180_000, polling: 250 }).catch(async () => {
    const now = await written(AGENTS);
    throw new Error(`throughput run stalled: ${now.map((n, i) => n - base[i]!).join(',')}`);
  });
  const { start, end, budgets, received, sent } = (await drained.jsonValue()) as { start: number; end: number; budgets: number[]; received: number; sent: number };
  await page.evaluate('delete window.__thclaws.terminals.client.receiveText; delete window.__thclaws.terminals.client.fire');
  const secs = (end - start) / 1000;
  const m1 = machineTicks();
  const rendererCpuSecs = (await cpu()) - tc0;
  const busy = { hostPct: ((cpuTicks(dash.hostPid) - th0) / hz() / secs) * 100, clientPct: ((cpuTicks(dash.clientPid) - tc0Client) / hz() / secs) * 100, rendererPct: (((await task()) - tr0) / secs) * 100, rendererCpuPct: (rendererCpuSecs / secs) * 100, machinePct: ((m1.busy - m0.busy) / (m1.total - m0.total)) * 100 };
  const gap = await page.evaluate(() => (window as unknown as { __gap: { max: number } }).__gap.max);
  if (profile) {
    const top = await stopProfile(cdp, profile, path.join(os.tmpdir(), `thclaws-dashboard-profile.${profile === 'cpu' ? 'cpuprofile' : 'trace.json'}`));
    console.log(`renderer main thread, self time during the throughput run (${profile}, ms):`);
    for (const [name, ms] of top) console.log(`${ms.toFixed(1).padStart(9)}  ${name}`);
  }
  const mbTotal = 8 * floodMib;
  const mbs = mbTotal / secs;
  const load1 = os.loadavg()[0]!;
  rows.push({ metric: `${label}: 8 panes × ${floodMib} MiB, pty → host → ws → xterm (Chromium)`, value: `${mbs.toFixed(1)} MB/s aggregate (${secs.toFixed(2)} s; load ${load0.toFixed(1)} → ${load1.toFixed(1)})`, target: '>= 20 MB/s' });
  rows.push({ metric: `${label}: longest frame gap during that run`, value: `${gap.toFixed(0)} ms`, target: '<= 50 ms' });
  rows.push({ metric: `${label}: host CPU / renderer main thread in tasks (on a CPU) / all cores busy`, value: `${busy.hostPct.toFixed(0)} % / ${busy.rendererPct.toFixed(0)} % (${busy.rendererCpuPct.toFixed(0)} %) / ${busy.machinePct.toFixed(0)} % of ${os.cpus().length}`, target: '-' });
  if (dash.clientPid !== dash.hostPid) rows.push({ metric: `${label}: the dashboard process's CPU (the host's client, forwarding)`, value: `${busy.clientPct.toFixed(0)} %`, target: '-' });
  // What the renderer's main thread could drain with a core to itself: bytes per second of its own CPU time.
  rows.push({ metric: `${label}: renderer main-thread CPU per MB → MB/s with a whole core (messages received / sent, per MB)`, value: `${((rendererCpuSecs * 1000) / mbTotal).toFixed(0)} ms → ${(mbTotal / rendererCpuSecs).toFixed(1)} MB/s (${(received / mbTotal).toFixed(0)} / ${(sent / mbTotal).toFixed(0)})`, target: '-' });
  budgets.sort((a, b) => a - b);
  const frameBudgetKiB = { p10: budgets[Math.floor(budgets.length * 0.1)]! / 1024, p50: budgets[Math.floor(budgets.length / 2)]! / 1024, p90: budgets[Math.floor(budgets.length * 0.9)]! / 1024 };
  if (process.env.BENCH_QUICK) console.log(`${label}: frame budget KiB p10/p50/p90`, frameBudgetKiB);
  return { secs, mbs, cpuMsPerMb: (rendererCpuSecs * 1000) / mbTotal, receivedPerMb: received / mbTotal, sentPerMb: sent / mbTotal, gapMs: gap, ...busy, frameBudgetKiB, load: [load0, load1] };
}

export async function runDashboardBench(): Promise<BenchSection> {
  const baseline = baselineArg();
  if (baseline) return (await import('./dashboard-compare.js')).compareDashboards(baseline);
  // BENCH_RENDERER: another build of the renderer (a baseline) against the same host, in the same conditions.
  const renderer = process.env.BENCH_RENDERER ?? path.join(REPO, 'out/renderer');
  if (!fs.existsSync(path.join(renderer, 'index.html'))) execFileSync('npm', ['run', 'build:renderer'], { cwd: REPO, stdio: 'inherit' });
  const simJs = bundle('test/desktop/agent-sim.ts', 'agent-sim');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
  const rows: Array<Record<string, string | number>> = [];
  const details: Record<string, unknown> = {};
  // Other processes share these cores: the load average says how much of a core each figure really had.
  const loadAtStart = os.loadavg()[0]!;
  const idleOnly = !!process.env.BENCH_IDLE_ONLY;
  const echoOnly = !!process.env.BENCH_ECHO_ONLY;
  const dashes: Dash[] = [];
  try {
    // 1a. Throughput with the team inside the dashboard (the old way, --in-process), beside the default below.
    if (!idleOnly && !echoOnly) {
      const old = await openDashboard('in-process', renderer);
      dashes.push(old);
      const p = await openPage(browser, old.url);
      details.throughputInProcess = await measureThroughput(old, p, 'in-process', rows);
      await p.page.close();
      await old.close();
    }
    // The default: the team in the workspace's host process, this dashboard its client.
    const dash = await openDashboard('host', renderer);
    dashes.push(dash);
    const ws = dash.ws;
    const spawnIn = dash.spawnIn;
    const hp = await openPage(browser, dash.url);
    const { page, written, task, cpu } = hp;
    if (!idleOnly && !echoOnly) {
    // 1b. Throughput as a client of the host.
    details.throughput = await measureThroughput(dash, hp, 'host client', rows);
    if (process.env.BENCH_QUICK) return { title: 'Dashboard throughput only (BENCH_QUICK)', file: 'dashboard-quick', rows, details };
    // 2. Loss: 50 MiB from a child that exits right after writing.
    const f50 = flood(50);
    const [b1] = await written(['a1']);
    const t1 = Date.now();
    await spawnIn('a1', f50.argv);
    let got = 0;
    for (;;) {
      got = (await written(['a1']))[0]! - b1!;
      if (got >= f50.chars || Date.now() - t1 > 240_000) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 1000));
    got = (await written(['a1']))[0]! - b1!;
    const log = fs.readFileSync(path.join(ws, '.thclaws/state/team/agents/a1/output.log'), 'latin1');
    const lastMarker = log.lastIndexOf('--- thclaws spawn ');
    const logChars = log.length - (log.indexOf('\n', lastMarker) + 1);
    rows.push({ metric: '50 MiB flood, child exits at once: chars lost in the pane', value: f50.chars - got, target: '0' });
    rows.push({ metric: '50 MiB flood: bytes lost in output.log', value: f50.chars - logChars, target: '0' });
    details.flood = { expected: f50.chars, pane: got, log: logChars, secs: (Date.now() - t1) / 1000 };
    }

    // Keystroke echo in one pane while the other seven flood: the pane runs `cat`, so the pty's own line
    // discipline echoes each key (as a shell's would); see measureEcho for what is timed. The seven floods are
    // endless writers held back only by flow control.
    if (!idleOnly) {
    const echo = await measureEcho(page, spawnIn, written, async () => ({ task: await task(), cpu: await cpu() }));
    const sp = (x: { p50: number; p90: number }) => `${x.p50.toFixed(1)} / ${x.p90.toFixed(1)}`;
    rows.push({ metric: 'keystroke echo in one pane while the other seven flood (key event → its frame done), p50 / p90', value: `${sp(echo)} ms (${echo.n} keys; key waits ${sp(echo.split.inputWait)}, round trip ${sp(echo.split.roundTrip)}, page ${sp(echo.split.page)}; main thread in tasks ${echo.mainThread.taskPct.toFixed(0)} % (on a CPU ${echo.mainThread.cpuPct.toFixed(0)} %); load ${echo.load.toFixed(1)})`, target: '<= 10 / <= 30 ms' });
    const offIs = process.env.BENCH_ECHO_AB === 'echo-first' ? "the others' turn not waiting for the echo (BENCH_ECHO_AB=echo-first)" : 'the pump ticking every frame while the others yield (BENCH_ECHO_AB=1)';
    if (echo.off) rows.push({ metric: `the same, keys alternated with ${offIs}`, value: `${sp(echo.off)} ms (${echo.off.n} keys; key waits ${sp(echo.off.split.inputWait)}, round trip ${sp(echo.off.split.roundTrip)}, page ${sp(echo.off.split.page)})`, target: '-' });
    details.echo = echo;
    if (echoOnly) return { title: 'Dashboard keystroke echo only (BENCH_ECHO_ONLY)', file: 'dashboard-echo', rows, details };
    }

    // 3. Idle: 8 heartbeating teammates, nothing printed (the frame-gap probe is stopped first).
    await page.evaluate('window.__gap.on = false');
    await Promise.all(AGENTS.map((a) => spawnIn(a, [process.execPath, simJs, a, '--hb-ms', '2000'])));
    // Let the floods' aftermath (GC, scrollback trimming) settle before measuring.
    await page.waitForTimeout(idleOnly ? 3000 : 15_000);
    const h0 = cpuTicks(dash.hostPid);
    const r0 = await task();
    const w0 = Date.now();
    await page.waitForTimeout(Number(process.env.BENCH_IDLE_SECS ?? 10) * 1000);
    const wall = (Date.now() - w0) / 1000;
    const hostPct = ((cpuTicks(dash.hostPid) - h0) / hz() / wall) * 100;
    const rendPct = (((await task()) - r0) / wall) * 100;
    rows.push({ metric: `host CPU, 8 idle teammates (${wall.toFixed(0)} s)`, value: `${hostPct.toFixed(2)} % of a core`, target: '< 2 %' });
    rows.push({ metric: `renderer main-thread CPU, 8 idle teammates (${wall.toFixed(0)} s)`, value: `${rendPct.toFixed(2)} % of a core`, target: '< 2 %' });
    details.idle = { hostPct, rendPct, wall };
    // 4. The same 8 idle teammates with no client attached (the page and the dashboard closed): the host alone.
    await page.close();
    await dash.closeClient();
    await new Promise((r) => setTimeout(r, 3000));
    const n0 = cpuTicks(dash.hostPid);
    const nw0 = Date.now();
    await new Promise((r) => setTimeout(r, Number(process.env.BENCH_IDLE_SECS ?? 10) * 1000));
    const nwall = (Date.now() - nw0) / 1000;
    const noClientPct = ((cpuTicks(dash.hostPid) - n0) / hz() / nwall) * 100;
    rows.push({ metric: `host CPU, 8 idle teammates, no client attached (${nwall.toFixed(0)} s)`, value: `${noClientPct.toFixed(2)} % of a core`, target: '< 2 %' });
    details.idleNoClient = { hostPct: noClientPct, wall: nwall };
    rows.push({ metric: 'machine load average (1 min) at the start / at the end', value: `${loadAtStart.toFixed(1)} / ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`, target: '-' });
  } finally {
    await browser.close();
    for (const d of dashes) await d.close();
  }
  return { title: 'Dashboard under load (pty → host → WebSocket → xterm.js in Chromium)', file: 'dashboard', rows, details };
}

/** `--baseline <dir>`: another checkout (its renderer built) measured beside this one (dashboard-compare.ts). */
function baselineArg(): string | null {
  const i = process.argv.indexOf('--baseline');
  return i >= 0 ? path.resolve(process.argv[i + 1] ?? '') : null;
}

const ECHO_KEYS = Number(process.env.BENCH_ECHO_KEYS ?? 40);

interface EchoSide {
  p50: number; p90: number; max: number; n: number;
  split: Record<'inputWait' | 'roundTrip' | 'page', { p50: number; p90: number }>;
}

export interface EchoFigures extends EchoSide {
  load: number;
  /** Share of the typing's wall time the page's main thread spent in tasks, and on a CPU (%). */
  mainThread: { taskPct: number; cpuPct: number };
  /** BENCH_ECHO_AB: the keys typed with the switch off (idle-while-yielding, or echo-first), alternating with the others. */
  off?: EchoSide;
}

/**
 * Keystroke echo: from the key event's creation (its timeStamp, so the wait for a busy main thread counts) to the
 * end of the main thread's frame that draws the echo (a message posted from that frame's animation callback runs
 * after its style, layout, paint and commit). Split per key: the key's wait for the main thread, the round trip
 * (page → host → pty echo → host → WebSocket → the page's message task), and the page's own part (write, frame).
 * The probe asks for that one frame when the echo has been parsed (xterm's write callback), not for a frame every
 * frame until then, and the throughput run's frame-gap probe is stopped first: a page asking for frames
 * continuously keeps the compositor ticking, and that alone delays the echo's frame to the next vsync, where
 * a page that asked for none gets its frame at once (BENCH_ECHO_SPIN=1 keeps both probes spinning, as before).
 * BENCH_ECHO_AB=1 alternates the keys between the pump as built and the pump with idle-while-yielding off (the
 * other panes' turns then tick a frame every frame), so both sides see the same load; BENCH_ECHO_AB=echo-first
 * alternates them with the other panes' turn not waiting for the echo (it may then share the echo's frame); BENCH_ECHO_TRACE=FILE
 * records a Chromium trace of the typing (marks echo-key / echo-arrived / echo-shown).
 */
export async function measureEcho(
  page: import('playwright-core').Page,
  spawnIn: (agent: string, argv: string[]) => Promise<void>,
  written: (agents: string[]) => Promise<number[]>,
  mainThread: () => Promise<{ task: number; cpu: number }>,
): Promise<EchoFigures> {
  const endless = `const b=('y'.repeat(1023)+'\\n').repeat(64);(function w(){while(process.stdout.write(b));process.stdout.once('drain',w)})()`;
  await spawnIn('a1', ['/bin/cat']);
  await Promise.all(AGENTS.slice(1).map((a) => spawnIn(a, [process.execPath, '-e', endless])));
  // The floods are running when their panes have rendered something new.
  const w0 = await written(AGENTS.slice(1));
  const until = Date.now() + 30_000;
  while ((await written(AGENTS.slice(1))).some((n, i) => n - w0[i]! < 256 * 1024) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  await page.locator('.pane[data-agent="a1"] .xterm').click();
  // The frame-gap probe of the throughput run asks for a frame every frame: stopped here (see the probe below).
  if (!process.env.BENCH_ECHO_SPIN) await page.evaluate('window.__gap.on = false');
  // Each key arms a promise the page resolves itself once the echo's frame is done: waiting on it is one CDP
  // call per key, not a poll on the very main thread being measured.
  await page.evaluate(`((spin) => {
    const t = window.__thclaws.terminals;
    const mark = (n) => window.__echoTrace && performance.mark(n);
    const e = (window.__echo = { keys: [], key: null, done: null, arm() { e.done = new Promise((r) => (e.resolve = r)); } });
    const output = t.output.bind(t);
    t.output = (agent, data, reset) => {
      if (agent === 'a1' && e.key && !e.key.arrived) { e.key.arrived = performance.now(); mark('echo-arrived'); }
      output(agent, data, reset);
    };
    // The echo's frame: the one after xterm parsed it (its render is requested while parsing, in that frame).
    const drawn = (k) => requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => { mark('echo-shown'); k.shown = performance.now(); e.keys.push(k); e.resolve(); };
      ch.port2.postMessage(0);
    });
    const count = t.count.bind(t);
    t.count = (agent, n) => {
      count(agent, n);
      const k = e.key;
      if (!spin && agent === 'a1' && k && !k.parsed) { k.parsed = performance.now(); drawn(k); }
    };
    window.addEventListener('keydown', (ev) => {
      if (ev.key !== 'x') return;
      mark('echo-key');
      const k = (e.key = { t0: ev.timeStamp, handled: performance.now(), arrived: 0, parsed: 0, shown: 0, off: !window.__ab.on[window.__ab.prop] });
      if (!spin) return;
      const base = t.written('a1');
      const tick = () => (t.written('a1') <= base ? requestAnimationFrame(tick) : drawn(k));
      requestAnimationFrame(tick);
    }, true);
  })(${JSON.stringify(!!process.env.BENCH_ECHO_SPIN)})`);
  const ab = !!process.env.BENCH_ECHO_AB;
  const traceFile = process.env.BENCH_ECHO_TRACE;
  const tracing = traceFile ? await page.context().newCDPSession(page) : null;
  if (tracing) {
    await page.evaluate('window.__echoTrace = true');
    await tracing.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-devtools.timeline.frame,toplevel,blink.user_timing,cc,viz', transferMode: 'ReturnAsStream' });
  }
  const m0 = await mainThread();
  const w0Ms = Date.now();
  // The pump's mode for key i is set before the pause that leads to it: what the page does while waiting for a
  // key (ticking or not) is what the key's echo meets.
  // The switch the A/B alternates: the pump's idle-while-yielding (1), or the others' turn waiting for the echo (echo-first).
  const [abOn, abProp] = process.env.BENCH_ECHO_AB === 'echo-first' ? ['t.planner', 'echoFirst'] : ['t', 'idleWhileYielding'];
  await page.evaluate(`(() => { const t = window.__thclaws.terminals; window.__ab = { on: ${abOn}, prop: '${abProp}' }; })()`);
  const mode = (i: number) => page.evaluate(`window.__ab.on[window.__ab.prop] = ${!(ab && i % 2 === 1)}`);
  await mode(0);
  for (let i = 0; i < ECHO_KEYS; i++) {
    await page.evaluate('window.__echo.arm()');
    await page.keyboard.press('x');
    await page.evaluate('window.__echo.done');
    await mode(i + 1);
    // Spread the keys over the frames (a typist's 5–10 keys a second).
    await new Promise((r) => setTimeout(r, 80 + Math.random() * 60));
  }
  const m1 = await mainThread();
  const wallSecs = (Date.now() - w0Ms) / 1000;
  if (tracing) await stopProfile(tracing, 'trace', traceFile);
  await page.evaluate('window.__ab.on[window.__ab.prop] = true');
  const keys = (await page.evaluate('window.__echo.keys')) as Array<{ t0: number; handled: number; arrived: number; shown: number; off: boolean }>;
  // Stop the floods before the idle phase (a sleeping child takes each pane's place).
  await Promise.all(AGENTS.map((a) => spawnIn(a, [process.execPath, '-e', 'setTimeout(()=>{},1e9)'])));
  const q = (xs: number[], f: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * f))] ?? NaN;
  const both = (xs: number[]) => ({ p50: q(xs, 0.5), p90: q(xs, 0.9) });
  const side = (ks: typeof keys): EchoSide => {
    const total = ks.map((k) => k.shown - k.t0);
    return {
      ...both(total), max: q(total, 1), n: ks.length,
      split: { inputWait: both(ks.map((k) => k.handled - k.t0)), roundTrip: both(ks.map((k) => k.arrived - k.handled)), page: both(ks.map((k) => k.shown - k.arrived)) },
    };
  };
  return {
    ...side(keys.filter((k) => !k.off)), load: os.loadavg()[0]!,
    mainThread: { taskPct: ((m1.task - m0.task) / wallSecs) * 100, cpuPct: ((m1.cpu - m0.cpu) / wallSecs) * 100 },
    ...(ab ? { off: side(keys.filter((k) => k.off)) } : {}),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const s = await runDashboardBench();
  console.table(s.rows);
}
