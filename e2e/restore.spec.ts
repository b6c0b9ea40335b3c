import fs from 'node:fs';
import path from 'node:path';
import headlessPkg from '@xterm/headless';
import { expect, test, type Page } from '@playwright/test';
import { bufferText } from '../src/main/host/screen-mirror.js';
import { startDashboard, type Dashboard } from './fixture.js';

const { Terminal } = headlessPkg;

let d: Dashboard;
let page: Page;

test.beforeAll(async ({ browser }) => {
  d = await startDashboard(['alice', 'bob']);
  page = await browser.newPage();
  await page.goto(d.url);
});

test.afterAll(async () => {
  await page?.close();
  await d?.stop();
});

type Win = { __thclaws: { terminals: { text(a: string): string; shownSize(a: string): { cols: number; rows: number } | null } } };
const termText = (name: string) => page.evaluate((n) => (window as unknown as Win).__thclaws.terminals.text(n), name);
const shownSize = (name: string) => page.evaluate((n) => (window as unknown as Win).__thclaws.terminals.shownSize(n), name);

/** What a terminal that saw every byte of the agent's output.log shows, at the pane's size. */
async function reference(name: string, size: { cols: number; rows: number }): Promise<string> {
  const log = fs.readFileSync(path.join(d.teamDir, 'agents', name, 'output.log'), 'utf8');
  const t = new Terminal({ ...size, scrollback: 1000, allowProposedApi: true });
  await new Promise<void>((r) => t.write(log, r));
  const text = bufferText(t);
  t.dispose();
  return text;
}

/** '' when equal, else the first differing line of each. */
function firstDifference(shown: string, want: string): string {
  const a = shown.split('\n');
  const b = want.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return `line ${i}: shown ${JSON.stringify(a[i])}, want ${JSON.stringify(b[i])}`;
  return '';
}

test('reloading the page mid-stream brings every pane back whole: the screen a terminal that saw every byte shows', async () => {
  await expect(page.locator('.pane[data-agent="alice"] .xterm')).toBeVisible();
  await expect(page.locator('.pane[data-agent="bob"] .xterm')).toBeVisible();
  for (const n of ['alice', 'bob']) d.startSim(n, '--stream', '600');
  // Mid-stream: some frames shown, more to come.
  await expect.poll(() => termText('alice'), { timeout: 20_000 }).toContain('alice step 60');
  expect(await termText('bob')).not.toContain('bob stream done');
  await page.reload();
  for (const n of ['alice', 'bob']) {
    await expect.poll(() => termText(n), { timeout: 30_000 }).toContain(`[${n}] stream done`);
    const size = await shownSize(n);
    expect(size).not.toBeNull();
    // The pane's whole buffer (scrollback and screen) equals the reference, line for line.
    // On a mismatch the message names the first line that differs (a CI failure once said only "false").
    await expect.poll(async () => firstDifference(await termText(n), await reference(n, size!)), { timeout: 10_000 }).toBe('');
  }
});
