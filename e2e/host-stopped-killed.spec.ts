/**
 * A stopped host (SIGSTOP) that is then killed, not continued, with real processes: `thclaws dashboard` (a
 * client) and its `thclaws host`. The page said "the workspace host (pid N) is stopped … until it runs again";
 * killed, the page reconnects and a new host serves it. That notice is an error (it stays until closed) and
 * pid N will never run again: the page must not keep telling the person nothing reaches the team.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dashboardReady, makeTeamWorkspace, ROOT, THCLAWS } from '../test/desktop/helpers.js';
import { leasePid } from '../src/main/daemon/host-stall.js';
import { tearDownDashboard } from './fixture.js';

const SHOTS = path.join(ROOT, 'test-results', 'screens');

let ws: string;
let env: NodeJS.ProcessEnv;
let dash: ChildProcess;
let hostPid: number;
let page: Page;

test.beforeAll(async ({ browser }) => {
  ws = fs.realpathSync(makeTeamWorkspace(['alice']));
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init'], { cwd: ws });
  fs.writeFileSync(path.join(ws, '.thclaws', 'settings.json'), JSON.stringify({ provider: 'scripted', teamEnabled: true }));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-stopkill-home-'));
  const script = path.join(home, 'script.json');
  fs.writeFileSync(script, JSON.stringify({ rules: [{ match: 'never said', turns: [{ text: 'OK' }] }], fallback: [{ text: 'OK' }] }));
  env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-stopkill-rt-')) };
  for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];
  dash = spawn(THCLAWS, ['dashboard', '--dir', ws, '--port', '0', '--lead-script', script], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let url: string;
  ({ url, hostPid } = await dashboardReady(dash, { hostPid: true }));
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(url);
});

test.afterAll(async () => {
  // The page's reconnect started a new host for the workspace: stopped here.
  await tearDownDashboard({ page, dash, ws, env, hostPid });
});

test('a stopped host then killed: once the next host serves the page, the "stopped" notice is gone', async () => {
  test.setTimeout(60_000);
  await expect(page.locator('.conn.up')).toBeVisible({ timeout: 30_000 });
  process.kill(hostPid, 'SIGSTOP');
  const stopped = page.locator('.notice.error', { hasText: `the workspace host (pid ${hostPid}) is stopped` });
  try {
    await expect(stopped).toBeVisible({ timeout: 10_000 });
  } finally {
    process.kill(hostPid, 'SIGKILL');
  }
  // The page reconnects and a new host (another pid) serves it: its team is shown again.
  await expect.poll(() => leasePid(ws, env), { timeout: 30_000 }).not.toBe(hostPid);
  await expect.poll(() => leasePid(ws, env), { timeout: 30_000 }).not.toBeNull();
  await expect(page.locator('.conn.up')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.pane[data-agent="alice"]')).toBeVisible({ timeout: 30_000 });
  await expect(stopped).toHaveCount(0, { timeout: 10_000 });
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, 'host-stopped-killed-1440.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(stopped).toHaveCount(0);
  await page.screenshot({ path: path.join(SHOTS, 'host-stopped-killed-390.png') });
});
