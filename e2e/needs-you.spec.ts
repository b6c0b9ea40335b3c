/**
 * The "needs you" queue (issue 32, item 3) in real Chromium through `thclaws dashboard`: a real teammate's
 * permission request, an agent in `error`, a merge whose check failed, a conflict between two worktrees and a
 * budget reached are listed newest first with the header's count, each action opens its place, and each item
 * leaves when its cause does. Desktop notifications: asked on a click only, shown only while the page is not
 * focused, opening their item on a click, and an off switch that survives a reload.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { THCLAWS } from '../test/desktop/helpers.js';
import { startDashboard, type Dashboard } from './fixture.js';

const SHOTS = process.env.THCLAWS_SHOTS_DIR ?? path.join('test-results', 'screenshots');
const CALC = 'function total(items) {\n  let sum = 0;\n  for (const i of items) sum += i.price;\n  return sum;\n}\n';
const SCRIPT = {
  rules: [{ match: 'Task #1 —', turns: [{ text: 'work', tool_calls: [{ name: 'Bash', input: { command: 'touch asked.txt' } }, { name: 'TeamTaskComplete', input: { task_id: '1', summary: 'done' } }] }, { text: 'end' }] }],
  fallback: [{ text: 'ok' }],
};

/** Records every Notification the page makes and every permission question (the real API underneath). */
const SPY = `(() => {
  const Real = window.Notification;
  if (!Real) return;
  window.__made = [];
  window.__asked = 0;
  class Spy extends Real {
    constructor(title, opts) { super(title, opts); window.__made.push({ title, body: (opts && opts.body) || '', n: this }); }
    static requestPermission(...a) { window.__asked++; return Real.requestPermission(...a); }
  }
  Object.defineProperty(Spy, 'permission', { get: () => Real.permission });
  window.Notification = Spy;
})();`;

let d: Dashboard;
const procs: ChildProcess[] = [];
const git = (cwd: string, ...a: string[]) => execFileSync('git', ['-c', 'user.email=e2e@thclaws.local', '-c', 'user.name=e2e', ...a], { cwd, encoding: 'utf8' });

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  d = await startDashboard(['alice', 'bob', 'carol', 'dave'], { teamEnabled: true, teammatePermissionMode: 'ask', checks: ['echo CHECKING; exit 3'] });
  fs.writeFileSync(path.join(d.ws, 'calc.js'), CALC);
  fs.appendFileSync(path.join(d.ws, '.git', 'info', 'exclude'), '.worktrees/\n.thclaws/\n.home/\nasked.txt\n');
  git(d.ws, 'add', 'calc.js');
  git(d.ws, 'commit', '-qm', 'calc');
  for (const n of ['bob', 'carol']) git(d.ws, 'worktree', 'add', '-q', '-b', `team/${n}`, path.join('.worktrees', n));
  fs.writeFileSync(path.join(d.ws, '.worktrees', 'bob', 'tax.js'), 'export const rate = 0.25;\n');
  git(path.join(d.ws, '.worktrees', 'bob'), 'add', '-A');
  git(path.join(d.ws, '.worktrees', 'bob'), 'commit', '-qm', 'bob: tax rate');
  procs.push(d.startSim('carol'), d.startSim('dave'));
});

test.afterAll(async () => {
  for (const c of procs) c.kill('SIGKILL');
  await d?.stop();
});

/** What a live teammate reports (its heartbeat writes it): an error, a budget reached, or neither again. */
async function status(name: 'carol' | 'dave', patch: Record<string, unknown>): Promise<void> {
  d.sims.get(name)!.stdin!.write(`status ${JSON.stringify(patch)}\n`);
}

function startAlice(): void {
  const home = path.join(d.ws, '.home');
  const script = path.join(home, 'script.json');
  fs.writeFileSync(script, JSON.stringify(SCRIPT));
  procs.push(spawn(THCLAWS, ['--team-agent', 'alice', '--script', script], { cwd: d.ws, env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), THCLAWS_TEAM_DIR: d.teamDir }, stdio: 'ignore' }));
}

const count = (page: Page) => page.getByTestId('needs-you-count');
const list = (page: Page) => page.getByTestId('needs-you');
const kinds = (page: Page) => list(page).locator('li.need').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-kind')}:${e.getAttribute('data-agent') ?? ''}`));

async function openList(page: Page): Promise<void> {
  if ((await count(page).getAttribute('aria-expanded')) !== 'true') await count(page).click();
  await expect(list(page)).toBeVisible();
}

async function act(page: Page, kind: string): Promise<void> {
  await openList(page);
  await list(page).locator(`li.need[data-kind="${kind}"] .need-actions button`).first().click();
  await expect(list(page)).toHaveCount(0); // the list closes on an action
}

/** Screenshots with the list open at both sizes, and axe's serious or critical findings there. */
async function shotsAndAxe(page: Page, name: string): Promise<string[]> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const found: string[] = [];
  for (const [w, h] of [[1440, 900], [390, 844]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await openList(page);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${w}x${h}.png`) });
    const r = await new AxeBuilder({ page }).analyze();
    found.push(...r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${w}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`));
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  return found;
}

test('approvals, an agent in error, a failed merge check, a conflict and a budget: newest first, each with its action, gone with its cause', async ({ browser }) => {
  test.setTimeout(150_000);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(d.url);
  await expect(page.locator('.pane[data-agent="lead"]')).toBeVisible();
  await expect(count(page)).toHaveText('needs you: 0');

  // 1. carol's model calls fail.
  await status('carol', { status: 'error', error: 'API key refused (401)' });
  await expect(count(page)).toHaveText('needs you: 1');
  // 2. alice asks to run a command.
  startAlice();
  d.cli('team', 'task', 'add', '--subject', 'touch a file', '--owner', 'alice');
  await expect(count(page)).toHaveText('needs you: 2', { timeout: 40_000 });
  // 3. A merge of bob's branch fails its check.
  await page.evaluate(() => (location.hash = '#merge'));
  const panel = page.locator('[data-testid="merge-panel"]');
  await expect(panel.getByLabel('merge bob')).toBeChecked();
  await panel.locator('.merge-run').click();
  await expect(panel.locator('[data-testid="merge-result"]')).toContainText('check failed');
  await panel.getByRole('button', { name: 'close' }).click();
  await expect(count(page)).toHaveText('needs you: 3');
  await openList(page);
  expect(await kinds(page)).toEqual(['merge:', 'approval:alice', 'error:carol']);
  await expect(list(page).locator('li.need[data-kind="merge"]')).toContainText('"echo CHECKING; exit 3" exited 3');
  await expect(list(page).locator('li.need[data-kind="approval"]')).toContainText('touch asked.txt');
  await expect(list(page).locator('li.need[data-kind="error"]')).toContainText('API key refused (401)');
  // 4. bob and carol change the same line; 5. dave reaches his budget.
  fs.writeFileSync(path.join(d.ws, '.worktrees', 'carol', 'calc.js'), CALC.replace('  return sum;', '  return Math.round(sum);'));
  fs.writeFileSync(path.join(d.ws, '.worktrees', 'bob', 'calc.js'), CALC.replace('  return sum;', '  return sum.toFixed(2);'));
  await expect(count(page)).toHaveText('needs you: 4', { timeout: 30_000 });
  await status('dave', { budget_reached: "budget reached — dave's budget: 60 tokens of 55 tokens (109 %)" });
  await expect(count(page)).toHaveText('needs you: 5');
  await openList(page);
  expect(await kinds(page)).toEqual(['budget:dave', 'conflict:bob', 'merge:', 'approval:alice', 'error:carol']);
  expect(await shotsAndAxe(page, 'needs-you')).toEqual([]);
  // Escape closes the list, and so does a click elsewhere.
  await page.keyboard.press('Escape');
  await expect(list(page)).toHaveCount(0);
  await openList(page);
  await page.locator('.team-name').click();
  await expect(list(page)).toHaveCount(0);

  // Each action opens the place the item is dealt with — at the desktop size and on the phone.
  for (const [w, h] of [[1440, 900], [390, 844]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await openList(page);
    const box = (await list(page).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(w);
    await act(page, 'merge');
    await expect(panel).toBeVisible();
    await panel.getByRole('button', { name: 'close' }).click();
    await act(page, 'conflict');
    await expect(page.locator('[data-testid="changes-view"][data-agent="bob"]')).toBeVisible();
    await page.locator('[data-testid="changes-view"]').getByRole('button', { name: 'close' }).click();
    await act(page, 'error');
    await expect(page.getByLabel('checks before landing')).toBeVisible(); // Settings, where a key is fixed
    await page.getByRole('button', { name: 'Close' }).click();
    await act(page, 'budget');
    await expect(page.getByRole('form', { name: 'budget of dave' })).toBeVisible();
    await page.getByRole('form', { name: 'budget of dave' }).getByRole('button', { name: 'Cancel' }).click();
    await act(page, 'approval');
    await expect(page.locator('.approval.selected .approve')).toBeFocused();
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // Each leaves when its cause goes away.
  await page.locator('.approval.selected .approve').click();
  await expect(count(page)).toHaveText('needs you: 4', { timeout: 30_000 });
  await status('carol', { status: 'idle', error: null });
  await status('dave', { budget_reached: null });
  fs.writeFileSync(path.join(d.ws, '.worktrees', 'bob', 'calc.js'), CALC);
  await expect(count(page)).toHaveText('needs you: 1', { timeout: 30_000 });
  await page.evaluate(() => (location.hash = '#merge'));
  await panel.getByText('run checks').click(); // unticked: this run lands without them
  await panel.locator('.merge-run').click();
  await expect(panel.locator('[data-testid="merge-result"]')).toContainText('landed on');
  await expect(count(page)).toHaveText('needs you: 0');
  await context.close();
});

test('notifications: asked on a click only; shown while the page is not focused, not while it is; a click opens the item; off is remembered', async ({ browser }) => {
  test.setTimeout(90_000);
  const origin = new URL(d.url).origin;
  // Never asked at load: the browser's question comes from the person's click on "Turn on".
  const asking = await browser.newContext();
  await asking.addInitScript(SPY);
  const first = await asking.newPage();
  await first.goto(d.url);
  await expect(first.locator('.pane[data-agent="lead"]')).toBeVisible();
  await openList(first);
  expect(await first.evaluate(() => (window as unknown as { __asked: number }).__asked)).toBe(0);
  await list(first).getByRole('button', { name: 'Turn on' }).click();
  await expect.poll(() => first.evaluate(() => (window as unknown as { __asked: number }).__asked)).toBe(1);
  await asking.close();

  const context: BrowserContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.grantPermissions(['notifications'], { origin });
  await context.addInitScript(SPY);
  const page = await context.newPage();
  await page.goto(d.url);
  await expect(page.locator('.pane[data-agent="lead"]')).toBeVisible();
  // Playwright makes every page think it has focus; without that emulation a page behind another has none.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: false });
  await page.bringToFront();
  await expect.poll(() => page.evaluate(() => document.hasFocus())).toBe(true);
  const made = () => page.evaluate(() => (window as unknown as { __made: Array<{ title: string; body: string }> }).__made.map((n) => `${n.title} | ${n.body}`));
  await expect(count(page)).toHaveText('needs you: 0');
  // The person types in the lead's pane: a new item never takes their keys away, looking here or elsewhere.
  await page.locator('.pane[data-agent="lead"] .xterm').click();
  const typingIn = () => page.evaluate(() => (document.activeElement?.closest('.xterm') ? document.activeElement.closest<HTMLElement>('.pane')?.dataset.agent : document.activeElement?.className) ?? null);
  expect(await typingIn()).toBe('lead');
  // Focused: the item is listed, no notification.
  await status('dave', { budget_reached: "budget reached — dave's budget: 70 tokens of 55 tokens (127 %)" });
  await expect(count(page)).toHaveText('needs you: 1');
  expect(await made()).toEqual([]);
  expect(await typingIn()).toBe('lead');
  // Looking elsewhere: a notification, and the pane the person typed in keeps its focus until they click it.
  const other = await context.newPage();
  await other.bringToFront();
  await expect.poll(() => page.evaluate(() => document.hasFocus())).toBe(false);
  await status('carol', { status: 'error', error: 'the model server answered 500 three times' });
  await expect.poll(made).toEqual(['carol is in error | the model server answered 500 three times']);
  expect(await typingIn()).toBe('lead');
  await page.evaluate(() => (window as unknown as { __made: Array<{ n: Notification }> }).__made[0]!.n.dispatchEvent(new Event('click')));
  await expect(page.locator('.pane[data-agent="carol"]')).toHaveClass(/focused/);
  await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.pane')?.getAttribute('data-agent') ?? null)).toBe('carol');
  // Off, remembered across a reload: a new item while the page is not focused makes none.
  await page.bringToFront();
  await openList(page);
  await list(page).getByRole('button', { name: 'Turn off' }).click();
  await page.reload();
  await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: false }); // a reload resets it
  await openList(page);
  await expect(list(page).getByRole('button', { name: 'Turn on' })).toBeVisible();
  await other.bringToFront();
  await expect.poll(() => page.evaluate(() => document.hasFocus())).toBe(false);
  await status('carol', { status: 'error', error: 'another failure' });
  await expect(count(page)).toHaveText('needs you: 2');
  expect(await made()).toEqual([]);
  // On again: the switch reads on; the next new item while looking elsewhere is told, once.
  await page.bringToFront();
  await openList(page);
  await list(page).getByRole('button', { name: 'Turn on' }).click();
  await expect(list(page).getByRole('button', { name: 'Turn off' })).toBeVisible();
  await other.bringToFront();
  await expect.poll(() => page.evaluate(() => document.hasFocus())).toBe(false);
  await status('carol', { status: 'error', error: 'a third failure' });
  await expect.poll(made).toEqual(['carol is in error | a third failure']);
  await status('dave', { budget_reached: null });
  await expect(count(page)).toHaveText('needs you: 1');
  expect(await made()).toEqual(['carol is in error | a third failure']);
  await status('carol', { status: 'idle', error: null });
  await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true });
  await context.close();
});
