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
/** The host's `host_closed`, kept from the page on its first connection. */
let held = false;

test.beforeAll(async ({ browser }) => {
  d = await startDashboard(['alice']);
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.routeWebSocket(/\/ws/, (route) => {
    sockets.push(route);
    const first = sockets.length === 1;
    const server = route.connectToServer();
    server.onMessage((m) => {
      if (first && String(m).includes('"type":"host_closed"')) held = true;
      else route.send(m);
    });
  });
  await page.goto(d.url);
  await expect(page.locator('.pane[data-agent="lead"] .xterm')).toBeVisible();
});

test.afterAll(async () => {
  await page?.close();
  await d?.stop();
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
  await page.getByRole('button', { name: 'Stop the team' }).click();
  await page.getByRole('dialog', { name: 'Stop the team' }).getByRole('button', { name: 'Stop the team' }).click();
  // The host stopped and said so; the page has not heard it.
  await expect.poll(() => held, { timeout: 60_000 }).toBe(true);
  await expect.poll(() => fs.existsSync(socket), { timeout: 30_000 }).toBe(false);
  await sockets[0]!.close();
  const stopped = page.getByTestId('team-stopped');
  await expect(stopped).toBeVisible({ timeout: 30_000 });
  await expect(stopped).toContainText('The team is stopped');
  await expect(stopped).toContainText('the team was stopped while this page was reconnecting');
  expect(sockets).toHaveLength(2);
  expect(fs.existsSync(socket), 'no host started again').toBe(false);
  await shotsAtBothSizes(page, path.join(ROOT, 'test-results', 'screens'), 'stop-team-drop');
});
