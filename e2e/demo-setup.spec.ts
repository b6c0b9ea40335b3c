/**
 * The live demo's first seconds, in real Chromium through `thclaws dashboard --demo` (a real process): while
 * its lead builds the team the page says "the lead is setting up the team…" and never offers "Create a team"
 * (the person would race the lead); every pane names what runs, the scripted provider, not a Claude model it
 * only stands in for. At 1440×900, then at 390×844.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dashboardReady, ROOT } from '../test/desktop/helpers.js';

let demo: ChildProcess;
let page: Page;
let url = '';

test.beforeAll(async ({ browser }) => {
  const home = fs.mkdtempSync(path.join(ROOT, 'test-results', 'demo-setup-home-'));
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(home, 'rt-')) };
  for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  // From the page's first render on, what the team bar ever said (a MutationObserver: no polling gaps).
  await page.addInitScript(() => {
    const w = window as unknown as { __said: Set<string> };
    w.__said = new Set();
    new MutationObserver(() => {
      const bar = document.querySelector('.team-manager');
      if (bar) w.__said.add(bar.textContent ?? '');
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  demo = spawn(process.execPath, [path.join(ROOT, 'bin', 'thclaws'), 'dashboard', '--demo', '--port', '0'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  url = (await dashboardReady(demo, { what: 'the demo' })).url;
  await page.goto(url);
});

test.afterAll(async () => {
  await page?.context().close();
  if (demo?.exitCode === null) {
    const exited = new Promise((r) => demo.once('exit', r));
    process.kill(-demo.pid!, 'SIGINT');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (demo.exitCode === null) process.kill(-demo.pid!, 'SIGKILL');
  }
});

test('while the demo lead builds the team the page says so (no "Create a team"); every pane names the scripted provider', async () => {
  await expect(page.locator('.team-name')).toHaveText('demo', { timeout: 60_000 });
  const said = await page.evaluate(() => [...(window as unknown as { __said: Set<string> }).__said]);
  expect(said).toContain('the lead is setting up the team…');
  expect(said.filter((t) => t.includes('Create a team'))).toEqual([]);
  for (const name of ['lead', 'backend', 'frontend', 'qa']) await expect(page.locator(`.pane[data-agent="${name}"] .pane-model`)).toHaveText('scripted (demo)', { timeout: 60_000 });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.locator('.pane[data-agent="lead"] .pane-model')).toHaveText('scripted (demo)');
  await expect(page.locator('.pane[data-agent="lead"] .pane-model')).toBeInViewport();
  await page.screenshot({ path: path.join(ROOT, 'test-results', 'screenshots', 'demo-scripted-390.png') });
});

test("a phone opened while the requests wait shows the first card from its head (who asks, for what), not scrolled past it", async ({ browser }) => {
  const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })).newPage();
  try {
    await phone.goto(url);
    // backend's Bash card is taller than the capped strip: opened, the strip must not scroll to its end.
    const first = phone.locator('.approval').first();
    await expect(first.locator('.approval-agent')).toHaveText('backend', { timeout: 90_000 });
    await expect(phone.locator('.approval')).toHaveCount(2, { timeout: 60_000 });
    // Seen, not only laid out in view: the strip's sticky title once covered the head.
    const head = first.locator('.approval-agent');
    await expect(head).toBeInViewport({ ratio: 1 });
    expect(await head.evaluate((el) => { const r = el.getBoundingClientRect(); return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); })).toBe(true);
    await phone.screenshot({ path: path.join(ROOT, 'test-results', 'screenshots', 'demo-strip-390.png') });
  } finally {
    await phone.context().close();
  }
});
