import { expect, test } from '@playwright/test';
import { startDashboard, type Dashboard } from './fixture.js';

let d: Dashboard;

test.beforeAll(async () => {
  d = await startDashboard(['alice', 'bob']);
});

test.afterAll(async () => {
  await d?.stop();
});

type Sent = { type?: string; agent?: string; cols?: number; rows?: number };

test('a page load sizes each pty once: the header keeps its one line when the counts arrive, so no pane loses a row after load', async ({ browser }) => {
  const page = await browser.newPage();
  const resizes: Sent[] = [];
  const sizes: Sent[] = [];
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => {
      const m = JSON.parse(String(f.payload)) as Sent;
      if (m.type === 'resize') resizes.push(m);
    });
    ws.on('framereceived', (f) => {
      // A message holds one event or several, one per line.
      for (const line of String(f.payload).split('\n')) {
        const m = JSON.parse(line) as Sent;
        if (m.type === 'pty_size') sizes.push(m);
      }
    });
  });
  // A slow page, as on a loaded machine: the panes are measured before the team's status fills the header.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 });
  await page.goto(d.url);
  for (const n of ['alice', 'bob']) {
    await expect(page.locator(`.pane[data-agent="${n}"] .xterm`)).toBeVisible();
    // The pty took the view's size, and the view showed it (its scrollbars gone).
    await expect.poll(() => sizes.some((s) => s.agent === n && s.cols !== 120)).toBe(true);
  }
  await page.waitForTimeout(1500); // a late report would come in this time (not a timing assertion)
  // The cause it once had: header items squeezed until they wrapped inside themselves, once the counts arrived.
  await expect(page.locator('.counts')).toContainText('idle');
  const tall = await page.evaluate(() => [...document.querySelectorAll('.topbar > *, .header-extra > *')].filter((e) => e.getBoundingClientRect().height > 30).map((e) => e.className));
  expect(tall, 'header items taller than one line').toEqual([]);
  expect((await page.locator('.topbar').boundingBox())!.height).toBeLessThan(45);
  for (const n of ['alice', 'bob']) {
    const sent = resizes.filter((r) => r.agent === n).map((r) => `${r.cols}x${r.rows}`);
    expect(sent.length).toBeGreaterThan(0);
    expect(new Set(sent), `${n} reported ${sent.join(', ')}`).toEqual(new Set([sent[0]]));
  }
  await page.close();
});
