/**
 * "Stop the team" when the page's connection drops before it heard the host close (a phone asleep, a network
 * change), in Chromium with real processes: the page reconnects, as it does after any drop, and must not start
 * the host the person just stopped — it shows the team stopped, and no host runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page, type WebSocketRoute } from '@playwright/test';
import { hostPaths } from '../src/main/daemon/runtime-dir.js';
import { ROOT, waitFor } from '../test/desktop/helpers.js';
import { TermView } from '../test/desktop/term-view.js';
import { shotsAtBothSizes, startDashboard, type Dashboard } from './fixture.js';

let d: Dashboard;
let page: Page;
const sockets: WebSocketRoute[] = [];
/** The host's `host_closed` is kept from the page on this connection (an index of `sockets`). */
let holdOn = -1;
let held = false;
/** The page's `host_stop` is answered here with a refusal, as a host that cannot stop would. */
let refuseStop = false;
/** The last roster each connection carried (by index of `sockets`), and the page's last `host_stop` id. */
const rosters = new Map<number, string>();
let stopId = -1;

test.beforeAll(async ({ browser }) => {
  d = await startDashboard(['alice']);
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.routeWebSocket(/\/ws/, (route) => {
    const index = sockets.push(route) - 1;
    const server = route.connectToServer();
    server.onMessage((m) => {
      for (const line of String(m).split('\n')) if (line.startsWith('{"type":"roster"')) rosters.set(index, line);
      if (index === holdOn && String(m).includes('"type":"host_closed"')) held = true;
      else route.send(m);
    });
    route.onMessage((m) => {
      const req = JSON.parse(String(m)) as { id?: number; type?: string };
      if (req.type === 'host_stop') stopId = req.id!;
      if (refuseStop && req.type === 'host_stop') route.send(JSON.stringify({ type: 'reply', id: req.id, ok: false, error: 'this host cannot stop now (refused by the test)' }));
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

test('"Stop the team" refused: the page says why, and a later drop reconnects as any other (the team is not taken for stopped)', async () => {
  refuseStop = true;
  await page.getByRole('button', { name: 'Stop the team' }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop the team' });
  await dialog.getByRole('button', { name: 'Stop the team' }).click();
  await expect(page.locator('.notice-text', { hasText: /this host cannot stop now \(refused by the test\)/i })).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  refuseStop = false;
  await sockets[0]!.close();
  await expect.poll(() => sockets.length).toBe(2);
  expect(new URL(sockets[1]!.url()).searchParams.has('nostart'), 'a plain reconnect, not a stopping page\'s').toBe(false);
  // Back on the running team: the lead's pane takes keys again and nothing says the team stopped.
  await expect(page.locator('.pane[data-agent="lead"] .xterm')).toBeVisible();
  await expect(page.getByTestId('team-stopped')).toHaveCount(0);
});

test('the page\'s connection drops after "Stop the team" and before the host closed: it shows the team stopped and starts no host', async () => {
  const socket = hostPaths(d.ws, d.env).socket;
  // A page that asked to stop and whose request was lost reconnects to the host still running: the team is there.
  const still = await TermView.overWebSocket(d.url, '&nostart=1');
  try {
    await still.request({ type: 'subscribe' });
    await waitFor(() => still.events.some((e) => e.type === 'roster' && e.members.some((m) => m.name === 'lead')), 'the running team over a nostart view');
  } finally {
    still.close();
  }
  holdOn = sockets.length - 1;
  stopId = -1;
  await page.getByRole('button', { name: 'Stop the team' }).click();
  await page.getByRole('dialog', { name: 'Stop the team' }).getByRole('button', { name: 'Stop the team' }).click();
  // While it stops, the host may send a roster on this connection (its config changed), and another request of
  // the page may fail: neither is a sign the stop was lost or refused.
  await expect.poll(() => stopId).toBeGreaterThan(0);
  sockets[holdOn]!.send(rosters.get(holdOn)!);
  sockets[holdOn]!.send(JSON.stringify({ type: 'reply', id: stopId + 1, ok: false, error: 'another request failed (sent by the test)' }));
  // The host stopped and said so; the page has not heard it.
  await expect.poll(() => held, { timeout: 60_000 }).toBe(true);
  await expect.poll(() => fs.existsSync(socket), { timeout: 30_000 }).toBe(false);
  await sockets[holdOn]!.close();
  const stopped = page.getByTestId('team-stopped');
  await expect(stopped).toBeVisible({ timeout: 30_000 });
  await expect(stopped).toContainText('The team is stopped');
  await expect(stopped).toContainText('the team was stopped while this page was reconnecting');
  expect(sockets).toHaveLength(holdOn + 2);
  expect(fs.existsSync(socket), 'no host started again').toBe(false);
  await shotsAtBothSizes(page, path.join(ROOT, 'test-results', 'screens'), 'stop-team-drop');
});
