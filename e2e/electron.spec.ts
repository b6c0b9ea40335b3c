import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';
import { makeTeamWorkspace, ROOT } from '../test/desktop/helpers.js';

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
