import { expect, test } from '@playwright/test';
import { screensIn, startDashboard } from './fixture.js';

// A screen from the host (a replay: the page reconnected, or it fell behind and was attached again) starts the
// pane over. Output handed to xterm before it and not parsed yet belongs to the screen it replaces: it must not
// be drawn on top of the new one. The page's clock is Playwright's fake clock, so xterm parses only as the test
// advances it.

type T = { output(a: string, s: string, r: boolean): void; pump(now: number): void; text(a: string): string };

test('a screen from the host replaces the output still being parsed: none of it is drawn over the new screen', async ({ browser }) => {
  const d = await startDashboard(['alice']);
  const page = await browser.newPage();
  try {
    await page.clock.install();
    await page.goto(d.url);
    await expect(page.locator('.pane[data-agent="alice"] .xterm')).toBeVisible();
    await screensIn(page, 'alice');
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100);
    await page.evaluate(() => {
      const t = (window as unknown as { __thclaws: { terminals: T } }).__thclaws.terminals;
      let old = '';
      for (let i = 0; i < 200; i++) old += `old line ${i}\r\n`;
      t.output('alice', old, false);
      t.pump(performance.now()); // handed to xterm: its parse waits for the clock
      t.output('alice', 'the screen as the host has it\r\n', true);
    });
    for (let i = 0; i < 50; i++) await page.clock.runFor(10);
    const text = await page.evaluate(() => (window as unknown as { __thclaws: { terminals: T } }).__thclaws.terminals.text('alice'));
    expect(text).toContain('the screen as the host has it');
    expect(text).not.toContain('old line');
  } finally {
    await page.close();
    await d.stop();
  }
});

test('a page hidden while output is being parsed, shown again: the pane is rewritten from its history, each line once', async ({ browser }) => {
  const d = await startDashboard(['alice']);
  const page = await browser.newPage();
  try {
    await page.clock.install();
    await page.goto(d.url);
    await expect(page.locator('.pane[data-agent="alice"] .xterm')).toBeVisible();
    await screensIn(page, 'alice');
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100);
    await page.evaluate(() => {
      const t = (window as unknown as { __thclaws: { terminals: T } }).__thclaws.terminals;
      let old = '';
      for (let i = 0; i < 200; i++) old += `line ${i} of alice\r\n`;
      t.output('alice', old, false);
      t.pump(performance.now()); // handed to xterm: its parse waits for the clock
      const hidden = (on: boolean) => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => on });
        document.dispatchEvent(new Event('visibilitychange'));
      };
      hidden(true);
      t.output('alice', 'written while hidden\r\n', false); // kept in the history: the pane is rewritten on return
      hidden(false);
    });
    for (let i = 0; i < 50; i++) await page.clock.runFor(10);
    const text = await page.evaluate(() => (window as unknown as { __thclaws: { terminals: T } }).__thclaws.terminals.text('alice'));
    expect(text.match(/line 199 of alice/g)).toHaveLength(1);
    expect(text.match(/line 0 of alice/g)).toHaveLength(1);
    expect(text).toContain('written while hidden');
  } finally {
    await page.close();
    await d.stop();
  }
});
