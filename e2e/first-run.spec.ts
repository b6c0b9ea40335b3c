/**
 * The first minutes, in real Chromium through `thclaws dashboard` (a real process) on a fresh folder with no
 * key: the welcome says what is missing and offers the demo and a key; nothing is written into the folder
 * until the person acts. Then the team from the GUI: a team created, a member added, edited, refused removal
 * while live, stopped and removed; its start goes through the runtime's own spawn into a live pane.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { dashboardReady, ROOT, THCLAWS } from '../test/desktop/helpers.js';
import { stopWorkspaceHost } from './fixture.js';

let proc: ChildProcess;
let page: Page;
let ws = '';
let home = '';
let env: NodeJS.ProcessEnv = {};

test.describe.configure({ mode: 'serial' });

async function startDashboard(dir: string, env: NodeJS.ProcessEnv): Promise<string> {
  proc = spawn(THCLAWS, ['dashboard', '--dir', dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'], env });
  return (await dashboardReady(proc, { ms: 30_000 })).url;
}

test.beforeAll(async ({ browser }) => {
  ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-fresh-')));
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-fresh-home-'));
  // A runtime dir of its own: the workspace host the dashboard starts is this test's, stopped after it.
  env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-fresh-rt-')) };
  for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];
  const url = await startDashboard(ws, env);
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage(); // a context of its own: axe-core needs one
  await page.goto(url);
});

test.afterAll(async () => {
  await page?.context().close();
  if (proc && proc.exitCode === null) {
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  }
  if (ws) await stopWorkspaceHost(ws, env);
});

const shots = path.join(ROOT, 'test-results', 'screenshots');

/** Serious and critical axe-core violations on the page as it is now, one line each. */
async function serious(what: string): Promise<string[]> {
  const r = await new AxeBuilder({ page }).analyze();
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${what}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

test('the welcome on an empty folder with no key: what is missing, two ways on, nothing written', async () => {
  const welcome = page.getByTestId('welcome');
  await expect(welcome).toBeVisible();
  await expect(welcome).toContainText('not configured');
  await expect(welcome.getByRole('button', { name: 'Try the demo team here (no key)' })).toBeVisible();
  await expect(welcome.getByRole('button', { name: 'Add an API key' })).toBeVisible();
  await expect(page.locator('.pane[data-agent="lead"] .badge')).toHaveText('not configured');
  await expect(page.locator('[data-testid="counts"]')).toContainText('1 not configured');
  await page.screenshot({ path: path.join(shots, 'welcome-1440.png') });
  const found = await serious('welcome 1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(welcome.getByRole('button', { name: 'Try the demo team here (no key)' })).toBeVisible();
  found.push(...(await serious('welcome 390')));
  await page.screenshot({ path: path.join(shots, 'welcome-390.png') });
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(found).toEqual([]);
  // Settings says which provider and that there is no key, with the field to add one.
  await page.getByRole('button', { name: 'settings' }).click();
  const settings = page.getByRole('dialog', { name: 'settings' });
  await expect(settings.getByTestId('provider')).toHaveText('Anthropic');
  await expect(settings.getByTestId('key-status')).toHaveText('none');
  await expect(settings.getByLabel('Anthropic API key')).toBeVisible();
  expect(await serious('settings without a key 1440')).toEqual([]);
  await settings.getByRole('button', { name: 'Close' }).click();
  // A wrong key is refused next to the field, in one sentence; still nothing in the folder.
  await welcome.getByRole('button', { name: 'Add an API key' }).click();
  await welcome.getByLabel('Anthropic API key').fill('not-a-key');
  await welcome.getByRole('button', { name: 'Save key' }).click();
  await expect(welcome.locator('.key-error')).toHaveText(/^That does not look like an Anthropic API key: .*\.$/);
  await page.waitForTimeout(2500); // a liveness tick or two of the host
  expect(fs.readdirSync(ws)).toEqual([]);
  expect(fs.existsSync(path.join(home, '.config', 'thclaws', 'credentials.json'))).toBe(false);
});

test('a team created and a member added, edited, refused removal while live, removed after stopping', async () => {
  test.setTimeout(120_000);
  // The person starts something: only now does the folder get a team.
  await page.getByRole('button', { name: 'Create a team' }).click();
  const create = page.getByRole('dialog', { name: 'create a team' });
  await create.getByLabel('Name').fill('web');
  await create.getByLabel('Description').fill('a small web app');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page.locator('.team-name')).toHaveText('web');
  expect(JSON.parse(fs.readFileSync(path.join(ws, '.thclaws', 'state', 'team', 'config.json'), 'utf8'))).toMatchObject({ name: 'web', description: 'a small web app' });

  // The runtime's spawn needs a provider: this workspace runs on the scripted one (a person's choice in Settings).
  fs.writeFileSync(path.join(ws, '.thclaws', 'settings.json'), JSON.stringify({ teamEnabled: true, provider: 'scripted' }));

  await page.getByRole('button', { name: 'Add member' }).click();
  const add = page.getByRole('dialog', { name: 'add a member' });
  await add.getByLabel('Name').fill('alice');
  await add.getByLabel('Role').fill('API');
  await add.getByLabel('Isolation').selectOption('shared');
  await add.getByLabel('Permission mode').selectOption('ask');
  await add.getByRole('button', { name: 'Add' }).click();
  const pane = page.locator('.pane[data-agent="alice"]');
  await expect(pane).toBeVisible();
  await expect(pane.locator('.pane-role')).toHaveText('API');

  await pane.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'edit alice' });
  await expect(edit.getByLabel('Role')).toHaveValue('API');
  await edit.getByLabel('Role').fill('backend API');
  await edit.getByLabel('Model').fill('claude-haiku-4-5');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(pane.locator('.pane-role')).toHaveText('backend API');
  await expect(pane.locator('.pane-model')).toHaveText('claude-haiku-4-5');

  // Start: the runtime's own spawn, served by this dashboard into a live pane.
  await pane.getByRole('button', { name: 'Start' }).click();
  await expect(pane.locator('.badge')).toHaveText(/idle|working/, { timeout: 60_000 });
  await expect(pane.getByRole('button', { name: 'Edit' })).toHaveCount(0); // no edits while live
  await page.screenshot({ path: path.join(shots, 'team-gui-1440.png') });
  await pane.getByRole('button', { name: 'Remove' }).click();
  await expect(page.locator('.notice.error')).toHaveText(/^alice is (idle|working): stop it before you remove it\.×$/);
  await expect(pane).toBeVisible();

  await pane.getByRole('button', { name: 'Stop' }).click();
  await expect(pane.locator('.badge')).toHaveText(/stopped|dead/, { timeout: 30_000 });
  await pane.getByRole('button', { name: 'Remove' }).click();
  await expect(pane).toHaveCount(0);
  const removed = fs.readdirSync(path.join(ws, '.thclaws', 'state', 'team', 'removed'));
  expect(removed.some((d) => d.startsWith('alice-'))).toBe(true);
});
