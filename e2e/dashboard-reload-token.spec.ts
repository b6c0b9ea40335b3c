/**
 * A reload never hands the token to whatever holds the port, in Chromium with real processes: the page takes
 * the token out of its address at start (kept in the tab), so reloading after the dashboard died and another
 * program took its port asks that program for `/` without the token. The dashboard started again on the same
 * address: a reload gets the working page back, still without the token in its address.
 */
import http from 'node:http';
import { expect, test } from '@playwright/test';
import { startDashboard } from './fixture.js';

test('reloading a dead dashboard\'s page sends no token to the program now on its port; the same tab reloads after a restart', async ({ browser }) => {
  test.setTimeout(120_000);
  const d = await startDashboard(['alice'], {}, {}, []);
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  try {
    const url = new URL(d.url);
    const token = url.searchParams.get('token')!;
    await page.goto(d.url);
    await expect(page.locator('.conn.up')).toBeVisible({ timeout: 30_000 });
    // The address the person sees (and may copy, or reload) no longer holds the token.
    expect(page.url()).not.toContain(token);

    const exited = new Promise((r) => d.proc.once('exit', r));
    d.proc.kill('SIGKILL');
    await exited;
    const seen: string[] = [];
    const stranger = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>stranger</title>hello');
    });
    stranger.on('upgrade', (req, socket) => {
      seen.push(`UPGRADE ${req.url}`);
      socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    });
    await new Promise<void>((resolve, reject) => {
      stranger.once('error', reject);
      stranger.listen(Number(url.port), '127.0.0.1', () => resolve());
    });
    try {
      await page.reload();
      await expect(page).toHaveTitle('stranger');
      expect(seen.some((l) => l.startsWith('GET /'))).toBe(true);
      expect(seen.filter((l) => l.includes(token))).toEqual([]);
    } finally {
      await new Promise<void>((r) => stranger.close(() => r()));
      stranger.closeAllConnections();
    }

    await d.restart();
    expect(d.url).toBe(url.toString());
    // The address without the token: the tab still has it, and gives it only to the dashboard that proves it knows it.
    await page.goto(`${url.origin}/`);
    await expect(page.locator('.conn.up')).toBeVisible({ timeout: 30_000 });
    expect(page.url()).not.toContain(token);
  } finally {
    await page.close();
    await d.stop();
  }
});
