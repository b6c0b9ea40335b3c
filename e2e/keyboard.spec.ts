/**
 * The keyboard (issue 32, item 11), in real Chromium at 1440×900 and 390×844: focus reaching a terminal is said
 * (its accessible name carries the agent and how to leave) and shown (a ring and a hint); F6 stops at the header,
 * the approvals, the team bar, the budgets and each pane; Alt+C and Alt+G open Changes and Merge and Help lists
 * them; Tab never goes back up a row.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startDashboard, type Dashboard } from './fixture.js';

let d: Dashboard;
const SHOTS = '/tmp/shots/room32';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000); // a team and its host on a shared, loaded machine
  d = await startDashboard(['alice', 'bob']);
});

test.afterAll(async () => {
  await d?.stop();
});

/** Where focus is: the pane (agent) whose terminal has it, else the region or control's label. */
const focusAt = (p: Page) =>
  p.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    if (!a) return 'none';
    const pane = a.closest<HTMLElement>('.pane');
    if (pane && a.closest('.xterm')) return `terminal:${pane.dataset.agent}`;
    return a.getAttribute('aria-label') ?? a.tagName.toLowerCase();
  });

async function open(browser: Browser, phone: boolean): Promise<Page> {
  const ctx = phone ? await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true }) : await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const p = await ctx.newPage();
  await p.goto(d.url);
  await expect(p.locator('.pane[data-agent="lead"] .xterm')).toBeVisible({ timeout: 60_000 });
  return p;
}

/**
 * Tab from `start` until focus reaches a terminal (which keeps Tab for the agent) or `max` stops: each stop's
 * region (its [data-region] ancestor) and tops. A stop in the same region is never above the one before; a new
 * region never starts above the region before it (the panes of a grid row share a top).
 */
async function tabWalk(p: Page, max = 40, least = 5): Promise<string[]> {
  const stops: { label: string; region: string; regionTop: number; top: number }[] = [];
  for (let i = 0; i < max; i++) {
    await p.keyboard.press('Tab');
    const s = await p.evaluate(() => {
      const a = document.activeElement as HTMLElement;
      const region = a.closest<HTMLElement>('[data-region]');
      return {
        label: (a.getAttribute('aria-label') ?? a.textContent ?? a.tagName).trim().slice(0, 30),
        region: region?.getAttribute('aria-label') ?? 'page',
        regionTop: Math.round(region?.getBoundingClientRect().top ?? 0),
        top: Math.round(a.getBoundingClientRect().top + window.scrollY),
        terminal: !!a.closest('.xterm'),
        out: a === document.body, // past the page's last control (a view without terminals)
      };
    });
    if (s.terminal || (s.out && stops.length > 0)) break;
    if (s.out) continue; // not yet on the page's first control
    stops.push(s);
  }
  const back: string[] = [];
  stops.slice(1).forEach((cur, i) => {
    const prev = stops[i]!;
    if (cur.region === prev.region ? cur.top < prev.top - 12 : cur.regionTop < prev.regionTop - 12) back.push(`"${cur.label}" (${cur.region}) after "${prev.label}" (${prev.region})`);
  });
  expect(stops.length).toBeGreaterThan(least);
  return back;
}

test('1440×900: a focused terminal says whose it is and how to leave, with a ring; F6 visits every region', async ({ browser }) => {
  const p = await open(browser, false);
  await p.locator('.pane[data-agent="lead"] .xterm').click();
  expect(await focusAt(p)).toBe('terminal:lead');
  // Said: the focused element's accessible name; shown: the hint and a 3 px ring over the terminal.
  await expect(p.locator(':focus')).toHaveAccessibleName('lead terminal — keys go to the agent; F6 to leave');
  await expect(p.locator('.pane[data-agent="lead"]').getByTestId('pane-keys')).toHaveText('lead terminal — keys go to the agent; F6 to leave');
  const ring = await p.locator('.pane[data-agent="lead"] .pane-term-box').evaluate((e) => getComputedStyle(e, '::after').borderTopWidth);
  expect(ring).toBe('3px');
  await p.screenshot({ path: `${SHOTS}/keyboard-1440.png` });
  // F6 from the lead's terminal: each teammate's terminal, then the header, the approvals, the team bar, the budgets.
  const seen: string[] = [];
  for (let i = 0; i < 7; i++) {
    await p.keyboard.press('F6');
    seen.push(await focusAt(p));
  }
  expect(seen).toEqual(['terminal:alice', 'terminal:bob', 'team header', 'approvals', 'team', 'budgets', 'terminal:lead']);
  // Leaving a terminal takes its hint away.
  await p.keyboard.press('F6');
  await expect(p.locator('.pane[data-agent="lead"]').getByTestId('pane-keys')).toHaveCount(0);
  // Changes and Merge by key, listed in Help.
  await p.locator('.team-name').click();
  await p.keyboard.press('Alt+c');
  await expect(p).toHaveURL(/#review\/all$/);
  await p.keyboard.press('Alt+g');
  await expect(p).toHaveURL(/#merge$/);
  await p.goto(d.url);
  await expect(p.locator('.pane[data-agent="lead"] .xterm')).toBeVisible();
  await p.locator('.team-name').click();
  await p.keyboard.press('?');
  await expect(p.getByRole('dialog', { name: 'keyboard shortcuts' }).locator('kbd', { hasText: 'Alt+C / Alt+G' })).toBeVisible();
  await p.keyboard.press('Escape');
  // Tab from the top of the page to the first terminal never goes back up a row.
  await p.locator('body').focus();
  expect(await tabWalk(p)).toEqual([]);
  const r = await new AxeBuilder({ page: p }).analyze();
  expect(r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await p.context().close();
});

test('390×844: the hint fits the phone pane; Tab from the top never goes back up a row', async ({ browser }) => {
  const p = await open(browser, true);
  await p.locator('.pane[data-agent="lead"] .xterm').tap();
  await expect(p.locator(':focus')).toHaveAccessibleName('lead terminal — keys go to the agent; F6 to leave');
  const hint = (await p.locator('.pane[data-agent="lead"]').getByTestId('pane-keys').boundingBox())!;
  expect(hint.x + hint.width).toBeLessThanOrEqual(390);
  await p.screenshot({ path: `${SHOTS}/keyboard-390.png` });
  await p.locator('.team-name').tap();
  await p.locator('body').focus();
  expect(await tabWalk(p)).toEqual([]);
  const r = await new AxeBuilder({ page: p }).analyze();
  expect(r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await p.context().close();
});

test('Changes and Merge (1440×900 and 390×844): Tab from the top never goes back up a row', async ({ browser }) => {
  for (const phone of [false, true]) {
    const p = await open(browser, phone);
    for (const [hash, region] of [['#review/all', 'changes'], ['#merge', 'merge panel']] as const) {
      await p.evaluate((h) => (location.hash = h), hash);
      await expect(p.locator(`[data-region][aria-label="${region}"]`)).toBeVisible();
      await p.locator('.team-name').click();
      await p.locator('body').focus();
      expect(await tabWalk(p, 40, 8), `${hash} at ${phone ? 390 : 1440}`).toEqual([]);
    }
    await p.context().close();
  }
});
