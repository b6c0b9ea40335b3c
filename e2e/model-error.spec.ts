/**
 * A failing model, as a person sees it in Chromium: real agents on the real SDK against the fake Messages API
 * refusing the key (401), or an endpoint nobody listens on. Each pane's badge reads `error` (red, not idle) with
 * the reason beside it, the header counts them, and an alert says the key or endpoint fails for every agent.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { FakeAnthropic } from '../test/agent/fake-anthropic.js';
import { startDashboard, type Dashboard } from './fixture.js';

const SHOTS = process.env.THCLAWS_SHOTS_DIR ?? path.join('test-results', 'screenshots');

async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/**
 * alice is started from her pane and messaged: her turn fails, and the notice she sends the lead gives the
 * lead a turn that fails the same way.
 */
async function failEveryAgent(page: Page): Promise<void> {
  const pane = (n: string) => page.locator(`.pane[data-agent="${n}"]`);
  await expect(pane('lead').locator('.badge')).toHaveText('idle', { timeout: 40_000 });
  await pane('alice').getByRole('button', { name: 'Start' }).click();
  await expect(pane('alice').locator('.badge')).toHaveText('idle', { timeout: 40_000 });
  await pane('alice').getByLabel('message alice').fill('say hello');
  await pane('alice').getByRole('button', { name: 'Send' }).click();
}

const termText = (page: Page, n: string) => page.evaluate((a) => (window as unknown as { __thclaws: { terminals: { text(x: string): string } } }).__thclaws.terminals.text(a), n);

async function shoot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
  await page.setViewportSize({ width: 390, height: 844 });
  // The phone layout scrolls inside its panes' container: the first pane's head in view.
  await page.evaluate(() => document.querySelectorAll('*').forEach((e) => (e.scrollTop = 0)));
  await page.screenshot({ path: path.join(SHOTS, `${name}-phone.png`) });
  await page.setViewportSize({ width: 1440, height: 900 });
}

let d: Dashboard | undefined;
let fake: FakeAnthropic | undefined;
test.afterEach(async () => {
  await d?.stop();
  await fake?.close();
  d = undefined;
  fake = undefined;
});

const settings = { provider: 'anthropic', teamEnabled: true, retry: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 20 } };

test('a refused key: every badge reads error with "API key refused (401)", the header alerts and points at Settings', async ({ page }) => {
  fake = await new FakeAnthropic().start();
  fake.respond = () => ({ kind: 'error', status: 401, message: 'invalid x-api-key' });
  d = await startDashboard(['alice'], settings, { ANTHROPIC_API_KEY: 'sk-refused', ANTHROPIC_BASE_URL: fake.url });
  await page.goto(d.url);
  await failEveryAgent(page);
  for (const n of ['lead', 'alice']) {
    const pane = page.locator(`.pane[data-agent="${n}"]`);
    await expect(pane.locator('.badge')).toHaveText('error');
    await expect(pane.locator('.badge')).toHaveAttribute('title', 'API key refused (401)');
    await expect(pane.getByTestId('pane-error')).toHaveText('API key refused (401)');
  }
  await expect(page.getByTestId('counts')).toContainText('2 error');
  const alert = page.getByTestId('model-alert');
  await expect(alert).toContainText('API key refused — every agent fails: set a key in Settings');
  await expect.poll(() => termText(page, 'alice')).toContain('[alice] turn failed: authentication failed (401)');
  await shoot(page, 'model-error-key');
  await alert.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
});

test('an unreachable endpoint: error "cannot reach …: ECONNREFUSED" on every badge, the header alert names the endpoint', async ({ page }) => {
  const base = `http://127.0.0.1:${await closedPort()}`;
  d = await startDashboard(['alice'], settings, { ANTHROPIC_API_KEY: 'sk-any', ANTHROPIC_BASE_URL: base });
  await page.goto(d.url);
  await failEveryAgent(page);
  for (const n of ['lead', 'alice']) {
    const pane = page.locator(`.pane[data-agent="${n}"]`);
    await expect(pane.locator('.badge')).toHaveText('error');
    await expect(pane.getByTestId('pane-error')).toHaveText(`cannot reach ${base}: ECONNREFUSED (gave up after 2 attempts)`);
  }
  await expect(page.getByTestId('model-alert')).toContainText(`Model endpoint unreachable — every agent fails: cannot reach ${base}: ECONNREFUSED. Check the base URL`);
  // Each pane's terminal says it too, in the same words.
  await expect.poll(() => termText(page, 'alice')).toContain(`[alice] turn failed: connection error: cannot reach ${base}: ECONNREFUSED`);
  await shoot(page, 'model-error-endpoint');
});
