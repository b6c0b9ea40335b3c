/**
 * Adding a member, at 1440×900 and on a 390×844 phone, through `thclaws dashboard` and a real team: the form's
 * fields line up, the model field names each model with its price from the model table (and says the
 * scripted provider runs here, not the model), builders get their own worktree by default, and the new
 * member's pane says "not started — Start" instead of "read-only"; Start starts it. The task board does not
 * say "blocked by" of a task that is done.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ROOT } from '../test/desktop/helpers.js';
import { startDashboard, type Dashboard } from './fixture.js';

let d: Dashboard;
let page: Page;
const shots = path.join(ROOT, 'test-results', 'screenshots');

test.describe.configure({ mode: 'serial' });

// The person's own settings name one host a member may run on (never started here: no ssh in this spec).
const config = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-e2e-config-'));

test.beforeAll(async ({ browser }) => {
  fs.mkdirSync(path.join(config, 'thclaws'));
  fs.writeFileSync(path.join(config, 'thclaws', 'settings.json'), JSON.stringify({ hosts: { big: { ssh: 'me@big.invalid', dir: '~/w' } } }));
  d = await startDashboard(['alice'], { teamEnabled: true }, { XDG_CONFIG_HOME: config });
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto(d.url);
  await expect(page.locator('.pane[data-agent="lead"]')).toBeVisible();
});

test.afterAll(async () => {
  await page?.context().close();
  await d?.stop();
  fs.rmSync(config, { recursive: true, force: true });
});

const serious = async () => (await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);

/** The left edge of each field of the form: one column when aligned. */
async function fieldEdges(): Promise<number[]> {
  const form = page.getByRole('dialog', { name: 'add a member' });
  const xs: number[] = [];
  for (const name of ['Name', 'Role', 'Model', 'Where', 'Isolation', 'Permission mode', 'Instructions']) xs.push(Math.round((await form.getByLabel(name).boundingBox())!.x));
  return xs;
}

test('the form at 1440×900: aligned fields, models with prices, a worktree for builders; the new member reads "not started — Start"', async () => {
  await page.getByRole('button', { name: 'Add member' }).click();
  const add = page.getByRole('dialog', { name: 'add a member' });
  const xs = await fieldEdges();
  expect(new Set(xs).size, `field edges ${xs}`).toBe(1);
  // Each model offered with its price from the table.
  const labels = await add.locator('#member-models option').evaluateAll((os) => Object.fromEntries(os.map((o) => [(o as HTMLOptionElement).value, (o as HTMLOptionElement).label])));
  expect(labels).toMatchObject({ haiku: 'claude-haiku-5-5 · $0.1 in / $0.5 out per M tokens', opus: 'claude-opus-5-5 · $4 in / $20 out per M tokens' });
  await add.getByLabel('Name').fill('carol');
  // A builder gets its own worktree; a reviewer shares the folder (until the person picks).
  await add.getByLabel('Role').fill('reviewer');
  await expect(add.getByLabel('Isolation')).toHaveValue('shared');
  await add.getByLabel('Role').fill('API builder');
  await expect(add.getByLabel('Isolation')).toHaveValue('worktree');
  // What runs here is named: the scripted provider, with the model's price for when a key is set.
  const price = add.getByTestId('member-model-price');
  await expect(price).toHaveText('scripted runs here: no model calls, no cost (with a key: claude-sonnet-5-5 · $2 in / $10 out per M tokens)');
  await add.getByLabel('Model').fill('opus');
  await expect(price).toHaveText('scripted runs here: no model calls, no cost (with a key: claude-opus-5-5 · $4 in / $20 out per M tokens)');
  await page.screenshot({ path: path.join(shots, 'member-form-aligned-1440.png') });
  expect(await serious()).toEqual([]);
  await add.getByRole('button', { name: 'Add' }).click();
  const pane = page.locator('.pane[data-agent="carol"]');
  await expect(pane.getByTestId('pane-not-started')).toHaveText('not started — Start');
  await expect(pane).not.toContainText('read-only');
  await expect(pane.locator('.pane-model')).toHaveText('scripted');
  await expect(pane.locator('.pane-model')).toHaveAttribute('title', 'model setting: claude-opus-5-5');
  await pane.getByRole('button', { name: 'Start' }).click();
  await expect(pane.locator('.badge')).toHaveText(/idle|working/, { timeout: 60_000 });
  await expect(pane.getByTestId('pane-not-started')).toHaveCount(0);
  // The builder runs in a worktree of its own, as the form said (the outcome, not the select's value).
  const config = JSON.parse(fs.readFileSync(path.join(d.teamDir, 'config.json'), 'utf8')) as { members: { name: string; isolation?: string }[] };
  expect(config.members.find((m) => m.name === 'carol')?.isolation).toBe('worktree');
  await expect.poll(() => execFileSync('git', ['worktree', 'list'], { cwd: d.ws, encoding: 'utf8' }), { timeout: 30_000 }).toContain(path.join('.worktrees', 'carol'));
});

test('the form at 390×844: one column, every field and the price inside the screen', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Add member' }).click();
  const add = page.getByRole('dialog', { name: 'add a member' });
  const xs = await fieldEdges();
  expect(new Set(xs).size, `field edges ${xs}`).toBe(1);
  for (const name of ['Name', 'Role', 'Model', 'Isolation', 'Permission mode']) {
    const b = (await add.getByLabel(name).boundingBox())!;
    expect(b.x + b.width, name).toBeLessThanOrEqual(390);
  }
  const price = (await add.getByTestId('member-model-price').boundingBox())!;
  expect(price.x + price.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: path.join(shots, 'member-form-aligned-390.png') });
  expect(await serious()).toEqual([]);
  await add.getByRole('button', { name: 'Cancel' }).click();
  await page.setViewportSize({ width: 1440, height: 900 });
});

test("Where: a member placed on one of the person's hosts says so on its pane; this machine is the default", async () => {
  await page.getByRole('button', { name: 'Add member' }).click();
  const add = page.getByRole('dialog', { name: 'add a member' });
  const where = add.getByLabel('Where');
  await expect(where).toHaveValue('');
  await expect(where.locator('option')).toHaveText(['this machine', 'on big: its own clone there (settings hosts)']);
  await add.getByLabel('Name').fill('dora');
  await where.selectOption('big');
  // Its own clone there: a worktree here does not apply.
  await expect(add.getByLabel('Isolation')).toBeDisabled();
  await add.getByRole('button', { name: 'Add' }).click();
  await expect(page.locator('.pane[data-agent="dora"] [data-testid="pane-host"]')).toHaveText('on big');
  await expect(page.locator('.pane[data-agent="carol"] [data-testid="pane-host"]')).toHaveCount(0);
  // Edit shows where it runs, and Save keeps it there.
  await page.locator('.pane[data-agent="dora"]').getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'edit dora' });
  await expect(edit.getByLabel('Where')).toHaveValue('big');
  await edit.getByLabel('Role').fill('checker');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toHaveCount(0);
  await expect(page.locator('.pane[data-agent="dora"] [data-testid="pane-host"]')).toHaveText('on big');
  expect(JSON.parse(fs.readFileSync(path.join(d.teamDir, 'config.json'), 'utf8')).members.find((m: { name: string }) => m.name === 'dora')).toMatchObject({ role: 'checker', host: 'big' });
  // The person removes that host from their settings: dora's form says so, and still saves a change to the rest.
  fs.writeFileSync(path.join(config, 'thclaws', 'settings.json'), JSON.stringify({ hosts: { gpu: { ssh: 'me@gpu.invalid', dir: '~/w' } } }));
  await page.reload();
  await page.locator('.pane[data-agent="dora"]').getByRole('button', { name: 'Edit' }).click();
  const stale = page.getByRole('dialog', { name: 'edit dora' });
  await expect(stale.getByLabel('Where').locator('option')).toHaveText(['this machine', 'on gpu: its own clone there (settings hosts)', 'on big: no longer in your settings']);
  await expect(stale.getByLabel('Where')).toHaveValue('big');
  for (const [w, h] of [[1440, 900], [390, 844]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: path.join(shots, `member-form-host-gone-${w}x${h}.png`) });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await stale.getByLabel('Role').fill('reviewer');
  await stale.getByRole('button', { name: 'Save' }).click();
  await expect(stale).toHaveCount(0);
  expect(JSON.parse(fs.readFileSync(path.join(d.teamDir, 'config.json'), 'utf8')).members.find((m: { name: string }) => m.name === 'dora')).toMatchObject({ role: 'reviewer', host: 'big' });
});

test('a done task does not say "blocked by"; a waiting one does (both sizes)', async () => {
  // Reserved for alice (not running): carol, live, takes none of them.
  d.cli('team', 'task', 'add', '--subject', 'the API', '--owner', 'alice');
  d.cli('team', 'task', 'add', '--subject', 'the UI', '--blocked-by', '1', '--owner', 'alice');
  d.cli('team', 'task', 'add', '--subject', 'the docs', '--blocked-by', '1', '--owner', 'alice');
  for (const id of ['1', '2']) {
    d.cli('team', 'task', 'claim', id, '--as', 'alice');
    d.cli('team', 'task', 'complete', id, '--as', 'alice', '--summary', 'done');
  }
  await page.getByRole('button', { name: 'Tasks' }).click();
  const done = async () => {
    await expect(page.locator('.task[data-task="2"] .task-result')).toBeVisible();
    await expect(page.locator('.task[data-task="2"]')).not.toContainText('blocked by');
  };
  const waiting = () => expect(page.locator('.task[data-task="3"] .task-deps')).toHaveText('blocked by #1');
  await done();
  await waiting();
  // The phone shows one column at a time.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('tab', { name: /^Completed/ }).click();
  await done();
  await page.getByRole('tab', { name: /^Pending/ }).click();
  await waiting();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole('button', { name: 'Team', exact: true }).click();
});

test("the lead's budget row has Set, and the lead keeps the limit set there", async () => {
  const termText = () => page.evaluate(() => (window as unknown as { __thclaws: { terminals: { text(a: string): string } } }).__thclaws.terminals.text('lead'));
  const typeToLead = async (text: string) => {
    await page.locator('.pane[data-agent="lead"] .xterm').click();
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  };
  // Budgets are folded until asked for.
  const toggle = page.getByRole('button', { name: 'Budgets and spend' });
  await expect(toggle).toBeEnabled();
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  // One model call first: the lead has spent something.
  await typeToLead('hello');
  await expect(page.getByTestId('spend-lead')).not.toHaveText(/^– tok/, { timeout: 30_000 });
  await page.getByRole('button', { name: 'set the budget of lead' }).click();
  const form = page.getByRole('form', { name: 'budget of lead' });
  await form.getByLabel('Tokens').fill('1');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('limit-lead')).toContainText('1 tok');
  // Past its limit, the lead's next prompt makes no model call: its terminal says why.
  await typeToLead('hello again');
  await expect.poll(termText, { timeout: 30_000 }).toContain("budget reached — lead's budget");
});
