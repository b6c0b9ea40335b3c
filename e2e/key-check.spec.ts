/**
 * A key entered is confirmed and checked, in real Chromium through `thclaws dashboard` on a fresh folder with
 * no key, its agents pointed at the local fake Anthropic API: "Key saved (…abcd). Checking…", then ✓ or the
 * provider's refusal, from one model-list call through the real SDK (no message, no spend). At 1440×900 from
 * the welcome (accepted), at 390×844 from Settings (refused).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { FakeAnthropic } from '../test/agent/fake-anthropic.js';
import { dashboardReady, ROOT, THCLAWS } from '../test/desktop/helpers.js';
import { stopWorkspaceHost } from './fixture.js';

let proc: ChildProcess;
let page: Page;
let fake: FakeAnthropic;
let ws = '';
let env: NodeJS.ProcessEnv = {};
const GOOD = 'sk-ant-api03-goodgoodgoodgoodgood-abcd';
const BAD = 'sk-ant-api03-refusedrefusedrefused-wxyz';
const shots = path.join(ROOT, 'test-results', 'screenshots');

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  fake = await new FakeAnthropic().start();
  fake.acceptKey = (k) => k === GOOD;
  ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-key-')));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-key-home-'));
  env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-key-rt-')) };
  for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];
  env.ANTHROPIC_BASE_URL = fake.url; // the endpoint only: the key is the person's to enter
  proc = spawn(THCLAWS, ['dashboard', '--dir', ws, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'], env });
  const { url } = await dashboardReady(proc, { ms: 30_000 });
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
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
  await fake?.close();
});

const modelCalls = () => fake.requests.filter((r) => r.url.startsWith('/v1/models'));
const messageCalls = () => fake.requests.filter((r) => r.url.startsWith('/v1/messages'));

test('an accepted key (1440×900, from the welcome): saved, checking, then ✓ — one model-list call, no message', async () => {
  // The check is held open until the page has shown it in progress.
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  fake.modelsGate = () => gate;
  const welcome = page.getByTestId('welcome');
  await welcome.getByRole('button', { name: 'Add an API key' }).click();
  await welcome.getByLabel('Anthropic API key').fill(GOOD);
  await welcome.getByRole('button', { name: 'Save key' }).click();
  const check = page.getByTestId('key-check');
  await expect(check).toHaveText('Key saved (…abcd). Checking…');
  open();
  await expect(check).toHaveText('Key saved (…abcd). ✓ Anthropic accepted it.×');
  await expect(check).toHaveAttribute('data-state', 'ok');
  await expect(check).toHaveAttribute('role', 'status'); // said politely; a refusal is an alert
  await page.screenshot({ path: path.join(shots, 'key-check-ok-1440.png') });
  expect(modelCalls()).toHaveLength(1);
  expect(modelCalls()[0]!.headers.authorization).toBe(`Bearer ${GOOD}`);
  expect(messageCalls()).toHaveLength(0);
  const axe = (await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  expect(axe).toEqual([]);
});

test('a refused key (390×844, from Settings): the provider\'s refusal, said where the key was entered', async () => {
  fake.modelsGate = undefined;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'settings' }).click();
  const settings = page.getByRole('dialog', { name: 'settings' });
  await settings.getByRole('button', { name: 'Replace' }).click();
  await settings.getByLabel('Anthropic API key').fill(BAD);
  await settings.getByRole('button', { name: 'Save key' }).click();
  await expect(settings.getByTestId('key-status')).toContainText('…wxyz');
  await settings.getByRole('button', { name: 'Close' }).click();
  const check = page.getByTestId('key-check');
  await expect(check).toHaveText('Key saved (…wxyz). ✗ Refused: API key refused (401): invalid x-api-key. Replace it in Settings.×');
  await expect(check).toHaveAttribute('role', 'alert');
  await expect(check).toBeInViewport();
  await page.screenshot({ path: path.join(shots, 'key-check-refused-390.png') });
  expect(modelCalls()).toHaveLength(2);
  expect(messageCalls()).toHaveLength(0);
  const axe = (await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  expect(axe).toEqual([]);
});
