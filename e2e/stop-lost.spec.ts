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
/** The page's `host_stop` is lost with its socket (which drops). */
let loseStop = true;
/** The socket (an index of `sockets`) the page's `host_stop` went out on: the host's `host_closed` is kept from the page on it. */
let stopOn = -1;
let held = false;
/** Sends the page's `host_stop` on to the dashboard. */
let stopSend: (() => void) | null = null;
/** The next connection reaches no host: it only says it cannot reach it, and drops. */
let unreachableNext = false;

test.beforeAll(async ({ browser }) => {
  d = await startDashboard(['alice']);
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.routeWebSocket(/\/ws/, (route) => {
    const index = sockets.push(route) - 1;
    if (unreachableNext) {
      unreachableNext = false;
      route.send(JSON.stringify({ type: 'notice', level: 'error', text: 'cannot reach the workspace host: not now (sent by the test)' }));
      return void setTimeout(() => void route.close(), 200);
    }
    const server = route.connectToServer();
    server.onMessage((m) => {
      if (String(m).includes('"type":"roster"')) {
        rosterOn.add(index);
        if (index === stopOn) stopSend?.();
      }
      if (index === stopOn && String(m).includes('"type":"host_closed"')) held = true;
      else route.send(m);
    });
    route.onMessage((m) => {
      const stop = (JSON.parse(String(m)) as { type?: string }).type === 'host_stop';
      // The stop request is lost with its connection: it never reaches the dashboard, and the socket drops.
      if (stop && loseStop) return void route.close();
      if (!stop) return server.send(m);
      // On after the team's roster came on this socket (as it does when the host reads the page's subscribe first).
      stopOn = index;
      stopSend = () => {
        stopSend = null;
        server.send(m);
      };
      if (rosterOn.has(index)) stopSend();
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
  // The window resized while the page is down (it reconnects a second later): the pane's new size waits for the
  // next connection and goes out on it, as a stop clicked meanwhile would; it is not that stop.
  await page.setViewportSize({ width: 1400, height: 880 });
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

test('"Stop the team" lost, and the next connection only says it cannot reach the host: the page still reconnects as a stopping page', async () => {
  test.setTimeout(90_000);
  await expect(page.locator('.conn.up')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Stop the team' }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop the team' });
  const before = sockets.length;
  unreachableNext = true;
  await dialog.getByRole('button', { name: 'Stop the team' }).click();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('.notice-text', { hasText: /not now \(sent by the test\)/ })).toBeVisible();
  // That connection carried no roster: no sign the team runs, so the stop may still be under way.
  await expect.poll(() => sockets.length, { timeout: 30_000 }).toBe(before + 2);
  expect(new URL(sockets[before + 1]!.url()).searchParams.has('nostart'), 'still a stopping page\'s reconnect').toBe(true);
  // It finds the team running (the stop was lost): from here, a plain page again.
  await expect(page.locator('.pane[data-agent="lead"] .xterm')).toBeVisible();
  await expect.poll(() => rosterOn.has(before + 1)).toBe(true);
});

test('"Stop the team" clicked while the page reconnects: sent when it is back, the team stops, and the page shows it stopped, starting no host', async () => {
  test.setTimeout(120_000);
  loseStop = false;
  await expect(page.locator('.conn.up')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Stop the team' }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop the team' });
  const before = sockets.length;
  await sockets.at(-1)!.close();
  await expect(page.locator('.conn.down')).toBeVisible();
  // Clicked while disconnected: the request waits for the next socket (opened as a stopping page's).
  await dialog.getByRole('button', { name: 'Stop the team' }).click();
  await expect.poll(() => stopOn, { timeout: 30_000 }).toBe(before);
  expect(new URL(sockets[before]!.url()).searchParams.has('nostart')).toBe(true);
  // The team's roster came on that socket too (the host was still running when it was opened): it is not a sign
  // that the request was lost.
  await expect.poll(() => rosterOn.has(before)).toBe(true);
  // The host stops and says so; the page has not heard it when its connection drops.
  await expect.poll(() => held, { timeout: 60_000 }).toBe(true);
  await expect.poll(() => leasePid(d.ws, d.env), { timeout: 30_000 }).toBeNull();
  await sockets[before]!.close();
  const stopped = page.getByTestId('team-stopped');
  await expect(stopped).toBeVisible({ timeout: 60_000 });
  await expect(stopped).toContainText('the team was stopped while this page was reconnecting');
  expect(sockets).toHaveLength(before + 2);
  expect(leasePid(d.ws, d.env), 'no host started again').toBeNull();
});
