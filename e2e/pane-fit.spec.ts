/**
 * A pane fits its own width (issue 32, item 2) and height. After the layout changes under it — Budgets opened and closed,
 * the window resized — the lead's pane shows its prompt once and does not scroll sideways. On a phone beside a
 * desktop in use, the phone says the pane is shown at the desktop's columns and offers to fit it to its screen.
 */
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { startDashboard, type Dashboard } from './fixture.js';

let d: Dashboard;
const SHOTS = '/tmp/shots/room32';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000); // a team and its host on a shared, loaded machine
  fs.mkdirSync(SHOTS, { recursive: true });
  d = await startDashboard(['alice', 'bob'], { teamEnabled: true });
});

test.afterAll(async () => {
  await d?.stop();
});

type Win = { __thclaws: { terminals: { text(a: string): string; shownSize(a: string): { cols: number; rows: number } | null; size(a: string): { cols?: number; rows?: number } } } };
const termText = (p: Page, name: string) => p.evaluate((n) => (window as unknown as Win).__thclaws.terminals.text(n), name);
const shown = (p: Page, name: string) => p.evaluate((n) => (window as unknown as Win).__thclaws.terminals.shownSize(n), name);
const own = (p: Page, name: string) => p.evaluate((n) => (window as unknown as Win).__thclaws.terminals.size(n), name);
const prompts = async (p: Page) => (await termText(p, 'lead')).split('\n').filter((l) => l.startsWith('thclaws>')).length;
const sideways = (p: Page) => p.locator('.pane[data-agent="lead"] .pane-term').evaluate((e) => e.scrollWidth - e.clientWidth);
/** How far the terminal overflows its box downwards: its last row cut, and the pane a scroller of its own. */
const downward = (p: Page) => p.locator('.pane[data-agent="lead"] .pane-term').evaluate((e) => e.scrollHeight - e.clientHeight);

test('after the layout changes under it, the lead pane shows its prompt once and fits its width and height', async ({ browser }) => {
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto(d.url);
  await expect.poll(() => termText(page, 'lead'), { timeout: 60_000 }).toContain('thclaws>');
  await page.locator('.pane[data-agent="lead"] .xterm').click();
  await expect.poll(() => shown(page, 'lead')).toEqual(await own(page, 'lead'));
  const before = await prompts(page);
  const budgets = page.getByRole('button', { name: 'Budgets and spend' });
  // The layout changes as a person changes it: a section opened and closed, the window dragged narrower and back.
  for (const [w, h] of [[1200, 900], [1000, 800], [1440, 900], [1100, 700], [1440, 900]] as const) {
    await budgets.click();
    await page.setViewportSize({ width: w, height: h });
    await budgets.click();
  }
  // Settled: the pty has this view's size again, and the view shows it at that size.
  await expect.poll(async () => JSON.stringify(await shown(page, 'lead')) === JSON.stringify(await own(page, 'lead')), { timeout: 20_000 }).toBe(true);
  await page.waitForTimeout(1500); // a late redraw would come in this time (not a timing assertion)
  await page.screenshot({ path: `${SHOTS}/pane-fit-1440.png` });
  expect(await prompts(page), await termText(page, 'lead')).toBe(before);
  expect(await sideways(page)).toBeLessThanOrEqual(0);
  expect(await downward(page)).toBeLessThanOrEqual(0);
  await page.context().close();
});

test('a phone beside a desktop in use says the pane is shown at the desktop columns; "fit to this screen" makes its size win', async ({ browser }) => {
  const desk = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await desk.goto(d.url);
  await desk.locator('.pane[data-agent="lead"] .xterm').click();
  await expect.poll(async () => JSON.stringify(await shown(desk, 'lead')) === JSON.stringify(await own(desk, 'lead'))).toBe(true);
  const deskCols = (await shown(desk, 'lead'))!.cols;
  const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })).newPage();
  await phone.goto(d.url);
  const lead = phone.locator('.pane[data-agent="lead"]');
  await expect(lead.locator('.xterm')).toBeVisible();
  // Not the desktop's width cut at the edge without a word: the pane says why, and offers the fix.
  await expect(lead.getByTestId('pane-sized')).toHaveText(`shown at ${deskCols} columns (sized by another window) — fit to this screen`);
  await phone.screenshot({ path: `${SHOTS}/pane-sized-390.png` });
  await lead.getByRole('button', { name: 'fit to this screen' }).tap();
  const phoneOwn = await own(phone, 'lead');
  expect(phoneOwn.cols).toBeLessThan(deskCols);
  await expect.poll(() => shown(phone, 'lead')).toEqual(phoneOwn);
  await expect(lead.getByTestId('pane-sized')).toHaveCount(0);
  expect(await sideways(phone)).toBeLessThanOrEqual(0);
  // Now the desktop is the one shown at another window's size, and says so.
  await expect(desk.locator('.pane[data-agent="lead"]').getByTestId('pane-sized')).toContainText(`shown at ${phoneOwn.cols} columns`);
  await phone.context().close();
  await desk.context().close();
});
