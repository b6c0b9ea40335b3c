import { expect, test, type Browser, type Page } from '@playwright/test';
import { fakeClockPage, startDashboard, type Dashboard } from './fixture.js';

// A pane started over — a screen from the host (a replay: the page reconnected, or it fell behind and was attached
// again), or the page shown again after it was hidden — must not get the output xterm was still parsing drawn on
// top of it. The page's clock is Playwright's fake clock, so xterm parses only as the test advances it.

type T = { output(a: string, s: string, r: boolean): void; pump(now: number): void; text(a: string): string; pending(): number };

let d: Dashboard;
test.beforeAll(async () => {
  d = await startDashboard(['alice']);
});
test.afterAll(async () => {
  await d?.stop();
});

/** A page on the team with alice's screen in and its clock paused; `run` goes in one task of the page, `T` as `t`. */
async function pausedPage(browser: Browser): Promise<Page> {
  const page = await fakeClockPage(browser, d.url, 'alice');
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100);
  return page;
}

/** Advances the page's clock half a second, 10 ms a step, then reads alice's pane. */
async function aliceAfterParse(page: Page): Promise<string> {
  for (let i = 0; i < 50; i++) await page.clock.runFor(10);
  return page.evaluate(() => (window as unknown as { __thclaws: { terminals: T } }).__thclaws.terminals.text('alice'));
}

test('a screen from the host replaces the output still being parsed: none of it is drawn over the new screen', async ({ browser }) => {
  const page = await pausedPage(browser);
  await page.evaluate(() => {
    const t = (window as unknown as { __thclaws: { terminals: T } }).__thclaws.terminals;
    let old = '';
    for (let i = 0; i < 200; i++) old += `old line ${i}\r\n`;
    t.output('alice', old, false);
    t.pump(performance.now()); // handed to xterm: its parse waits for the clock
    t.output('alice', 'the screen as the host has it\r\n', true);
  });
  const text = await aliceAfterParse(page);
  expect(text).toContain('the screen as the host has it');
  expect(text).not.toContain('old line');
  await page.close();
});

test('a page hidden while output is being parsed, shown again: the pane is rewritten from its history, each line once', async ({ browser }) => {
  const page = await pausedPage(browser);
  await page.evaluate(() => {
    const t = (window as unknown as { __thclaws: { terminals: T } }).__thclaws.terminals;
    let old = '';
    for (let i = 0; i < 200; i++) old += `line ${i} of alice\r\n`;
    t.output('alice', old, false);
    t.pump(performance.now());
    const hidden = (on: boolean) => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => on });
      document.dispatchEvent(new Event('visibilitychange'));
    };
    hidden(true);
    t.output('alice', 'written while hidden\r\n', false); // kept in the history: the pane is rewritten on return
    hidden(false);
  });
  const text = await aliceAfterParse(page);
  expect(text.match(/line 199 of alice/g)).toHaveLength(1);
  expect(text.match(/line 0 of alice/g)).toHaveLength(1);
  expect(text).toContain('written while hidden');
  await page.close();
});

test('a pane shown before the host\'s screen of it has come shows nothing until it comes, then the screen', async ({ browser }) => {
  const page = await browser.newPage();
  let release: () => void = () => {};
  const released = new Promise<void>((r) => (release = r));
  await page.routeWebSocket(/\/ws/, (route) => {
    const server = route.connectToServer();
    let chain = Promise.resolve();
    // The screens (and all after them, in order) wait until the test lets them through.
    server.onMessage((m) => {
      if (/"type":"replay"/.test(String(m))) chain = chain.then(() => released);
      chain = chain.then(() => route.send(m));
    });
  });
  await page.goto(d.url);
  await expect(page.locator('.pane[data-agent="lead"] .xterm')).toBeVisible();
  const text = () => page.evaluate(() => (window as unknown as { __thclaws: { terminals: T } }).__thclaws.terminals.text('lead'));
  // Whatever the pane was handed at mount is drawn by now.
  await expect.poll(() => page.evaluate(() => (window as unknown as { __thclaws: { terminals: T } }).__thclaws.terminals.pending())).toBe(0);
  expect((await text()).trim()).toBe('');
  release();
  await expect.poll(text).toContain('thclaws>');
  await page.close();
});
