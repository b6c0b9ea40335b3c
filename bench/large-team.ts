/**
 * A team of 200 idle teammates in the dashboard (Chromium, `thclaws dashboard --in-process`): what the page's
 * main thread spends while nothing happens but each teammate's heartbeat and CPU sample, and which events reach
 * it. Each teammate's status names this process as its pid (alive, so every one stays live and is sampled).
 * Guards two regressions seen on 200 teammates: every member event re-rendering every pane (the page saturated,
 * 14–15 s of script per 8 s; now `memo(Pane)`), and each member push re-sending every pane's size (`pty_size`,
 * 50 a second; now only on a new size or reason).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { dashboardUrl } from './dashboard-rig.js';
import { TeamStore } from '../src/core/store/index.js';
import type { BenchSection } from './types.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const THCLAWS = path.join(REPO, 'bin/thclaws');
const N = Number(process.env.BENCH_TEAM_SIZE ?? 200);
const SECS = 10;

export async function runLargeTeamBench(): Promise<BenchSection> {
  if (!fs.existsSync(path.join(REPO, 'out/renderer/index.html'))) execFileSync('npm', ['run', 'build:renderer'], { cwd: REPO, stdio: 'inherit' });
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-large-team-')));
  const home = path.join(ws, '.home');
  fs.mkdirSync(home);
  execFileSync('git', ['init', '-q'], { cwd: ws });
  fs.mkdirSync(path.join(ws, '.thclaws'));
  fs.writeFileSync(path.join(ws, '.thclaws', 'settings.json'), JSON.stringify({ provider: 'scripted', teamEnabled: true }));
  const names = Array.from({ length: N }, (_, i) => `t${String(i).padStart(3, '0')}`);
  const store = TeamStore.forWorkspace(ws);
  store.init();
  await store.config.create({ name: 'bench', members: names.map((name) => ({ name })) });
  const beatAll = async () => {
    for (const n of names) await store.statuses.write(n, { status: 'idle', pid: process.pid }, { durable: false });
  };
  await beatAll();
  const beat = setInterval(() => void beatAll().catch(() => {}), 4000);
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
  const dash = spawn(THCLAWS, ['dashboard', '--in-process', '--no-lead', '--dir', ws, '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'], env });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
  try {
    const url = await dashboardUrl(dash, 60_000);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(url);
    await page.waitForFunction(`document.querySelectorAll('.pane').length >= ${N}`, undefined, { timeout: 120_000 });
    // Settled: the first snapshot's terminals attached and fitted.
    await page.waitForTimeout(5000);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    await cdp.send('Network.enable');
    const events = new Map<string, number>();
    cdp.on('Network.webSocketFrameReceived', (e) => {
      const type = /^\{"type":"([a-z_]+)"/.exec(e.response.payloadData)?.[1] ?? 'other';
      events.set(type, (events.get(type) ?? 0) + 1);
    });
    const metric = async (name: string) => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === name)?.value ?? 0;
    const [script0, task0, t0] = [await metric('ScriptDuration'), await metric('TaskDuration'), Date.now()];
    await page.waitForTimeout(SECS * 1000);
    const [script1, task1, wall] = [await metric('ScriptDuration'), await metric('TaskDuration'), (Date.now() - t0) / 1000];
    const perSec = (type: string) => ((events.get(type) ?? 0) / wall).toFixed(1);
    const scriptPct = ((script1 - script0) / wall) * 100;
    const taskPct = ((task1 - task0) / wall) * 100;
    return {
      title: `A team of ${N} idle teammates in the dashboard (Chromium)`,
      file: 'large-team',
      rows: [
        { metric: `renderer main thread: script / all tasks, ${N} idle teammates (${wall.toFixed(0)} s)`, value: `${scriptPct.toFixed(1)} % / ${taskPct.toFixed(1)} % of a core`, target: 'script < 20 %' },
        { metric: 'events the page received per second: member / pty_size', value: `${perSec('member')} / ${perSec('pty_size')}`, target: 'pty_size 0' },
      ],
      details: { n: N, wall, scriptPct, taskPct, events: Object.fromEntries(events) },
    };
  } finally {
    clearInterval(beat);
    await browser.close();
    dash.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    if (dash.exitCode === null) dash.kill('SIGKILL');
    fs.rmSync(ws, { recursive: true, force: true });
  }
}
