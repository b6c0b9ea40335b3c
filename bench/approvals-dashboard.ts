/**
 * The approval inbox's browser leg, through the real chain: a real teammate process asks (status `waiting`,
 * `permission_request`) → `thclaws dashboard` (TeamHost, chokidar, WebSocket) → the card drawn in Chromium
 * (a MutationObserver stamps it); a click on Approve → WebSocket → `answerApproval` → the teammate's inbox →
 * the approved command's own `date`. All clocks are this machine's.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { dashboardUrl } from './dashboard-rig.js';
import { TeamStore } from '../src/core/store/index.js';
import { pendingApprovals } from '../src/core/teams/approvals.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const THCLAWS = path.join(REPO, 'bin/thclaws');

export async function dashboardApprovalLeg(n: number): Promise<{ shown: number[]; running: number[] }> {
  const renderer = path.join(REPO, 'out/renderer');
  if (!fs.existsSync(path.join(renderer, 'index.html'))) execFileSync('npm', ['run', 'build:renderer'], { cwd: REPO, stdio: 'inherit' });
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-approvals-dash-')));
  const home = path.join(ws, '.home');
  fs.mkdirSync(home);
  execFileSync('git', ['init', '-q'], { cwd: ws });
  execFileSync(THCLAWS, ['team', 'create', 'bench', '--members', 'a', '--dir', ws], { stdio: 'ignore' });
  fs.writeFileSync(path.join(ws, '.thclaws', 'settings.json'), JSON.stringify({ provider: 'scripted', teamEnabled: true, teammatePermissionMode: 'ask' }));
  const calls = Array.from({ length: n }, (_, i) => ({ name: 'Bash', input: { command: `date +%s%3N >> ran.txt; echo ${i}` } }));
  const script = path.join(home, 'script.json');
  fs.writeFileSync(script, JSON.stringify({ rules: [{ match: 'Task #1 —', turns: [{ text: 'go', tool_calls: calls }, { text: 'end' }] }], fallback: [{ text: 'ok' }] }));
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
  const procs: ChildProcess[] = [];
  const dash = spawn(THCLAWS, ['dashboard', '--in-process', '--dir', ws, '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'], env });
  procs.push(dash);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
  const shown: number[] = [];
  const running: number[] = [];
  try {
    const url = await dashboardUrl(dash);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(url);
    await page.waitForSelector('.pane[data-agent="lead"]', { timeout: 30_000 });
    // A string, not a function: tsx's name-keeping helper does not exist in the page.
    await page.evaluate(`(() => {
      window.__seen = {};
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('.approval[data-request]')) {
          const id = el.getAttribute('data-request');
          if (!(id in window.__seen)) window.__seen[id] = Date.now();
        }
      }).observe(document.body, { childList: true, subtree: true });
    })()`);
    procs.push(spawn(THCLAWS, ['--team-agent', 'a', '--script', script], { cwd: ws, env: { ...env, THCLAWS_TEAM_DIR: path.join(ws, '.thclaws/state/team') }, stdio: 'ignore' }));
    execFileSync(THCLAWS, ['team', 'task', 'add', '--subject', 'bench', '--owner', 'a', '--dir', ws], { stdio: 'ignore' });
    const store = new TeamStore(path.join(ws, '.thclaws/state/team'));
    const ran = path.join(ws, 'ran.txt');
    const lines = () => (fs.existsSync(ran) ? fs.readFileSync(ran, 'utf8').trim().split('\n').filter(Boolean) : []);
    const done = new Set<string>();
    for (let i = 0; i < n; i++) {
      const handle = await page.waitForFunction((seen) => Object.keys((window as unknown as { __seen: Record<string, number> }).__seen).find((k) => !seen.includes(k)) ?? null, [...done], { timeout: 30_000, polling: 2 });
      const id = (await handle.jsonValue()) as string;
      const seenAt = (await page.evaluate(`window.__seen[${JSON.stringify(id)}]`)) as number;
      const w = (await pendingApprovals(store)).find((x) => x.request_id === id);
      if (w) shown.push(seenAt - w.since);
      done.add(id);
      const before = lines().length;
      const clickAt = (await page.evaluate(`(() => { const b = document.querySelector('.approval[data-request="${id}"] button.approve'); const t = Date.now(); b.click(); return t; })()`)) as number;
      const end = Date.now() + 30_000;
      while (lines().length <= before) {
        if (Date.now() > end) throw new Error('approved command never ran');
        await new Promise((r) => setTimeout(r, 2));
      }
      running.push(Number(lines().at(-1)) - clickAt);
    }
  } finally {
    await browser.close();
    for (const p of procs.reverse()) p.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
    fs.rmSync(ws, { recursive: true, force: true });
  }
  return { shown, running };
}
