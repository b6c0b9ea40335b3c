import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, type Browser, type Page } from '@playwright/test';
import { agentSimScript, dashboardReady, THCLAWS } from '../test/desktop/helpers.js';
import { pidAlive } from '../src/core/store/index.js';
import { keptEndpoint } from '../src/main/web/endpoint.js';

export interface Dashboard {
  ws: string;
  url: string;
  base: string;
  teamDir: string;
  proc: ChildProcess;
  /** The dashboard's environment (its private HOME and runtime dir). */
  env: NodeJS.ProcessEnv;
  sims: Map<string, ChildProcess>;
  cli(...args: string[]): string;
  startSim(name: string, ...args: string[]): ChildProcess;
  /** Stops `thclaws dashboard` (if still running) and starts it again on the same workspace (teammates live on). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real team, made with the store's CLI as a person would, with real teammate processes writing their own
 * output, and `thclaws dashboard` as a real process serving it.
 */
export async function startDashboard(members: string[], settings: Record<string, unknown> = {}, extraEnv: Record<string, string> = {}, launchArgs: string[] = ['--port', '0']): Promise<Dashboard> {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-e2e-'));
  execFileSync('git', ['init', '-q'], { cwd: ws });
  const cli = (...args: string[]) => execFileSync(THCLAWS, [...args, '--dir', ws], { encoding: 'utf8' });
  // No members: no team either (the lead, or the person, creates it).
  if (members.length) cli('team', 'create', 'demo', '--members', members.join(','), '--description', 'e2e team');
  else fs.mkdirSync(path.join(ws, '.thclaws'), { recursive: true });
  fs.writeFileSync(path.join(ws, '.thclaws', 'settings.json'), JSON.stringify({ provider: 'scripted', ...settings }, null, 2));
  const teamDir = path.join(ws, '.thclaws', 'state', 'team');
  const sims = new Map<string, ChildProcess>();
  const startSim = (name: string, ...args: string[]) => {
    const c = spawn(process.execPath, [agentSimScript(), name, '--own-output', ...args], {
      env: { ...process.env, THCLAWS_TEAM_DIR: teamDir },
      stdio: ['pipe', 'ignore', 'inherit'],
    });
    sims.set(name, c);
    return c;
  };
  // A private HOME and no ANTHROPIC_* variables: nothing of this machine's user config reaches the agents.
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: path.join(ws, '.home'), XDG_CONFIG_HOME: path.join(ws, '.home', '.config') };
  for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];
  Object.assign(env, extraEnv); // what a test gives on purpose (a fake model server and its key)
  fs.mkdirSync(path.join(ws, '.home'), { recursive: true });
  // The workspace's host (which the dashboard starts detached) lives in a runtime dir of this test's own.
  env.XDG_RUNTIME_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-e2e-rt-'));
  if (!launchArgs.includes('--port')) await keepPortOutsideEphemeralRange(ws, env);
  const launch = async (): Promise<{ proc: ChildProcess; url: string }> => {
    const proc = spawn(THCLAWS, ['dashboard', '--dir', ws, ...launchArgs], { stdio: ['ignore', 'pipe', 'inherit'], env });
    const { url } = await dashboardReady(proc, { ms: 30_000 });
    return { proc, url };
  };
  const stopDashboard = async (proc: ChildProcess) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return; // killed by the test already
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  };
  const { proc, url } = await launch();
  const base = new URL(url).origin;
  const d: Dashboard = {
    ws, url, base, teamDir, proc, sims, cli, startSim, env,
    restart: async () => {
      await stopDashboard(d.proc);
      Object.assign(d, await launch());
      d.base = new URL(d.url).origin;
    },
    stop: async () => {
      for (const s of sims.values()) s.kill('SIGKILL');
      await stopDashboard(d.proc);
      await stopWorkspaceHost(ws, env);
    },
  };
  return d;
}

/**
 * A spec that runs the dashboard without --port kills it and starts it again on its kept address. A first run's
 * free port (listen(0)) is in the kernel's ephemeral range, which the other worker's `--port 0` processes are
 * handed ports from: one could take it while this dashboard is down, and the next run would serve elsewhere. A
 * port below that range is never handed out, so the workspace's kept address is one of those (free now).
 */
async function keepPortOutsideEphemeralRange(ws: string, env: NodeJS.ProcessEnv): Promise<void> {
  const low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const s = net.createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * (low - 20_000));
    if (await free(port)) return keptEndpoint(ws, env).save(port);
  }
}

/** Stops the workspace's host a dashboard started (its agents with it); nothing when none runs. */
export async function stopWorkspaceHost(ws: string, env: NodeJS.ProcessEnv): Promise<void> {
  const stop = spawn(THCLAWS, ['host', '--stop', '--dir', ws], { env, stdio: 'ignore' });
  await new Promise((r) => stop.once('exit', r));
}

/**
 * A spec's teardown of a dashboard it started itself: its page, the dashboard, then the workspace's host (asked to
 * stop, then killed by pid if it is still there: a page's reconnect may have started another).
 */
export async function tearDownDashboard(o: { page?: { close(): Promise<void> }; dash?: ChildProcess; ws: string; env: NodeJS.ProcessEnv; hostPid?: number }): Promise<void> {
  await o.page?.close();
  if (o.dash && o.dash.exitCode === null) o.dash.kill('SIGTERM');
  await stopWorkspaceHost(o.ws, o.env);
  if (o.hostPid && pidAlive(o.hostPid)) process.kill(o.hostPid, 'SIGKILL');
}

/**
 * A real teammate process (`thclaws --team-agent`) on the scripted provider, in the dashboard's workspace with
 * its private HOME; the caller kills it (or d.stop() takes the team's host down).
 */
export function startScriptedTeammate(d: Dashboard, name: string, script: unknown, env: Record<string, string> = {}): ChildProcess {
  const home = path.join(d.ws, '.home');
  const file = path.join(home, `script-${name}.json`);
  fs.writeFileSync(file, JSON.stringify(script));
  return spawn(THCLAWS, ['--team-agent', name, '--script', file], {
    cwd: d.ws,
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), THCLAWS_TEAM_DIR: d.teamDir, ...env },
    stdio: 'ignore',
  });
}

/**
 * Screenshots of the page at the two sizes every view is looked at (1440×900 and a 390×844 phone) into `dir`,
 * then back to 1440×900. `fullPage`: the phone's whole page (its stacked panes), not only the first screen.
 */
export async function shotsAtBothSizes(page: import('@playwright/test').Page, dir: string, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  for (const [w, h] of [[1440, 900], [390, 844]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.waitForTimeout(150); // layout settles (no synchronisation depends on it)
    await page.screenshot({ path: path.join(dir, `${name}-${w}x${h}.png`), fullPage: !!opts.fullPage && w < 700 });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/**
 * Waits until the host's screen (its replay on attach) of each agent's pane has reached the page. A pane shows
 * before it: a screen arriving after a test wrote into the pane resets it, dropping what the test wrote (on a
 * loaded CI machine the screens came after the panes showed).
 */
export async function screensIn(page: Page, ...agents: string[]): Promise<void> {
  await expect.poll(() => page.evaluate((names) => names.every((a) => (window as unknown as { __thclaws: { terminals: { replays(a: string): number } } }).__thclaws.terminals.replays(a) > 0), agents)).toBe(true);
}

/** A new page on the dashboard under Playwright's fake clock (not paused yet), the host's screens of `agents`' panes in. */
export async function fakeClockPage(browser: Browser, url: string, ...agents: string[]): Promise<Page> {
  const page = await browser.newPage();
  await page.clock.install();
  await page.goto(url);
  for (const a of agents) await expect(page.locator(`.pane[data-agent="${a}"] .xterm`)).toBeVisible();
  await screensIn(page, ...agents);
  return page;
}
