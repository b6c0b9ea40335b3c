/**
 * The live demo, as a person meets it: `npm run demo -- --dashboard` (a real process) starts the dashboard
 * first; in real Chromium the lead takes the demo prompt in its pane, creates the team, and the teammates
 * appear in theirs. backend's permission request and frontend's plan wait as cards until they are clicked
 * (nothing else blocks: no folder-trust prompt). Then the work completes, the lead's dry run is clean, a banner
 * says the team finished (the page is not taken away), the person opens the changes under the header and lands
 * them from the merge panel (checks first). The header's counts
 * add up to the panes shown at every moment. Ctrl-C stops it and removes its workspace.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { dashboardReady, ROOT } from '../test/desktop/helpers.js';

let demo: ChildProcess;
let page: Page;
let ws = '';
let out = '';
let url = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  // A private HOME and config: the demo must not need (or see) anything of this machine's user.
  const home = fs.mkdtempSync(path.join(ROOT, 'test-results', 'live-demo-home-'));
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
  for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];
  demo = spawn(process.execPath, [path.join(ROOT, 'scripts', 'demo.mjs'), '--dashboard', '--port', '0'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  const ready = await dashboardReady(demo, { what: 'the demo' });
  url = ready.url;
  out = ready.out();
  ws = /thclaws dashboard for (\S+)/.exec(out)![1]!;
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage(); // a context of its own: axe-core needs one
  await page.goto(url);
});

test.afterAll(async () => {
  await page?.context().close();
  if (demo && demo.exitCode === null) {
    // Ctrl-C first, so the dashboard stops its agents and removes the demo workspace; SIGKILL only if it hangs.
    const exited = new Promise((r) => demo.once('exit', r));
    process.kill(-demo.pid!, 'SIGINT');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (demo.exitCode === null) process.kill(-demo.pid!, 'SIGKILL');
  }
});

const termText = (name: string) => page.evaluate((n) => (window as unknown as { __thclaws: { terminals: { text(a: string): string } } }).__thclaws.terminals.text(n), name);

/** Serious and critical axe-core violations of the page as it is, at 1440×900 and at 390×844. */
async function serious(what: string): Promise<string[]> {
  const scan = async (size: string) => (await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${what} ${size}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  const found = await scan('1440');
  await page.setViewportSize({ width: 390, height: 844 });
  found.push(...(await scan('390')));
  await page.setViewportSize({ width: 1440, height: 900 });
  return found;
}

/** Whether the header's team name and Team tab are on top (not covered by a view) at 1440×900 and at 390×844. */
async function headerOnTop(): Promise<Record<number, boolean>> {
  const seen: Record<number, boolean> = {};
  for (const [w, h] of [[1440, 900], [390, 844]] as const) {
    await page.setViewportSize({ width: w, height: h });
    seen[w] = await page.evaluate(() =>
      ['.team-name', '.tabs button'].every((sel) => {
        const el = document.querySelector(sel)!;
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return r.width > 0 && hit !== null && el.contains(hit);
      }),
    );
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  return seen;
}

/** The header's counts, summed, against the panes on screen. */
async function countsAddUp(): Promise<{ counted: number; panes: number; text: string }> {
  return page.evaluate(() => {
    const text = document.querySelector('[data-testid="counts"]')?.textContent ?? '';
    const counted = [...text.matchAll(/(\d+) [a-z ]+/g)].reduce((n, m) => n + Number(m[1]), 0);
    return { counted, panes: document.querySelectorAll('.pane[data-agent]').length, text };
  });
}

test('the dashboard starts first, the lead builds the team in its pane, the cards wait for clicks, the changes open and the merge panel lands them', async () => {
  test.setTimeout(180_000);
  // Honest from the first second: every pane is counted.
  await expect(page.locator('.pane[data-agent="lead"]')).toBeVisible();
  const first = await countsAddUp();
  expect(first.counted, first.text).toBe(first.panes);
  // The lead takes the demo prompt in its own pane (typed as a person would) and creates the team.
  await expect.poll(() => termText('lead'), { timeout: 60_000 }).toContain('Build a tiny web app with a team');
  await expect(page.locator('.team-name')).toHaveText('demo', { timeout: 60_000 });
  for (const name of ['backend', 'frontend', 'qa']) await expect(page.locator(`.pane[data-agent="${name}"]`)).toBeVisible({ timeout: 60_000 });
  const early = await countsAddUp();
  expect(early.counted, early.text).toBe(early.panes);
  // No folder-trust question anywhere: the demo trusts its own throw-away workspace.
  for (const name of ['lead', 'backend', 'frontend', 'qa']) expect(await termText(name)).not.toMatch(/not a trusted folder|Trust this folder/);
  // The tool name is printed once per call.
  await expect.poll(() => termText('lead'), { timeout: 30_000 }).toContain('● TeamCreate {');
  expect(await termText('lead')).not.toContain('TeamCreate TeamCreate');

  // Two cards wait for the person: frontend's plan and backend's Bash. Nothing proceeds without the click.
  const plan = page.locator('.approval[data-kind="plan"]', { hasText: 'Plan: the UI' });
  const bash = page.locator('.approval[data-kind="permission"]', { hasText: 'api/server.js' });
  await expect(plan).toBeVisible({ timeout: 60_000 });
  await expect(bash).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('approvals-badge')).toHaveText('approvals: 2');
  await expect(page.locator('.pane[data-agent="backend"] .badge')).toHaveText('waiting for you');
  expect(fs.existsSync(path.join(ws, '.worktrees', 'backend', 'api', 'server.js'))).toBe(false);
  const mid = await countsAddUp();
  expect(mid.counted, mid.text).toBe(mid.panes);
  await page.screenshot({ path: path.join(ROOT, 'test-results', 'screenshots', 'live-demo-cards.png') });

  await plan.getByRole('button', { name: 'Approve', exact: true }).click();
  await bash.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page.getByTestId('approvals-badge')).toHaveText('approvals: 0');

  // They finish; qa reviews; the lead dry-runs the merge and hands the landing to the person.
  await page.getByRole('button', { name: 'Tasks' }).click();
  await expect(page.locator('.board-col[data-column="completed"] .task')).toHaveCount(3, { timeout: 90_000 });
  await expect(page.locator('.task[data-task="1"] .task-result')).toContainText('api/server.js');
  await expect(page.locator('.task[data-task="1"] .task-desc')).toContainText('/health handler');
  await expect.poll(() => termText('lead'), { timeout: 60_000 }).toContain('Both branches merge cleanly.');

  // The page hands over instead of taking over: a banner says the team finished, and the board the person was
  // watching stays until they click.
  const finished = page.getByTestId('team-finished');
  await expect(finished).toContainText('The team finished — review the changes →');
  await expect(page.locator('.board-col[data-column="completed"] .task')).toHaveCount(3);
  await expect(page.getByTestId('changes-view')).toHaveCount(0);
  await page.screenshot({ path: path.join(ROOT, 'test-results', 'screenshots', 'live-demo-finished.png') });
  await finished.getByRole('button', { name: 'review the changes →' }).click();
  await expect(finished).toHaveCount(0);
  // Each teammate's branch with the file it wrote, under the header and its tabs (a view of the page).
  const changes = page.getByTestId('changes-view');
  await expect(changes).toHaveAttribute('data-agent', 'all');
  expect(await headerOnTop()).toEqual({ 1440: true, 390: true });
  await expect(changes.locator('.review-agent[data-agent="backend"] .review-file[data-path="api/server.js"]')).toBeVisible({ timeout: 30_000 });
  await expect(changes.locator('.review-agent[data-agent="frontend"] .review-file[data-path="ui/index.html"]')).toBeVisible();
  await expect(changes.locator('.review-agent[data-agent="backend"]')).toContainText('team/backend: 1 ahead');
  // Nothing landed yet: main has neither file until the person merges.
  expect(execFileSync('git', ['ls-tree', '-r', '--name-only', 'main'], { cwd: ws, encoding: 'utf8' })).not.toContain('api/server.js');
  await page.screenshot({ path: path.join(ROOT, 'test-results', 'screenshots', 'live-demo-changes.png') });
  const found = await serious('changes');

  // The merge panel: both branches selected, the dry run clean, then the merge with the checks streamed.
  await changes.getByRole('button', { name: 'Merge…' }).click();
  const panel = page.getByTestId('merge-panel');
  await expect(panel.locator('tr[data-agent="backend"]')).toContainText('#1 Build the API');
  await expect(panel.locator('tr[data-agent="frontend"]')).toContainText('#2 Build the UI');
  await panel.getByRole('button', { name: 'Dry run' }).click();
  await expect(panel.locator('[data-testid="dry-run"] [data-agent="backend"]')).toHaveAttribute('data-result', 'clean');
  await expect(panel.locator('[data-testid="dry-run"] [data-agent="frontend"]')).toHaveAttribute('data-result', 'clean');
  expect(await headerOnTop()).toEqual({ 1440: true, 390: true });
  await panel.getByRole('button', { name: 'Merge 2' }).click();
  await expect(panel.getByTestId('merge-result')).toContainText('landed on main', { timeout: 60_000 });
  await expect(panel.getByTestId('merge-result')).toContainText('backend');
  await expect(panel.getByTestId('merge-result')).toContainText('frontend');
  await expect(panel.getByTestId('checks-output')).toContainText('check: the UI calls the API it gets');
  const tree = execFileSync('git', ['ls-tree', '-r', '--name-only', 'main'], { cwd: ws, encoding: 'utf8' });
  expect(tree).toContain('api/server.js');
  expect(tree).toContain('ui/index.html');
  // After landing, nothing of either branch is left to merge: each row says it landed (not "0 / n").
  await expect(panel.locator('tr[data-agent="backend"] td').nth(2)).toHaveText(/^landed on main · [0-9a-f]{7}$/);
  await expect(panel.locator('tr[data-agent="frontend"] td').nth(2)).toHaveText(/^landed on main · [0-9a-f]{7}$/);
  await expect(panel.getByLabel('merge backend')).not.toBeChecked();
  await expect(panel.getByLabel('merge frontend')).not.toBeChecked();
  await expect(panel.locator('.merge-run')).toBeDisabled();
  await page.screenshot({ path: path.join(ROOT, 'test-results', 'screenshots', 'live-demo-merged.png') });
  found.push(...(await serious('merge')));
  expect(found).toEqual([]);
  // A phone opened now gets the banner too (the team is done, nothing reviewed there); its × puts it away.
  const phone = await page.context().browser()!.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  try {
    const p = await phone.newPage();
    await p.goto(url);
    const banner = p.getByTestId('team-finished');
    await expect(banner).toContainText('The team finished — review the changes →');
    expect(await banner.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(390);
    await banner.getByRole('button', { name: 'close this banner' }).tap();
    await expect(banner).toHaveCount(0);
    await expect(p.getByTestId('changes-view')).toHaveCount(0);
  } finally {
    await phone.close();
  }
  await panel.getByRole('button', { name: 'close' }).click();
  await page.getByRole('button', { name: 'Team', exact: true }).click();
  await expect(page.locator('.pane[data-agent="qa"]')).toBeVisible();
  const end = await countsAddUp();
  expect(end.counted, end.text).toBe(end.panes);
  // Settings names the demo's provider: it needs no key.
  await page.getByRole('button', { name: 'settings' }).click();
  await expect(page.getByRole('dialog', { name: 'settings' }).getByTestId('provider')).toHaveText(/^Scripted/);
});

test('Ctrl-C stops the demo and removes its workspace', async () => {
  const exited = new Promise<number | null>((r) => demo.once('exit', (code) => r(code)));
  process.kill(-demo.pid!, 'SIGINT'); // the terminal's Ctrl-C reaches the whole process group
  expect(await exited).toBe(0);
  expect(fs.existsSync(ws)).toBe(false);
  expect(fs.existsSync(`${ws}-config`)).toBe(false);
});
