/**
 * The dashboard under load, through the real chain: pty → TeamHost → WebSocket → xterm.js in Chromium.
 * - 8 panes each receiving 5 MiB at once: aggregate MB/s until every pane has rendered it, longest frame gap.
 * - a 50 MiB flood from a child that exits right after writing: characters lost in the pane and in output.log.
 * - 8 idle teammates (heartbeating every 2 s): CPU of the host process and of the renderer's main thread.
 * Environment, for investigating: BENCH_PROFILE=cpu|trace prints where the renderer's main thread spent the
 * throughput run (raw profile in the temp dir); BENCH_HOST_PROF=DIR runs the host with --cpu-prof into DIR
 * (BENCH_CLIENT_PROF=DIR: the dashboard as the host's client);
 * BENCH_RENDERER=DIR serves another renderer build (a baseline) against the same host; BENCH_QUICK=1 stops
 * after the throughput run; BENCH_IDLE_ONLY=1 runs only the idle phase (BENCH_IDLE_SECS sets its length);
 * BENCH_FLOOD_MIB sets the throughput run's MiB per pane (5; less on a machine too loaded to drain 40 MiB);
 * BENCH_ECHO_ONLY=1 runs only the keystroke-echo phase (BENCH_ECHO_KEYS sets its number of keys, 40);
 * BENCH_ECHO_AB=1, BENCH_ECHO_SPIN=1, BENCH_ECHO_TRACE=FILE: see measureEcho.
 * `--baseline <ref or dir>` (`npm run bench -- dashboard --baseline main`): before/after in one run, see dashboard-compare.ts.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { measureEcho } from './dashboard-echo.js';
import { AGENTS, bundle, chromiumTicks, cpuTicks, flood, hz, machineTicks, openDashboard, openPage, REPO, type Dash } from './dashboard-rig.js';
import { startProfile, stopProfile, type ProfileKind } from './profile.js';
import type { BenchSection } from './types.js';

/** 8 panes × N MiB at once: aggregate MB/s until every pane has rendered it, and the longest frame gap. */
export async function measureThroughput(dash: Dash, p: Awaited<ReturnType<typeof openPage>>, label: string, rows: Array<Record<string, string | number>>): Promise<{ mbs: number; cpuMsPerMb: number } & Record<string, unknown>> {
  const { page, cdp, written, task, cpu } = p;
  const floodMib = Number(process.env.BENCH_FLOOD_MIB ?? 5);
  const f5 = flood(floodMib);
  const base = await written(AGENTS);
  const th0 = cpuTicks(dash.hostPid);
  const tc0Client = cpuTicks(dash.clientPid);
  const chrome0 = chromiumTicks();
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
    // A baseline build from before the terminals' client had these seams is measured without the counts.
    const c = t.client;
    if (c && c.receiveText && c.fire) {
      const receiveText = c.receiveText.bind(c), fire = c.fire.bind(c);
      c.receiveText = (text) => { w.received++; receiveText(text); };
      c.fire = (body) => { w.sent++; fire(body); };
    } else w.received = w.sent = null;
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
  const { start, end, budgets, received, sent } = (await drained.jsonValue()) as { start: number; end: number; budgets: number[]; received: number | null; sent: number | null };
  await page.evaluate('if (window.__thclaws.terminals.client) { delete window.__thclaws.terminals.client.receiveText; delete window.__thclaws.terminals.client.fire }');
  const secs = (end - start) / 1000;
  const m1 = machineTicks();
  const chromeTicks = chromiumTicks() - chrome0;
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
  rows.push({ metric: `${label}: renderer main-thread CPU per MB → MB/s with a whole core (messages received / sent, per MB)`, value: `${((rendererCpuSecs * 1000) / mbTotal).toFixed(0)} ms → ${(mbTotal / rendererCpuSecs).toFixed(1)} MB/s (${received === null ? 'not counted in this build' : `${(received / mbTotal).toFixed(0)} / ${(sent! / mbTotal).toFixed(0)}`})`, target: '-' });
  // CPU per MB of each process of the chain (less sensitive to the machine's load than MB/s): where a hop costs.
  const msPerMb = (ticks: number) => ((ticks / hz()) * 1000) / mbTotal;
  const cpuPerMb = { host: msPerMb(cpuTicks(dash.hostPid) - th0), client: dash.clientPid === dash.hostPid ? 0 : msPerMb(cpuTicks(dash.clientPid) - tc0Client), chromium: msPerMb(chromeTicks) };
  rows.push({ metric: `${label}: CPU per MB, host${dash.clientPid === dash.hostPid ? '' : ' / its client'} / all of Chromium`, value: `${cpuPerMb.host.toFixed(0)}${dash.clientPid === dash.hostPid ? '' : ` / ${cpuPerMb.client.toFixed(0)}`} / ${cpuPerMb.chromium.toFixed(0)} ms`, target: '-' });
  budgets.sort((a, b) => a - b);
  const frameBudgetKiB = { p10: budgets[Math.floor(budgets.length * 0.1)]! / 1024, p50: budgets[Math.floor(budgets.length / 2)]! / 1024, p90: budgets[Math.floor(budgets.length * 0.9)]! / 1024 };
  if (process.env.BENCH_QUICK) console.log(`${label}: frame budget KiB p10/p50/p90`, frameBudgetKiB);
  return { secs, mbs, cpuMsPerMb: (rendererCpuSecs * 1000) / mbTotal, receivedPerMb: received === null ? null : received / mbTotal, sentPerMb: sent === null ? null : sent / mbTotal, cpuPerMb, gapMs: gap, ...busy, frameBudgetKiB, load: [load0, load1] };
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

/** `--baseline <ref or dir>`: another checkout measured beside this one (dashboard-compare.ts). */
function baselineArg(): string | null {
  const i = process.argv.indexOf('--baseline');
  return i >= 0 ? (process.argv[i + 1] ?? 'main') : null;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const s = await runDashboardBench();
  console.table(s.rows);
}
