/**
 * The workspace's host killed while the page waits for its answer, with real processes: `thclaws dashboard`
 * (a client) and its `thclaws host` (scripted provider). The host is stopped (SIGSTOP) so the page's "Save" of
 * a new task is never answered, then killed: the dashboard ends the page's socket and the page reconnects at
 * once (the web server never went away, so no "server stopped" banner). A reply can only come back on the
 * socket the request went out on: the person reads at once that the save was not answered, instead of a form
 * that waits for ever. Killed while stopped, the host never runs again: its "stopped" notice closes once the next
 * host serves the page, and also when no next host can start (the page then reads "cannot reach", never "stopped").
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { leasePid } from '../src/main/daemon/host-stall.js';
import { dashboardReady, makeTeamWorkspace, ROOT, THCLAWS } from '../test/desktop/helpers.js';
import { shotsAtBothSizes, tearDownDashboard } from './fixture.js';

const SHOTS = path.join(ROOT, 'test-results', 'screens');

let ws: string;
let env: NodeJS.ProcessEnv;
let dash: ChildProcess;
let url: string;
let hostPid: number;
let page: Page;
/** Request types the page sent, as they left it. */
const sent: string[] = [];
/** The pids of the hosts whose `workspace` event reached the page (the hosts that served it), in order. */
const servedBy: number[] = [];

test.beforeAll(async ({ browser }) => {
  ws = fs.realpathSync(makeTeamWorkspace(['alice']));
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init'], { cwd: ws });
  fs.writeFileSync(path.join(ws, '.thclaws', 'settings.json'), JSON.stringify({ provider: 'scripted', teamEnabled: true }));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-hostdied-home-'));
  const script = path.join(home, 'script.json');
  fs.writeFileSync(script, JSON.stringify({ rules: [], fallback: [{ text: 'OK' }] }));
  env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-hostdied-rt-')) };
  for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];
  dash = spawn(THCLAWS, ['dashboard', '--dir', ws, '--port', '0', '--lead-script', script], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  ({ url, hostPid } = await dashboardReady(dash, { hostPid: true }));
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.routeWebSocket(/\/ws/, (route) => {
    const server = route.connectToServer();
    server.onMessage((m) => {
      for (const [, pid] of String(m).matchAll(/^\{"type":"workspace".*"host_pid":(\d+)/gm)) servedBy.push(Number(pid));
      route.send(m);
    });
    route.onMessage((m) => {
      try {
        sent.push(String((JSON.parse(String(m)) as { type?: unknown }).type));
      } catch {
        /* not JSON: passed on as is */
      }
      server.send(m);
    });
  });
  await page.goto(url);
});

test.afterAll(async () => {
  // The page's reconnect started a new host for the workspace: stopped here.
  await tearDownDashboard({ page, dash, ws, env, hostPid });
});

test('a stopped host (SIGSTOP) is said on the page at once, and the notice closes when it runs again', async () => {
  test.setTimeout(60_000);
  await expect(page.locator('.conn.up')).toBeVisible({ timeout: 30_000 });
  process.kill(hostPid, 'SIGSTOP');
  const stopped = page.locator('.notice.error', { hasText: `the workspace host (pid ${hostPid}) is stopped` });
  try {
    await expect(stopped).toBeVisible({ timeout: 10_000 });
    await expect(stopped).toContainText(`kill -CONT ${hostPid}`);
  } finally {
    process.kill(hostPid, 'SIGCONT');
  }
  await expect(stopped).toHaveCount(0, { timeout: 10_000 });
  await expect(page.locator('.notice', { hasText: 'runs again' })).toBeVisible();
});

test('a request the killed host never answered fails at once on the page; no "server stopped" banner', async () => {
  test.setTimeout(120_000);
  await page.getByRole('button', { name: 'Tasks' }).click();
  await page.getByRole('button', { name: 'New task' }).click();
  const editor = page.getByRole('dialog', { name: 'task editor' });
  await editor.locator('input[name="subject"]').fill('never answered');

  process.kill(hostPid, 'SIGSTOP');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => sent.includes('task_create'), { timeout: 10_000 }).toBe(true);
  const stopped = page.locator('.notice.error', { hasText: `the workspace host (pid ${hostPid}) is stopped` });
  try {
    await expect(stopped).toBeVisible({ timeout: 10_000 });
  } finally {
    process.kill(hostPid, 'SIGKILL');
  }

  const failed = page.locator('.notice.error', { hasText: 'closed before it answered' });
  await expect(failed).toBeVisible({ timeout: 10_000 });
  // The web server is alive: the page is connected again and never said it stopped.
  await expect(page.locator('.conn.up')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('server-lost')).toHaveCount(0);
  // Killed, not continued: "stopped … until it runs again" is gone (the view says that pid is gone; a next host serving the page closes it too).
  await expect(stopped).toHaveCount(0, { timeout: 30_000 });
  // The form is still there with what the person typed, to save again.
  await expect(editor.locator('input[name="subject"]')).toHaveValue('never answered');
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, 'host-died-request-1440.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(failed).toBeVisible();
  await expect(stopped).toHaveCount(0);
  await page.screenshot({ path: path.join(SHOTS, 'host-died-request-390.png') });
});

test('a stopped host killed when no new host can start: the page reads that it is gone and "cannot reach", no longer "stopped"', async () => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(page.locator('.conn.up')).toBeVisible({ timeout: 30_000 });
  // The host that serves the page now (after the reconnect of the test before, the one it started).
  await expect.poll(() => servedBy.length > 0 && servedBy.at(-1) === leasePid(ws, env), { timeout: 30_000 }).toBe(true);
  const serving = servedBy.at(-1)!;
  const stopped = page.locator('.notice.error', { hasText: `the workspace host (pid ${serving}) is stopped` });
  // The folder moved away (while the host is stopped, so that nothing there notices): a host can start for it no more.
  const away = `${ws}-away`;
  process.kill(serving, 'SIGSTOP');
  try {
    await expect(stopped).toBeVisible({ timeout: 10_000 });
    fs.renameSync(ws, away);
  } finally {
    process.kill(serving, 'SIGKILL');
  }
  try {
    await expect(page.locator('.notice.error', { hasText: 'cannot reach the workspace host' })).toBeVisible({ timeout: 15_000 });
    await expect(stopped).toHaveCount(0);
    await expect(page.locator('.notice', { hasText: `the workspace host (pid ${serving}) is gone` })).toBeVisible();
    await shotsAtBothSizes(page, SHOTS, 'host-killed-none-starts');
  } finally {
    fs.renameSync(away, ws);
  }
});

