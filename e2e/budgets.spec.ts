/**
 * Budgets and models from the dashboard, in real Chromium against `thclaws dashboard` (a real process) and a
 * real teammate process that accounts its model calls in its status: the budget card shows spend and limits
 * (an unknown price as `$?`), a budget set in the card lands in budgets.json, crossing 80 % raises a notice,
 * each call shows in the spend chart; the member form offers the person's provider-profile models.
 */
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ROOT } from '../test/desktop/helpers.js';
import { startDashboard, type Dashboard } from './fixture.js';

let d: Dashboard;
let page: Page;
const shots = path.join(ROOT, 'test-results', 'screenshots');

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  d = await startDashboard(['alice', 'bob'], { teamEnabled: true });
  // The person's own provider profile (user settings): its models are offered wherever a model is named.
  const user = path.join(d.ws, '.home', '.config', 'thclaws', 'settings.json');
  fs.mkdirSync(path.dirname(user), { recursive: true });
  fs.writeFileSync(user, JSON.stringify({ providers: { local: { type: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', models: { 'qwen3-coder': { contextWindow: 32768 } } } } }));
  d.startSim('alice', '--own-output');
  d.startSim('bob', '--own-output');
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage(); // a context of its own: axe-core needs one
  await page.goto(d.url);
});

test.afterAll(async () => {
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
  // Folded on a phone until the person opens it.
  await expect(page.getByRole('button', { name: 'Budgets and spend' })).toHaveAttribute('aria-expanded', 'false');
  await page.getByRole('button', { name: 'Budgets and spend' }).click();
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
