/**
 * A terminal's pane to its edges. Painted in the terminal's own background: the padding around the rows (on xterm's
 * element, where the fit addon subtracts it) shows no frame of another colour, read from real pixels of the page (a
 * one-pixel screenshot each), beside the pictures of panes with scrollback at both sizes. And its last rows within
 * reach when the notice "shown at N columns" lies over the bottom of the pane.
 */
import zlib from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { screensIn, shotsAtBothSizes, startDashboard, type Dashboard } from './fixture.js';

let d: Dashboard;
const SHOTS = '/tmp/shots/break11';

test.beforeAll(async () => {
  d = await startDashboard(['alice']);
});

test.afterAll(async () => {
  await d?.stop();
});

/** The colour of the page's pixel at (x, y): a 1×1 PNG, whatever its row filter, holds it raw after the filter byte. */
async function pixel(page: Page, x: number, y: number): Promise<string> {
  const png = await page.screenshot({ clip: { x, y, width: 1, height: 1 } });
  const data: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const len = png.readUInt32BE(at);
    if (png.toString('ascii', at + 4, at + 8) === 'IDAT') data.push(png.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(data));
  return `rgb(${raw[1]}, ${raw[2]}, ${raw[3]})`;
}

test('a pane with scrollback is painted in the terminal background to its edges, around the rows and the scrollbar', async ({ browser }) => {
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto(d.url);
  await expect(page.locator('.pane[data-agent="alice"] .xterm')).toBeVisible();
  await screensIn(page, 'alice');
  await page.evaluate(() => {
    let s = '';
    for (let i = 0; i < 300; i++) s += `line ${i} ${'abcdefghij'.repeat(12)}|END\r\n`;
    (window as unknown as { __thclaws: { terminals: { output(a: string, s: string, r: boolean): void } } }).__thclaws.terminals.output('alice', `${s}LAST ROW`, false);
  });
  await expect.poll(() => page.evaluate(() => (window as unknown as { __thclaws: { terminals: { text(a: string): string } } }).__thclaws.terminals.text('alice'))).toContain('LAST ROW');
  const term = page.locator('.pane[data-agent="alice"] .xterm');
  const box = (await term.boundingBox())!;
  const screen = (await term.locator('.xterm-screen').boundingBox())!;
  const bg = await pixel(page, Math.floor(screen.x + screen.width / 2), Math.floor(screen.y + screen.height - 3)); // the prompt's empty row
  expect(bg).toBe('rgb(15, 17, 21)'); // the theme's background (#0f1115)
  // Left, top and bottom of the rows, and right of the scrollbar: the padding.
  const edges = {
    left: await pixel(page, Math.floor(box.x + 1), Math.floor(box.y + box.height / 2)),
    top: await pixel(page, Math.floor(box.x + box.width / 2), Math.floor(box.y)),
    bottom: await pixel(page, Math.floor(box.x + box.width / 2), Math.floor(box.y + box.height) - 1),
    right: await pixel(page, Math.ceil(box.x + box.width - 2), Math.floor(box.y + box.height / 2)),
  };
  expect(edges).toEqual({ left: bg, top: bg, bottom: bg, right: bg });
  await shotsAtBothSizes(page, SHOTS, 'pane-edge');
  // On a phone the panes stack in the scrolling main area: alice's, scrolled to.
  await page.setViewportSize({ width: 390, height: 844 });
  await term.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/pane-edge-alice-390x844.png` });
  await page.context().close();
});

test('a pane shown at another window\'s size, scrolled to its end, shows its last rows above the notice that says so', async ({ browser }) => {
  // A desktop in use sizes the lead's pty; the phone shows the pane at that size, larger than its box.
  const desk = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await desk.goto(d.url);
  await desk.locator('.pane[data-agent="lead"] .xterm').click();
  const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })).newPage();
  await phone.goto(d.url);
  const lead = phone.locator('.pane[data-agent="lead"]');
  await expect(lead.getByTestId('pane-sized')).toBeVisible();
  await screensIn(phone, 'lead');
  await phone.evaluate(() => {
    let s = '';
    for (let i = 0; i < 300; i++) s += `\r\nline ${i}`;
    (window as unknown as { __thclaws: { terminals: { output(a: string, s: string, r: boolean): void } } }).__thclaws.terminals.output('lead', `${s}\r\nLAST ROW`, false);
  });
  const lastRow = lead.locator('.xterm-rows > div', { hasText: 'LAST ROW' });
  await expect(lastRow).toHaveCount(1);
  // As a person would: the pane scrolled to its end, then looked at.
  const box = lead.locator('.pane-term');
  await box.evaluate((e) => {
    e.scrollTop = e.scrollHeight;
  });
  await box.scrollIntoViewIfNeeded();
  await phone.screenshot({ path: `${SHOTS}/pane-sized-end-390x844.png` });
  const row = (await lastRow.boundingBox())!;
  const notice = (await lead.getByTestId('pane-sized').boundingBox())!;
  expect(row.y + row.height).toBeLessThanOrEqual(notice.y);
  await phone.context().close();
  await desk.context().close();
});
