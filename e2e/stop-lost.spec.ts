/**
 * "Stop the team" lost with the page's connection (it dropped before the request reached the host), in Chromium
 * with real processes. The page cannot know whether the team is stopping, so it reconnects only to a host that
 * runs; it finds the team running. The team is then not the person's "stopped" one: when its host dies later
 * (killed), the page reconnects as any page does, starting the next host, instead of "The team is stopped".
 */
import { expect, test, type Page, type WebSocketRoute } from '@playwright/test';
import { leasePid } from '../src/main/daemon/host-stall.js';
import { startDashboard, type Dashboard } from './fixture.js';

let d: Dashboard;
let page: Page;
const sockets: WebSocketRoute[] = [];
/** The sockets (indexes of `sockets`) the team's roster came on. */
const rosterOn = new Set<number>();

test.beforeAll(async ({ browser }) => {
  d = await startDashboard(['alice']);
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.routeWebSocket(/\/ws/, (route) => {
    const index = sockets.push(route) - 1;
    const server = route.connectToServer();
    server.onMessage((m) => {
      if (String(m).includes('"type":"roster"')) rosterOn.add(index);
      route.send(m);
    });
    route.onMessage((m) => {
      // The stop request is lost with its connection: it never reaches the dashboard, and the socket drops.
      if ((JSON.parse(String(m)) as { type?: string }).type === 'host_stop') void route.close();
      else server.send(m);
    });
  });
  await page.goto(d.url);
  await expect(page.locator('.pane[data-agent="lead"] .xterm')).toBeVisible();
});

test.afterAll(async () => {
  await page?.close();
  await d?.stop();
});

test('"Stop the team" lost with the connection: the team runs on, and its host killed later is started again, not taken for stopped', async () => {
  test.setTimeout(90_000);
  const first = leasePid(d.ws, d.env);
  expect(first).not.toBeNull();
  await page.getByRole('button', { name: 'Stop the team' }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop the team' });
  await dialog.getByRole('button', { name: 'Stop the team' }).click();
  await expect(page.locator('.notice-text', { hasText: /closed before it answered/i })).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  // Not knowing, the page reconnected as a stopping page does, and found the team running.
  await expect.poll(() => sockets.length).toBe(2);
  expect(new URL(sockets[1]!.url()).searchParams.has('nostart')).toBe(true);
  await expect(page.locator('.conn.up')).toBeVisible();
  await expect(page.locator('.pane[data-agent="lead"] .xterm')).toBeVisible();
  await expect(page.getByTestId('team-stopped')).toHaveCount(0);
  // The roster of the running team reached the page over the new socket before the host dies.
  await expect.poll(() => rosterOn.has(1)).toBe(true);

  process.kill(first!, 'SIGKILL');
  await expect.poll(() => sockets.length, { timeout: 30_000 }).toBe(3);
  // The next host serves the team: the page shows it, not "The team is stopped".
  await expect.poll(() => leasePid(d.ws, d.env), { timeout: 30_000 }).not.toBe(first);
  await expect(page.locator('.pane[data-agent="lead"] .xterm')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.conn.up')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('team-stopped')).toHaveCount(0);
  expect(new URL(sockets[2]!.url()).searchParams.has('nostart'), 'a plain reconnect').toBe(false);
});
