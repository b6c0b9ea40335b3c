/**
 * The kept address held by a stranger, in Chromium with real processes: `thclaws dashboard` (kept port and
 * token) serves a page; the dashboard is SIGKILLed and another program (any local user can) takes its port.
 * The open tab keeps reconnecting to that port: it must not hand the stranger its token, because the same
 * token is kept for the next dashboard of the workspace (which a stranger holding it could then drive). The
 * dashboard started again on the same URL still gets the tab back.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { hostPaths } from '../src/main/daemon/runtime-dir.js';
import { dashboardReady, THCLAWS } from '../test/desktop/helpers.js';
import { startDashboard, type Dashboard } from './fixture.js';

// The second test goes on from the dashboard the first one started again.
test.describe.configure({ mode: 'serial' });

let d: Dashboard;
let page: Page;

test.beforeAll(async ({ browser }) => {
  d = await startDashboard(['alice'], {}, {}, []);
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(d.url);
});

test.afterAll(async () => {
  await page?.close();
  await d?.stop();
});

test('a stranger on the dead dashboard\'s port never gets the token; the dashboard started again gets the tab back', async () => {
  test.setTimeout(120_000);
  const url = new URL(d.url);
  const token = url.searchParams.get('token')!;
  const port = Number(url.port);
  await expect(page.locator('.conn.up')).toBeVisible({ timeout: 30_000 });

  const exited = new Promise((r) => d.proc.once('exit', r));
  d.proc.kill('SIGKILL');
  await exited;
  // The stranger: a plain HTTP server that answers anything and keeps every request line it gets.
  const seen: string[] = [];
  const stranger = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('hello\n');
  });
  stranger.on('upgrade', (req, socket) => {
    seen.push(`UPGRADE ${req.url}`);
    socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    stranger.once('error', reject);
    stranger.listen(port, '127.0.0.1', () => resolve());
  });
  try {
    // The page tries this port again and again (once a second): give it several tries.
    await expect.poll(() => seen.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    await expect(page.getByTestId('server-lost')).toBeVisible({ timeout: 10_000 });
    expect(seen.filter((l) => l.includes(token))).toEqual([]);
    // What answers is not the dashboard: the page says so (not "run thclaws dashboard to bring it back").
    await expect(page.getByTestId('server-lost')).toContainText("This page's dashboard is not at this address any more");
    await expect(page.getByRole('button', { name: 'Tasks' })).toBeDisabled();
  } finally {
    await new Promise<void>((r) => stranger.close(() => r()));
    stranger.closeAllConnections();
  }

  // The dashboard started again: the same URL, and the same tab comes back by itself.
  await d.restart();
  expect(d.url).toBe(url.toString());
  await expect(page.getByTestId('server-lost')).toBeHidden({ timeout: 15_000 });
  await expect(page.locator('.conn.up')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Tasks' })).toBeEnabled();
});

test('an old tab whose key the dashboard no longer has says so, instead of "run thclaws dashboard"', async () => {
  test.setTimeout(120_000);
  const old = new URL(d.url);
  await expect(page.locator('.conn.up')).toBeVisible({ timeout: 30_000 });
  // The kept address made untrustworthy (readable by others): the next dashboard sets it aside, makes a new
  // key, and is told to serve on the same port (--port), as a person who always uses one port would.
  const exited = new Promise((r) => d.proc.once('exit', r));
  d.proc.kill('SIGKILL');
  await exited;
  fs.chmodSync(hostPaths(d.ws, d.env).dashboard, 0o644);
  const proc = spawn(THCLAWS, ['dashboard', '--dir', d.ws, '--port', old.port], { stdio: ['ignore', 'pipe', 'inherit'], env: d.env });
  d.proc = proc;
  const { url } = await dashboardReady(proc, { ms: 30_000 });
  expect(new URL(url).port).toBe(old.port);
  expect(new URL(url).searchParams.get('token')).not.toBe(old.searchParams.get('token'));
  const notice = page.getByTestId('server-lost');
  await expect(notice).toBeVisible({ timeout: 15_000 });
  await expect(notice).toContainText("This page's dashboard is not at this address any more");
  await expect(notice).toContainText(`Open the URL that thclaws dashboard --dir ${fs.realpathSync(d.ws)} printed`);
  await page.screenshot({ path: 'test-results/screens/dashboard-stranger-1440.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/screens/dashboard-stranger-390.png' });
  // The URL it printed works.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(url);
  await expect(page.locator('.conn.up')).toBeVisible({ timeout: 30_000 });
  await expect(notice).toHaveCount(0);
});
