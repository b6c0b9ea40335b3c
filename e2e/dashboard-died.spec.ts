/**
 * A dashboard that died, in Chromium with real processes: `thclaws dashboard` (no --port, as a person runs it)
 * serves a team whose lead runs on the scripted provider. The dashboard process is SIGKILLed: within 5-8 s the
 * open page says the server stopped and what to run, and its controls are disabled. `thclaws dashboard` run
 * again for the same workspace prints the same URL, and the same tab reconnects by itself: the notice goes,
 * the controls work, and typing into the lead's pane gets its answer. Then the dashboard is SIGSTOPped (its
 * socket stays open, so no close event comes): the page says so all the same, and comes back on SIGCONT.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ROOT } from '../test/desktop/helpers.js';
import { startDashboard, type Dashboard } from './fixture.js';

const SHOTS = path.join(ROOT, 'test-results', 'screens');
let d: Dashboard;
let page: Page;

// The second test goes on from the dashboard the first one started again.
test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  // No --port: the port and token are the ones kept for this workspace (none yet: a free port, then kept).
  d = await startDashboard(['alice'], {}, {}, []);
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(d.url);
});

test.afterAll(async () => {
  await page?.close();
  await d?.stop();
});

const pane = (name: string) => page.locator(`.pane[data-agent="${name}"]`);
const termText = (name: string) => page.evaluate((n) => (window as unknown as { __thclaws: { terminals: { text(a: string): string } } }).__thclaws.terminals.text(n), name);
const answers = async () => (await termText('lead')).split('scripted provider').length - 1;

test('killed, the page says so and turns its controls off; started again, the same URL and the same tab works', async () => {
  test.setTimeout(120_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  const notice = page.getByTestId('server-lost');
  const tasksTab = page.getByRole('button', { name: 'Tasks' });
  const leadInput = pane('lead').locator('textarea');
  await expect(pane('lead')).toBeVisible();
  await expect.poll(() => termText('lead'), { timeout: 30_000 }).toContain('>');
  await expect(tasksTab).toBeEnabled();
  const before = d.url;

  const killed = Date.now();
  d.proc.kill('SIGKILL');
  // At once the page only says it is reconnecting: a short drop is not an alarm.
  await expect(page.locator('.conn.down')).toBeVisible();
  await expect(notice).toHaveCount(0);
  await expect(notice).toBeVisible({ timeout: 8_000 });
  const after = Date.now() - killed;
  expect(after).toBeGreaterThanOrEqual(4_500);
  expect(after).toBeLessThanOrEqual(8_000);
  await expect(notice).toContainText('The dashboard server stopped');
  await expect(notice).toContainText(`thclaws dashboard --dir ${fs.realpathSync(d.ws)}`);
  await expect(notice).toContainText('this page reconnects by itself');
  await expect(tasksTab).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Stop the team' })).toBeDisabled();
  await expect(leadInput).toBeDisabled();
  await page.screenshot({ path: path.join(SHOTS, 'dashboard-died-1440.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(notice).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.screenshot({ path: path.join(SHOTS, 'dashboard-died-390.png') });
  await page.setViewportSize({ width: 1440, height: 900 });

  // Started again for the same workspace: the same URL, and this tab (never reloaded) comes back by itself.
  await d.restart();
  expect(d.url).toBe(before);
  await expect(notice).toBeHidden({ timeout: 15_000 });
  await expect(page.locator('.conn.up')).toBeVisible();
  await expect(tasksTab).toBeEnabled();
  await expect(leadInput).toBeEnabled();
  await pane('lead').locator('.xterm').click();
  await page.keyboard.type('hello');
  await page.keyboard.press('Enter');
  await expect.poll(() => termText('lead'), { timeout: 30_000 }).toContain('scripted provider');
  await tasksTab.click();
  await expect(page.getByRole('button', { name: 'New task' })).toBeEnabled();
});

test('stopped (SIGSTOP) with its socket open, the page says so all the same; continued, the same tab works', async () => {
  test.setTimeout(90_000);
  const notice = page.getByTestId('server-lost');
  const tasksTab = page.getByRole('button', { name: 'Tasks' });
  await page.getByRole('button', { name: 'Team', exact: true }).click();
  const before = await answers();
  d.proc.kill('SIGSTOP');
  try {
    await expect(notice).toBeVisible({ timeout: 12_000 });
    await expect(notice).toContainText('The dashboard server stopped');
    await expect(tasksTab).toBeDisabled();
    await expect(pane('lead').locator('textarea')).toBeDisabled();
  } finally {
    d.proc.kill('SIGCONT');
  }
  await expect(notice).toBeHidden({ timeout: 15_000 });
  await expect(tasksTab).toBeEnabled();
  await pane('lead').locator('.xterm').click();
  await page.keyboard.type('hello again');
  await page.keyboard.press('Enter');
  await expect.poll(answers, { timeout: 30_000 }).toBeGreaterThan(before);
});
