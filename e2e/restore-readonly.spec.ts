import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startDashboard, type Dashboard } from './fixture.js';

let d: Dashboard;

test.beforeAll(async () => {
  d = await startDashboard(['alice', 'bob']);
});

test.afterAll(async () => {
  await d?.stop();
});

/** The rows the pane's terminal draws now (what the person sees), not its buffer. */
const shownRows = (page: import('@playwright/test').Page, agent: string) =>
  page.evaluate((a) => [...document.querySelectorAll(`.pane[data-agent="${a}"] .xterm-rows > div`)].map((r) => r.textContent ?? ''), agent);

test("a read-only pane opened after its agent drew and cleared its screen shows that screen, not blank rows", async ({ page }) => {
  // The agent (not started by this host: a read-only tail of its output.log) streams and ends by clearing its
  // screen and printing one line, all before any page is open: the host's screen was drawn at its own size.
  const sim = d.startSim('alice', '--stream', '200');
  const log = path.join(d.teamDir, 'agents', 'alice', 'output.log');
  await expect.poll(() => fs.existsSync(log) && fs.readFileSync(log, 'utf8').includes('[alice] stream done'), { timeout: 60_000 }).toBe(true);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(d.url);
  await expect(page.locator('.pane[data-agent="alice"] .xterm')).toBeVisible();
  // Its last screen is the cleared one with that line: it must be on screen (it was scrolled out of view, the
  // screen serialized at the host's 32 rows written into the pane's fewer rows).
  await expect.poll(async () => (await shownRows(page, 'alice')).some((r) => r.includes('[alice] stream done')), { timeout: 30_000 }).toBe(true);
  sim.kill();
});
