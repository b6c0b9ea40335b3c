/**
 * The dashboard bench's rig: a fresh 8-member workspace served in-process or by its own host with the dashboard
 * as its client (each its own process, so each one's CPU is measured alone), the page in Chromium with its
 * frame-gap probe, the flooding children, and the CPU counters of processes and of the machine.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import type { Browser } from 'playwright-core';
export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const THCLAWS = path.join(REPO, 'bin/thclaws');
export const MiB = 1024 * 1024;
export const AGENTS = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8'];

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
export function flood(mib: number): { argv: string[]; chars: number } {
  const lines = mib * 1024;
  const code = `const l='x'.repeat(1023)+'\\n';let n=${lines};const b=l.repeat(64);(function w(){while(n>=64){n-=64;if(!process.stdout.write(b)){process.stdout.once('drain',w);return}}while(n>0){n--;process.stdout.write(l)}})()`;
  return { argv: [process.execPath, '-e', code], chars: mib * MiB + lines }; // the pty turns \n into \r\n
}

/** Busy and total ticks of the whole machine (all cores): tells whether the run was starved of CPU. */
export function machineTicks(): { busy: number; total: number } {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - f[3]! - f[4]!, total };
}

/** CPU ticks of every Chromium process this bench started (browser, renderer, GPU, network…), alive now. */
export function chromiumTicks(): number {
  const procs = new Map<number, { ppid: number; comm: string; ticks: number }>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      procs.set(Number(d), { ppid: Number(f[1]), comm, ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // Gone meanwhile.
    }
  }
  const mine = (pid: number): boolean => {
    for (let p = procs.get(pid)?.ppid; p; p = procs.get(p)?.ppid) if (p === process.pid) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, p] of procs) if (/chrom/.test(p.comm) && mine(pid)) ticks += p.ticks;
  return ticks;
}

export function cpuTicks(pid: number): number {
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

/** The URL (with its token) a `thclaws dashboard` prints once it serves. */
export async function dashboardUrl(proc: ChildProcess, ms = 30_000): Promise<string> {
  return (await watchOut(proc, 'dashboard').wait(/http:\/\/\S+token=\S+/, ms))[0];
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
    const clientProf = process.env.BENCH_CLIENT_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CLIENT_PROF}`] : [];
    client = spawn(process.execPath, [...clientProf, serverJs, ws, renderer, '--via-host'], { stdio: ['pipe', 'pipe', 'inherit'], cwd: REPO, env });
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

export const hz = (): number => Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
