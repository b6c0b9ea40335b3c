/**
 * Budgets and models from the dashboard, in real Chromium against `thclaws dashboard` (a real process) and
 * teammate processes that account their model calls in their status: the budget card shows spend and limits
 * (an unknown price as `$?`), a budget set in the card lands in budgets.json, crossing 80 % raises a notice,
 * each call shows in the spend chart; the member form offers the person's provider-profile models; a role's
 * budget is set from the card; a real `thclaws --team-agent` (scripted provider) parked at `budget reached`
 * resumes its task when the person raises its budget in the card; the chart survives a restart of the dashboard.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ROOT, THCLAWS } from '../test/desktop/helpers.js';
import { startDashboard, type Dashboard } from './fixture.js';

let d: Dashboard;
let page: Page;
let dave: ChildProcess | undefined;
const shots = path.join(ROOT, 'test-results', 'screenshots');

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  d = await startDashboard(['alice', 'bob', 'dave'], { teamEnabled: true }); // dave: a real teammate, started later
  // The person's own provider profile (user settings): its models are offered wherever a model is named.
  const user = path.join(d.ws, '.home', '.config', 'thclaws', 'settings.json');
  fs.mkdirSync(path.dirname(user), { recursive: true });
  fs.writeFileSync(user, JSON.stringify({ providers: { local: { type: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', models: { 'qwen3-coder': { contextWindow: 32768 } } } } }));
  d.startSim('alice', '--own-output');
  d.startSim('bob', '--own-output');
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage(); // a context of its own: axe-core needs one
  await page.goto(d.url);
  // Folded until the person opens it (issue 32: the panes come first).
  await expect(page.getByRole('button', { name: 'Budgets and spend' })).toHaveAttribute('aria-expanded', 'false');
  await page.getByRole('button', { name: 'Budgets and spend' }).click();
});

test.afterAll(async () => {
  dave?.kill('SIGKILL');
  await page?.context().close();
  await d?.stop();
});

const row = (name: string) => page.locator(`.budget-row[data-agent="${name}"]`);
const budgets = () => JSON.parse(fs.readFileSync(path.join(d.teamDir, 'budgets.json'), 'utf8'));

test('a budget set from the card lands in budgets.json; spend, $? and the 80 % notice show; each call is charted', async () => {
  await expect(row('alice')).toBeVisible();
  await row('alice').getByRole('button', { name: 'set the budget of alice' }).click();
  const form = page.getByRole('form', { name: 'budget of alice' });
  await form.getByLabel('USD').fill('1');
  await form.getByLabel('Tokens').fill('1000');
  await page.locator('.budget-card').screenshot({ path: path.join(shots, 'budget-form-1440.png') });
  const axe = await new AxeBuilder({ page }).include('.budget-card').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toHaveCount(0);
  expect(budgets().teammates.alice).toEqual({ usd: 1, tokens: 1000 });
  await expect(page.getByTestId('limit-alice')).toHaveText('$1.00 / 1.0k tok · 0 %');

  // Two model calls: 500 then 350 tokens ($0.85 in all): past 80 % of the $1 and 1,000-token limit.
  d.sims.get('alice')!.stdin!.write('spend 500 0.5\n');
  await expect(page.getByTestId('spend-alice')).toHaveText('500 tok · $0.50');
  d.sims.get('alice')!.stdin!.write('spend 350 0.35\n');
  await expect(page.getByTestId('spend-alice')).toHaveText('850 tok · $0.85');
  await expect(page.getByTestId('limit-alice')).toHaveText('$1.00 / 1.0k tok · 85 %');
  await expect(row('alice')).toHaveClass(/warn/);
  await expect(page.locator('.notice.warn')).toContainText("Budget at 80 %: alice's budget");
  await expect(row('alice').getByRole('img', { name: "alice's spend per model call: 2 model calls" })).toBeVisible();
  await expect(row('alice').locator('.spend-chart rect')).toHaveCount(2);

  // A model without a price: bob's cost is unknown, never $0; so is the team's.
  d.sims.get('bob')!.stdin!.write('spend 200 ?\n');
  await expect(page.getByTestId('spend-bob')).toHaveText('200 tok · $?');
  await expect(page.getByTestId('spend-team')).toHaveText('1.1k tok · $?');

  // The team's limit from the card; then alice's raised, then cleared.
  await row('team').getByRole('button', { name: 'set the budget of team' }).click();
  await page.getByRole('form', { name: 'budget of the team' }).getByLabel('Tokens').fill('50000');
  await page.getByRole('form', { name: 'budget of the team' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('limit-team')).toHaveText('50k tok · 2 %');
  expect(budgets().team).toEqual({ tokens: 50000 });
  await page.screenshot({ path: path.join(shots, 'budget-card-1440.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  // The person opened it: it stays open at any width.
  await expect(page.getByRole('button', { name: 'Budgets and spend' })).toHaveAttribute('aria-expanded', 'true');
  await page.locator('.budget-card').screenshot({ path: path.join(shots, 'budget-card-390.png') });
  await page.setViewportSize({ width: 1440, height: 900 });

  await row('alice').getByRole('button', { name: 'set the budget of alice' }).click();
  await page.getByRole('form', { name: 'budget of alice' }).getByLabel('USD').fill('5');
  await page.getByRole('form', { name: 'budget of alice' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('limit-alice')).toHaveText('$5.00 / 1.0k tok · 85 %');
  expect(budgets().teammates.alice).toEqual({ usd: 5, tokens: 1000 });
  // Still past 80 % of the unchanged 1,000 tokens: not told twice (notices close on their own, so at most one).
  expect(await page.locator('.notice.warn').count()).toBeLessThanOrEqual(1);
  await row('alice').getByRole('button', { name: 'set the budget of alice' }).click();
  await page.getByRole('form', { name: 'budget of alice' }).getByRole('button', { name: 'Clear' }).click();
  await expect(page.getByTestId('limit-alice')).toHaveText('50k tok (team) · 2 %'); // her own gone, the team's applies
  expect(budgets().teammates).toEqual({});
});

test("the member form offers the profile's models and the aliases; the chosen one is the member's model", async () => {
  const pane = page.locator('.pane[data-agent="alice"]');
  // Live members are not edited: a new one is added with a profile model.
  await page.getByRole('button', { name: 'Add member' }).click();
  const add = page.getByRole('dialog', { name: 'add a member' });
  const offered = await add.locator('#member-models option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  expect(offered).toEqual(expect.arrayContaining(['local/qwen3-coder', 'sonnet', 'opus', 'haiku']));
  await add.getByLabel('Name').fill('carol');
  await add.getByLabel('Role').fill('reviewer');
  await add.getByLabel('Model').fill('local/qwen3-coder');
  await page.screenshot({ path: path.join(shots, 'member-form-1440.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(shots, 'member-form-390.png') });
  await page.setViewportSize({ width: 1440, height: 900 });
  await add.getByRole('button', { name: 'Add' }).click();
  await expect(page.locator('.pane[data-agent="carol"] .pane-model')).toHaveText('local/qwen3-coder');
  const cfg = JSON.parse(fs.readFileSync(path.join(d.teamDir, 'config.json'), 'utf8'));
  expect(cfg.members.find((m: { name: string }) => m.name === 'carol').model).toBe('local/qwen3-coder');
  await expect(pane).toBeVisible();
});

test('crossing 80 % while the window is not focused shows a desktop notification', async () => {
  await page.context().grantPermissions(['notifications'], { origin: new URL(d.url).origin });
  // Playwright makes every page think it has focus; without that emulation a page behind another has none.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: false });
  const other = await page.context().newPage();
  await other.bringToFront();
  await expect.poll(() => page.evaluate(() => document.hasFocus())).toBe(false);
  // bob has spent 200 tokens: a 240-token limit set from the CLI puts him at 83 %.
  d.cli('team', 'budget', 'bob', '--tokens', '240');
  const shown = () => page.evaluate(() => (window as unknown as { __budgetNotifications?: string[] }).__budgetNotifications ?? []);
  await expect.poll(shown, { timeout: 30_000 }).toEqual(["budget at 80 %: bob's budget: 200 tokens of 240 tokens (83 %)"]);
  await other.close();
  await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true });
});

test("a role's budget is set from the card and applies to each teammate of that role", async () => {
  d.cli('team', 'budget', '--team', '--clear'); // else the team's limit, further gone, is the one shown
  const role = page.locator('.budget-row[data-role="reviewer"]');
  await expect(role).toContainText('each of carol');
  await expect(page.getByTestId('limit-role-reviewer')).toHaveText('no limit');
  await role.getByRole('button', { name: 'set the budget of role reviewer' }).click();
  const form = page.getByRole('form', { name: 'budget of role reviewer' });
  await form.getByLabel('USD').fill('2');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toHaveCount(0);
  expect(budgets().roles).toEqual({ reviewer: { usd: 2 } });
  await expect(page.getByTestId('limit-role-reviewer')).toHaveText('$2.00');
  // carol has no limit of her own: her role's applies to her.
  await expect(page.getByTestId('limit-carol')).toHaveText('$2.00 (role) · 0 %');
  await page.locator('.budget-card').screenshot({ path: path.join(shots, 'budget-role-1440.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('.budget-card').screenshot({ path: path.join(shots, 'budget-role-390.png') });
  await page.setViewportSize({ width: 1440, height: 900 });
});

test('a real teammate parked at its budget resumes its task when the person raises the budget in the card', async () => {
  test.setTimeout(90_000);
  await row('dave').getByRole('button', { name: 'set the budget of dave' }).click();
  await page.getByRole('form', { name: 'budget of dave' }).getByLabel('Tokens').fill('1');
  await page.getByRole('form', { name: 'budget of dave' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('limit-dave')).toHaveText('1 tok · 0 %');
  const task = JSON.parse(d.cli('team', 'task', 'add', '--subject', 'write the budget parts', '--owner', 'dave', '--json')) as { id: string };
  // One model call (a whole file written), then 1 token is spent past: parked before the second call.
  const script = path.join(d.ws, '.home', 'dave-script.json');
  fs.writeFileSync(script, JSON.stringify({
    rules: [
      { match: 'budget was raised', turns: [{ text: 'go on', tool_calls: [{ name: 'Write', input: { file_path: 'part2.txt', content: 'two' } }, { name: 'TeamTaskComplete', input: { task_id: task.id, summary: 'both parts' } }] }, { text: 'done' }] },
      { match: 'budget parts', turns: [{ text: 'part one', tool_calls: [{ name: 'Write', input: { file_path: 'part1.txt', content: 'one' } }] }, { text: 'past the budget: never played' }] },
    ],
    fallback: [{ text: 'ok' }],
  }));
  const home = path.join(d.ws, '.home');
  // --accept-all: its Write needs no approval card (approvals have their own tests).
  dave = spawn(THCLAWS, ['--team-agent', 'dave', '--accept-all', '--script', script], { cwd: d.ws, env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), THCLAWS_TEAM_DIR: d.teamDir }, stdio: 'ignore' });

  const pane = page.locator('.pane[data-agent="dave"]');
  await expect(pane.locator('.pane-budget')).toHaveText('budget reached', { timeout: 30_000 });
  await expect(row('dave')).toHaveClass(/stop/);
  expect(fs.readFileSync(path.join(d.ws, 'part1.txt'), 'utf8')).toBe('one');
  expect(fs.existsSync(path.join(d.ws, 'part2.txt'))).toBe(false);
  expect(JSON.parse(d.cli('team', 'task', 'show', task.id, '--json'))).toMatchObject({ status: 'in_progress', owner: 'dave', parked: 'budget' });
  await page.screenshot({ path: path.join(shots, 'budget-reached-1440.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(shots, 'budget-reached-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });

  await row('dave').getByRole('button', { name: 'set the budget of dave' }).click();
  await page.getByRole('form', { name: 'budget of dave' }).getByLabel('Tokens').fill('100000000');
  await page.getByRole('form', { name: 'budget of dave' }).getByRole('button', { name: 'Save' }).click();
  await expect(pane.locator('.pane-budget')).toHaveCount(0, { timeout: 30_000 });
  await expect.poll(() => JSON.parse(d.cli('team', 'task', 'show', task.id, '--json')).status, { timeout: 30_000 }).toBe('completed');
  expect(fs.readFileSync(path.join(d.ws, 'part2.txt'), 'utf8')).toBe('two');
  expect(d.cli('team', 'status').split('\n').find((l) => l.startsWith('dave '))).not.toContain('budget reached');
  await expect(row('dave')).not.toHaveClass(/stop/);
});

test('the spend chart is read back after the dashboard restarts', async () => {
  const before = await row('dave').locator('.spend-chart rect').count();
  expect(before).toBeGreaterThanOrEqual(3);
  await d.restart();
  await page.goto(d.url);
  // Budgets stay open where the person opened them; a new address (port) is another origin, whose storage is new.
  const toggle = page.getByRole('button', { name: 'Budgets and spend' });
  await expect(toggle).toBeVisible();
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  await expect(row('alice').getByRole('img', { name: "alice's spend per model call: 2 model calls" })).toBeVisible();
  await expect(row('dave').locator('.spend-chart rect')).toHaveCount(before);
  await expect(row('bob').getByRole('img', { name: "bob's spend per model call: 1 model calls, some at an unknown price" })).toBeVisible();
});
