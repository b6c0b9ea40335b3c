/**
 * A browser dashboard on a machine where the desktop app stored the key encrypted by its keychain (which only
 * Electron's main can read): the page says so, and the way out it names — Remove in Settings, then add the key
 * again — is there (before, no Remove was shown while the key could not be read, and a new key was refused
 * while the encrypted one was stored: a dead end). Real `thclaws dashboard` and its host, Chromium.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dashboardReady, ROOT, THCLAWS } from '../test/desktop/helpers.js';
import { stopWorkspaceHost } from './fixture.js';

const KEY = 'sk-ant-api03-BrowserAfterDesktop0123456789abcdefghij_-WxYz';
let proc: ChildProcess;
let page: Page;
let ws = '';
let env: NodeJS.ProcessEnv = {};
let credentials = '';

test.beforeAll(async ({ browser }) => {
  ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-enckey-')));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-enckey-home-'));
  env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-enckey-rt-')) };
  for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];
  // What the desktop app leaves: the key encrypted by its keychain (bytes only it can decrypt).
  credentials = path.join(home, '.config', 'thclaws', 'credentials.json');
  fs.mkdirSync(path.dirname(credentials), { recursive: true, mode: 0o700 });
  fs.writeFileSync(credentials, JSON.stringify({ anthropic_api_key_enc: Buffer.from('not for this process').toString('base64'), cipher: 'electron-safeStorage' }), { mode: 0o600 });
  proc = spawn(THCLAWS, ['dashboard', '--dir', ws, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'], env });
  const { url } = await dashboardReady(proc);
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(url);
});

test.afterAll(async () => {
  await page?.close();
  if (proc && proc.exitCode === null) proc.kill('SIGTERM');
  if (ws) await stopWorkspaceHost(ws, env);
});

test("the desktop's encrypted key in a browser: the page names the way out, and it works", async () => {
  test.setTimeout(120_000);
  await page.getByTitle('settings').click();
  const settings = page.getByRole('dialog');
  await expect(settings).toContainText("encrypted by the desktop app's keychain");
  await expect(settings).toContainText('press Remove beside the key in Settings');
  const shots = path.join(ROOT, 'test-results', 'screens');
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, 'key-encrypted-1440.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(shots, 'key-encrypted-390.png') });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.setViewportSize({ width: 1440, height: 900 });
  // Adding one over it is refused with the same way out.
  await settings.getByLabel(/API key/i).first().fill(KEY);
  await settings.getByRole('button', { name: /save/i }).click();
  await expect(settings).toContainText('press Remove beside the key in Settings first');
  expect(fs.existsSync(credentials)).toBe(true);
  // The way out: Remove, then the key is added (in clear, 0600).
  await settings.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect.poll(() => fs.existsSync(credentials)).toBe(false);
  await settings.getByLabel(/API key/i).first().fill(KEY);
  await settings.getByRole('button', { name: /save/i }).click();
  await expect(page.getByTestId('key-status')).toContainText('…WxYz');
  expect(JSON.parse(fs.readFileSync(credentials, 'utf8'))).toEqual({ anthropic_api_key: KEY });
  expect(fs.statSync(credentials).mode & 0o777).toBe(0o600);
});
