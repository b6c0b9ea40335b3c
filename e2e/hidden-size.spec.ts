import { expect, test, type Page } from '@playwright/test';
import { fakeClockPage, startDashboard, type Dashboard } from './fixture.js';

// A pty size that arrives while output is still queued is applied once that output is parsed. When the page is
// hidden its queues are dropped (acknowledged, kept in the history only): the pending size must not be dropped
// with them, or the pane comes back drawn at the old size. The page's clock is Playwright's fake clock, so
// nothing is parsed until the test advances it.

let d: Dashboard;
let page: Page;

test.beforeAll(async ({ browser }) => {
  d = await startDashboard(['alice']);
  page = await fakeClockPage(browser, d.url, 'alice');
});

test.afterAll(async () => {
  await page?.close();
  await d?.stop();
});

interface Terminals {
  output(agent: string, data: string, reset: boolean): void;
  ptySize(agent: string, cols: number, rows: number): void;
  shownSize(agent: string): { cols: number; rows: number } | null;
  saidPtySize(agent: string): { cols: number; rows: number } | null;
  size(agent: string): { cols?: number; rows?: number };
  text(agent: string): string;
}

const shown = () => page.evaluate(() => (window as unknown as { __thclaws: { terminals: Terminals } }).__thclaws.terminals.shownSize('alice'));

test('a pty size pending behind queued output when the page is hidden is applied when it is shown again', async () => {
  // The host gives the pty this page's size (its only view) and says so. Its answer must be in before the test
  // sets a size of its own: one that came after would rightly win (on a loaded machine it once did: the pane
  // ended at the page's 93×47 where the test had set 127×29).
  await expect.poll(() => page.evaluate(() => {
    const t = (window as unknown as { __thclaws: { terminals: Terminals } }).__thclaws.terminals;
    const said = t.saidPtySize('alice');
    return said !== null && JSON.stringify(said) === JSON.stringify(t.size('alice'));
  })).toBe(true);
  const own = await page.evaluate(() => (window as unknown as { __thclaws: { terminals: Terminals } }).__thclaws.terminals.size('alice'));
  // Applied once the writes before it are parsed (xterm's timers: the page's fake clock).
  await expect.poll(async () => (await page.clock.runFor(100), shown())).toEqual(own);
  // A size changes the terminal's size only: alice, sent nothing yet, still shows nothing.
  expect((await page.evaluate(() => (window as unknown as { __thclaws: { terminals: Terminals } }).__thclaws.terminals.text('alice'))).trim()).toBe('');
  const before = (await shown())!;
  const want = { cols: before.cols + 7, rows: Math.max(5, before.rows - 3) };
  // In one task, so no frame parses anything in between: output queued, then a size behind it, then the page hides.
  await page.evaluate((size) => {
    const t = (window as unknown as { __thclaws: { terminals: Terminals } }).__thclaws.terminals;
    t.output('alice', `${'z'.repeat(200)}\r\n`.repeat(300), false);
    t.ptySize('alice', size.cols, size.rows);
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    document.dispatchEvent(new Event('visibilitychange'));
  }, want);
  await page.clock.runFor(1000);
  await page.evaluate(() => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await page.clock.runFor(2000);
  await expect.poll(shown).toEqual(want);
});
