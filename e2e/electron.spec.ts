import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import os from 'node:os';
import { _electron as electron, expect, test, type Page } from '@playwright/test';
import { makeTeamWorkspace, ROOT } from '../test/desktop/helpers.js';
import { stopWorkspaceHost } from './fixture.js';

/**
 * The Electron binary, when this machine has one. Found without `require('electron')`, which in Electron 45
 * downloads a missing binary on first use, and a test must never download (nor fail for want of the network).
 */
function electronBinary(): string | null {
  try {
    const dir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
    const pathFile = path.join(dir, 'path.txt');
    const rel = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : null;
    const p = override ? path.join(override, rel || 'electron') : rel ? path.join(dir, 'dist', rel) : null;
    return p && fs.existsSync(p) ? p : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();

test('Electron shell: the window loads the dashboard over the preload bridge, locked down', async () => {
  if (!binary) console.log('electron e2e: skipped — no Electron binary on this machine (its download is not possible here)');
  test.skip(!binary, 'no Electron binary on this machine');
  const main = path.join(ROOT, 'out/main/index.js');
  test.skip(!fs.existsSync(main), 'out/main is not built: run npm run build:app');
  const ws = makeTeamWorkspace(['alice']);
  const app = await electron.launch({ executablePath: binary!, args: [main, '--dir', ws], env: { ...process.env, ELECTRON_ENABLE_LOGGING: '0' } });
  try {
    const page = await app.firstWindow();
    await expect(page.locator('.team-name')).toHaveText('demo');
    await expect(page.locator('.pane[data-agent="alice"]')).toBeVisible();
    const exposed = await page.evaluate(() => ({ bridge: typeof (window as unknown as { thclaws?: unknown }).thclaws, node: typeof (window as unknown as { require?: unknown }).require, proc: typeof (window as unknown as { process?: unknown }).process }));
    expect(exposed).toEqual({ bridge: 'object', node: 'undefined', proc: 'undefined' });
    // Navigation away and new windows are refused.
    await page.evaluate(() => window.open('https://example.com'));
    await page.evaluate(() => { location.href = 'https://example.com'; });
    await page.waitForTimeout(500);
    expect(app.windows().length).toBe(1);
    expect(page.url().startsWith('file://')).toBe(true);
  } finally {
    await app.close();
  }
});

test('Electron shell: closing the window leaves the team running in its host; the window opened again shows the same lead, its screen restored', async () => {
  if (!binary) console.log('electron e2e (close and reopen): skipped — no Electron binary on this machine');
  test.skip(!binary, 'no Electron binary on this machine');
  const main = path.join(ROOT, 'out/main/index.js');
  test.skip(!fs.existsSync(main), 'out/main is not built: run npm run build:app');
  const ws = makeTeamWorkspace(['alice']);
  fs.writeFileSync(path.join(ws, '.thclaws', 'settings.json'), JSON.stringify({ provider: 'scripted' }));
  const env = { ...process.env, ELECTRON_ENABLE_LOGGING: '0', THCLAWS_ON_CLOSE: 'keep', XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-electron-rt-')) };
  type Win = { __thclaws: { terminals: { text(a: string): string }; dashboard: { getState(): { members: Array<{ name: string; terminal: { kind: string; pid?: number } }> } } } };
  const leadPid = (page: Page) => page.evaluate(() => (window as unknown as Win).__thclaws.dashboard.getState().members.find((m) => m.name === 'lead')?.terminal.pid ?? null);
  try {
    const first = await electron.launch({ executablePath: binary!, args: [main, '--dir', ws], env });
    const page = await first.firstWindow();
    await expect.poll(() => leadPid(page), { timeout: 30_000 }).not.toBeNull();
    const pid = await leadPid(page);
    await expect.poll(() => page.evaluate(() => (window as unknown as Win).__thclaws.terminals.text('lead')), { timeout: 30_000 }).toContain('thclaws>');
    await first.close();
    expect(() => process.kill(pid!, 0)).not.toThrow();
    const again = await electron.launch({ executablePath: binary!, args: [main, '--dir', ws], env });
    const page2 = await again.firstWindow();
    await expect.poll(() => leadPid(page2), { timeout: 30_000 }).toBe(pid);
    await expect.poll(() => page2.evaluate(() => (window as unknown as Win).__thclaws.terminals.text('lead')), { timeout: 30_000 }).toContain('thclaws>');
    await again.close();
  } finally {
    await stopWorkspaceHost(ws, env);
  }
});
