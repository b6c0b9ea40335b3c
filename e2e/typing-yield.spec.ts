import { expect, test, type Page } from '@playwright/test';
import { startDashboard, type Dashboard } from './fixture.js';

// The renderer's pump, wired to the person's typing: while they type into one pane, the others yield (one small
// write per turn) and catch up afterwards. The page's clock is Playwright's fake clock, so animation frames,
// xterm's parse timers and the pump's own timers run only as the test advances time: nothing here depends on how
// fast this machine is.

let d: Dashboard;
let page: Page;

test.beforeAll(async ({ browser }) => {
  d = await startDashboard(['alice']);
  page = await browser.newPage();
  await page.clock.install();
  await page.goto(d.url);
  await expect(page.locator('.pane[data-agent="alice"] .xterm')).toBeVisible();
  await expect(page.locator('.pane[data-agent="lead"] .xterm')).toBeVisible();
});

test.afterAll(async () => {
  await page?.close();
  await d?.stop();
});

interface Terminals {
  output(agent: string, data: string, reset: boolean): void;
  written(agent: string): number;
}
const written = (agent: string) => page.evaluate((a) => (window as unknown as { __thclaws: { terminals: Terminals } }).__thclaws.terminals.written(a), agent);
/** Output for alice's pane as if the host had sent it (her acknowledgements are clamped by the host's flow gate). */
const flood = (chars: number) =>
  page.evaluate((n) => {
    const line = `${'y'.repeat(1022)}\r\n`;
    (window as unknown as { __thclaws: { terminals: Terminals } }).__thclaws.terminals.output('alice', line.repeat(Math.ceil(n / line.length)).slice(0, n), false);
  }, chars);

test('while the person types into one pane, a flood in another gets one small write per turn; it catches up after', async () => {
  const total = 512 * 1024;
  // Not typing: the flood goes through the frame budget (256 K to start), far more than a yielding pane's 32 K.
  let base = await written('alice');
  await flood(total);
  await page.clock.runFor(200);
  await expect.poll(() => written('alice')).toBeGreaterThan(base + 64 * 1024);
  await page.clock.runFor(3000);
  await expect.poll(() => written('alice')).toBe(base + total);

  // Typing into the lead's pane: the same flood now gets at most 32 K per 100 ms of the page's clock.
  await page.locator('.pane[data-agent="lead"] .xterm').click();
  await page.keyboard.press('x');
  base = await written('alice');
  await flood(total);
  await page.clock.runFor(150); // ten frames: two turns of the others at most
  const during = (await written('alice')) - base;
  expect(during).toBeGreaterThan(0); // it still moves
  expect(during).toBeLessThanOrEqual(2 * 32 * 1024);
  // Two seconds after the last key the others catch up, nothing lost.
  await page.clock.runFor(5000);
  await expect.poll(() => written('alice')).toBe(base + total);
});
