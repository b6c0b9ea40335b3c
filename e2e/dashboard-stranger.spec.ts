/**
 * The kept address held by a stranger, in Chromium with real processes: `thclaws dashboard` (kept port and
 * token) serves a page; the dashboard is SIGKILLed and another program (any local user can) takes its port.
 * The open tab keeps reconnecting to that port: it must not hand the stranger its token, because the same
 * token is kept for the next dashboard of the workspace (which a stranger holding it could then drive). The
 * dashboard started again on the same URL still gets the tab back.
 */
import http from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { startDashboard, type Dashboard } from './fixture.js';

let d: Dashboard;
let page: Page;

test.beforeAll(async ({ browser }) => {
  d = await startDashboard(['alice'], {}, []);
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
