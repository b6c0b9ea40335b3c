// `npm run screenshots`: regenerates the README's pictures from the live demo, on purpose (tests never write
// into docs/). Starts `thclaws dashboard --demo`, and in Debian Chromium at 1440×900 and 390×844 takes: the
// team at work with backend's request and frontend's plan waiting (approvals), then after the clicks the
// team's changes, opened from the "team finished" banner (changes), the merge panel after the person lands them
// (merge), the team (team) and the finished board (board). Writes docs/screenshots/<name>.png and <name>-phone.png.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const outDir = path.join(root, 'docs', 'screenshots');
const NAMES = ['approvals', 'changes', 'merge', 'team', 'board'];
const SIZES = [
  { suffix: '', viewport: { width: 1440, height: 900 } },
  { suffix: '-phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
];

const demo = spawn(process.execPath, [path.join(root, 'bin', 'thclaws'), 'dashboard', '--demo', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  let out = '';
  const timer = setTimeout(() => reject(new Error(`the demo printed no URL: ${out}`)), 60_000);
  demo.stdout.on('data', (d) => {
    out += d.toString();
    const m = /http:\/\/\S+token=\S+/.exec(out);
    if (m) {
      clearTimeout(timer);
      resolve(m[0]);
    }
  });
  demo.once('exit', (code) => reject(new Error(`the demo exited with ${code}`)));
});

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const pages = [];
  for (const s of SIZES) {
    const ctx = await browser.newContext({ viewport: s.viewport, isMobile: !!s.isMobile, hasTouch: !!s.hasTouch });
    const page = await ctx.newPage();
    await page.goto(url);
    pages.push({ page, suffix: s.suffix });
  }
  const [desk] = pages;
  // Both sizes look at the same ptys: before its picture each page takes them back ("fit to this screen"), as a
  // person would, so no pane shows the other window's width with its notice.
  const fit = async (page) => {
    for (const b of await page.getByRole('button', { name: 'fit to this screen' }).all()) await b.click().catch(() => {});
    await page.getByTestId('pane-sized').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => {});
    // Back as the page was: no terminal focused (its hint), scrolled to the top (the clicks scrolled to the buttons).
    await page.evaluate(() => {
      document.activeElement?.blur?.();
      for (const el of [document.scrollingElement, ...document.querySelectorAll('main, .approvals')]) el?.scrollTo(0, 0);
    });
    await page.waitForTimeout(300); // the panes' repaint at this size
  };
  const shot = async (name) => {
    for (const { page, suffix } of pages) {
      await fit(page);
      await page.screenshot({ path: path.join(outDir, `${name}${suffix}.png`) });
    }
  };
  const plan = desk.page.locator('.approval[data-kind="plan"]');
  const bash = desk.page.locator('.approval[data-kind="permission"]');
  await plan.waitFor({ timeout: 90_000 });
  await bash.waitFor({ timeout: 90_000 });
  await desk.page.waitForTimeout(1500); // let the panes' last lines land
  await shot('approvals');
  await plan.getByRole('button', { name: 'Approve', exact: true }).click();
  await bash.getByRole('button', { name: 'Approve', exact: true }).click();
  const lead = () => desk.page.evaluate(() => window.__thclaws.terminals.text('lead'));
  for (const end = Date.now() + 120_000; !(await lead()).includes('Both branches merge cleanly.'); ) {
    if (Date.now() > end) throw new Error('the demo team did not finish');
    await desk.page.waitForTimeout(250);
  }
  // A banner says the team finished; the person opens the changes from it (under the header and its tabs).
  for (const { page } of pages) {
    await page.getByTestId('team-finished').getByRole('button', { name: 'review the changes →' }).click({ timeout: 30_000 });
    await page.locator('[data-testid="changes-view"] .review-file').first().waitFor({ timeout: 30_000 });
  }
  await desk.page.waitForTimeout(1000); // the diffs' highlighting
  await shot('changes');
  // The person lands the work from the merge panel (on the desktop); the phone shows the panel after.
  await desk.page.getByRole('button', { name: 'Merge…' }).click();
  const panel = desk.page.getByTestId('merge-panel');
  await panel.getByRole('button', { name: 'Dry run' }).click();
  await panel.getByTestId('dry-run').waitFor();
  await panel.getByRole('button', { name: /^Merge \d/ }).click();
  await panel.getByTestId('merge-result').waitFor({ timeout: 120_000 });
  const phone = pages[1].page;
  await phone.getByRole('button', { name: 'Merge…' }).click();
  await phone.getByTestId('merge-panel').locator('tr[data-agent]').first().waitFor();
  await desk.page.waitForTimeout(500);
  await shot('merge');
  for (const { page } of pages) await page.getByTestId('merge-panel').getByRole('button', { name: 'close' }).click();
  await desk.page.waitForTimeout(1000);
  await shot('team');
  for (const { page } of pages) {
    const tab = page.getByRole('button', { name: 'Tasks' });
    if (await tab.isVisible()) await tab.click();
  }
  await desk.page.waitForTimeout(500);
  await shot('board');
  console.log(`wrote ${NAMES.flatMap((n) => SIZES.map((s) => `${n}${s.suffix}.png`)).join(', ')} to docs/screenshots/`);
} finally {
  await browser.close();
  const exited = new Promise((r) => demo.once('exit', r));
  demo.kill('SIGINT');
  await exited;
}
