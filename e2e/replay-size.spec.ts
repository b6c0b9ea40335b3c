import { expect, test, type Page } from '@playwright/test';
import { fakeClockPage, startDashboard, type Dashboard } from './fixture.js';

// A screen from the host (a replay) comes after the size it was drawn at (`pty_size`). While the pane is still
// parsing earlier output, sizes written for that output are still in xterm's write queue: the replayed screen
// must be drawn at the size sent with it, not at one of those older sizes. The page's clock is Playwright's fake
// clock, so xterm parses only as the test advances it.

let d: Dashboard;
let page: Page;

interface Terminals {
  output(agent: string, data: string, reset: boolean): void;
  ptySize(agent: string, cols: number, rows: number): void;
  pump(now: number): void;
  text(agent: string): string;
  shownSize(agent: string): { cols: number; rows: number } | null;
  saidPtySize(agent: string): { cols: number; rows: number } | null;
  size(agent: string): { cols?: number; rows?: number };
}
const terms = () => (window as unknown as { __thclaws: { terminals: Terminals } }).__thclaws.terminals;

test.beforeAll(async ({ browser }) => {
  d = await startDashboard(['alice']);
  page = await fakeClockPage(browser, d.url, 'alice');
  // The host's own size for the pty (this page's) is in and applied before the test sends sizes of its own.
  await expect.poll(() => page.evaluate(`(${terms})().saidPtySize('alice') !== null && JSON.stringify((${terms})().saidPtySize('alice')) === JSON.stringify((${terms})().size('alice'))`)).toBe(true);
  await expect.poll(async () => (await page.clock.runFor(100), page.evaluate(`(${terms})().shownSize('alice')`))).toEqual(await page.evaluate(`(${terms})().size('alice')`));
});

test.afterAll(async () => {
  await page?.close();
  await d?.stop();
});

test('a screen replayed while older output and sizes are still being parsed is drawn at the size sent with it', async () => {
  const before = (await page.evaluate(`(${terms})().shownSize('alice')`)) as { cols: number; rows: number };
  const narrow = { cols: before.cols - 11, rows: before.rows };
  const wide = { cols: before.cols + 9, rows: before.rows + 2 };
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100);
  await page.evaluate(({ narrow, wide }) => {
    const t = (window as unknown as { __thclaws: { terminals: Terminals } }).__thclaws.terminals;
    t.output('alice', 'old output\r\n'.repeat(300), false);
    t.pump(performance.now()); // handed to xterm: its parse waits for the clock
    // The person drags the window: the pty is narrowed (nothing queued: its size goes to xterm behind the
    // output it is parsing), more output comes, then the pty is widened (its size waits behind that output).
    t.ptySize('alice', narrow.cols, narrow.rows);
    t.output('alice', 'more old output\r\n'.repeat(20), false);
    t.ptySize('alice', wide.cols, wide.rows);
    // The host attaches the view again (it fell behind): the size, then its screen, drawn at that size.
    t.ptySize('alice', wide.cols, wide.rows);
    t.output('alice', `${'w'.repeat(wide.cols)}\r\nthe screen as the host has it\r\n`, true);
  }, { narrow, wide });
  for (let i = 0; i < 50; i++) await page.clock.runFor(10);
  expect(await page.evaluate(`(${terms})().shownSize('alice')`)).toEqual(wide);
  const text = (await page.evaluate(`(${terms})().text('alice')`)) as string;
  // A line as wide as the pty, on one row: not wrapped at an older, narrower size.
  expect(text.split('\n')).toContain('w'.repeat(wide.cols));
  expect(text).not.toContain('old output');
});
