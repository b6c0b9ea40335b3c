import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ROOT } from '../test/desktop/helpers.js';
import { startDashboard, type Dashboard } from './fixture.js';
import { probeSandbox } from '../src/core/sandbox/runtime.js';
import { sandboxView } from '../src/main/host/views.js';

let d: Dashboard;
let page: Page;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  d = await startDashboard(['alice', 'bob', 'carol']);
  // carol ran once and was killed: her status says working, her process is gone.
  const carol = d.startSim('carol');
  await expect.poll(() => fs.existsSync(path.join(d.teamDir, 'agents/carol/status.json')), { timeout: 20_000 }).toBe(true);
  carol.kill('SIGKILL');
  d.startSim('alice', '--work-ms', '1500', '--lines', '4');
  page = await browser.newPage();
  await page.goto(d.url);
});

test.afterAll(async () => {
  await page?.close();
  await d?.stop();
});

const pane = (name: string) => page.locator(`.pane[data-agent="${name}"]`);
const badge = (name: string) => pane(name).locator('.badge');
const termText = (name: string) => page.evaluate((n) => (window as unknown as { __thclaws: { terminals: { text(a: string): string } } }).__thclaws.terminals.text(n), name);

test('panes appear for the lead and every teammate, with live output', async () => {
  for (const n of ['lead', 'alice', 'bob', 'carol']) await expect(pane(n)).toBeVisible();
  await expect(page.locator('.team-name')).toHaveText('demo');
  await expect.poll(() => termText('alice')).toContain('[alice] ready');
  await expect(pane('alice').locator('.pane-readonly')).toContainText('not started by this dashboard');
  await expect(badge('alice')).toHaveText(/idle|working/);
});

test("the header shows whether the agents' Bash runs in the OS sandbox, as this machine's probe says", async () => {
  const expected = sandboxView(await probeSandbox());
  const sb = page.getByTestId('sandbox');
  await expect(sb).toHaveText(expected.text);
  await expect(sb).toHaveAttribute('data-state', expected.state);
  expect(['on', 'off', 'unavailable']).toContain(expected.state);
});

test('typing into the lead pane reaches its pty and the answer streams back', async () => {
  await expect.poll(() => termText('lead')).toContain('>');
  await pane('lead').locator('.xterm').click();
  await page.keyboard.type('hello');
  await page.keyboard.press('Enter');
  await expect.poll(() => termText('lead'), { timeout: 30_000 }).toContain('scripted provider');
});

test('statuses change and a task moves across the board as a teammate works', async () => {
  d.cli('team', 'task', 'add', '--subject', 'build the parser');
  await expect(badge('alice')).toHaveText('working');
  await expect(pane('alice').locator('.pane-task')).toHaveText('task #1');
  await page.getByRole('button', { name: 'Tasks' }).click();
  await expect(page.locator('.board-col[data-column="completed"] [data-task="1"]')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Team', exact: true }).click();
  await expect(badge('alice')).toHaveText('idle');
  await expect.poll(() => termText('alice')).toContain('completed #1');
});

test('a task created in the UI appears on disk and is claimed', async () => {
  await page.getByRole('button', { name: 'Tasks' }).click();
  await page.getByRole('button', { name: 'New task' }).click();
  await page.locator('input[name="subject"]').fill('write the docs');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => {
    const f = path.join(d.teamDir, 'tasks/2.json');
    return fs.existsSync(f) ? (JSON.parse(fs.readFileSync(f, 'utf8')) as { subject: string }).subject : null;
  }).toBe('write the docs');
  await expect(page.locator('.board-col[data-column="completed"] [data-task="2"]')).toBeVisible({ timeout: 30_000 });
  expect((JSON.parse(fs.readFileSync(path.join(d.teamDir, 'tasks/2.json'), 'utf8')) as { owner: string }).owner).toBe('alice');
  d.cli('team', 'task', 'add', '--subject', 'review', '--owner', 'bob', '--blocked-by', '2');
  d.cli('team', 'task', 'add', '--subject', 'release', '--blocked-by', '3');
  await expect(page.locator('[data-task="4"].blocked')).toBeVisible();
  await expect(page.locator('[data-task="4"] .task-deps a')).toHaveAttribute('href', '#task-3');
  await page.screenshot({ path: path.join(ROOT, 'test-results/screenshots/board.png') });
  await page.getByRole('button', { name: 'Team', exact: true }).click();
});

test('the settings toggle writes settings.json and offers to restart the lead', async () => {
  await page.getByRole('button', { name: 'settings' }).click();
  const pill = page.getByRole('button', { name: 'Agent Teams' });
  await expect(pill).toHaveText('Off');
  await pill.click();
  await expect(pill).toHaveText('On');
  const settings = JSON.parse(fs.readFileSync(path.join(d.ws, '.thclaws/settings.json'), 'utf8')) as Record<string, unknown>;
  expect(settings).toEqual({ provider: 'scripted', teamEnabled: true });
  await expect(page.locator('.restart-notice')).toContainText('Restart the lead');
  await expect(page.getByTestId('effective-mode')).toContainText("In effect: host — the dashboard's lead always uses host (setting: auto)");
  await page.getByRole('button', { name: 'Close' }).click();
});

test('a dead teammate is shown dead and respawned by a click', async () => {
  await expect(badge('carol')).toHaveText('dead');
  await expect(page.locator('[data-testid="counts"]')).toContainText('1 dead');
  await pane('carol').getByRole('button', { name: 'Respawn' }).click();
  await expect(badge('carol')).not.toHaveText('dead');
  await expect(pane('carol').locator('.pane-readonly')).toHaveCount(0);
  // The respawned process is the real teammate (`thclaws --team-agent carol`, scripted provider): it waits
  // for its inbox, so a message from the pane's box starts a turn whose answer streams into the pane.
  await expect.poll(() => termText('carol'), { timeout: 30_000 }).toContain('waiting for messages');
  await pane('carol').locator('input').fill('hello');
  await pane('carol').getByRole('button', { name: 'Send' }).click();
  await expect.poll(() => termText('carol'), { timeout: 30_000 }).toContain('scripted provider');
  // Her turn's model calls are accounted in her status and pushed: tokens in the pane header, the scripted
  // provider costs nothing, and the header bar totals the team.
  await expect(pane('carol').getByTestId('pane-usage')).toHaveText(/^[\d.]+k? tok · \$0\.00$/);
  await expect(page.getByTestId('total-cost')).toHaveText('total $0.00');
  await pane('bob').locator('input').fill('please review #3');
  await pane('bob').getByRole('button', { name: 'Send' }).click();
  await expect(pane('bob').locator('.pane-queued')).toHaveText('✉ 1');
  await page.screenshot({ path: path.join(ROOT, 'test-results/screenshots/team.png') });
});

test('keyboard: help overlay, pane focus, maximise (hidden panes keep no terminal), tab switching', async () => {
  await page.locator('.team-name').click();
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'keyboard shortcuts' })).toContainText('maximise');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'keyboard shortcuts' })).toHaveCount(0);
  await page.keyboard.press('Alt+2');
  await expect(page.locator('.pane.focused')).toHaveAttribute('data-agent', 'alice');
  const written = (n: string) => page.evaluate((a) => (window as unknown as { __thclaws: { terminals: { written(a: string): number } } }).__thclaws.terminals.written(a), n);
  const leadText = await termText('lead');
  const leadWritten = await written('lead');
  await page.keyboard.press('Alt+m');
  await expect(page.locator('.pane')).toHaveCount(1);
  await expect(page.locator('.xterm')).toHaveCount(1);
  await expect.poll(() => termText('alice')).toContain('completed #2'); // the maximised pane re-rendered from its buffer
  await page.keyboard.press('Alt+m');
  await expect(page.locator('.pane')).toHaveCount(4);
  // The lead's pane is rebuilt from its buffer through the frame budget: same text, not counted (or acked) twice.
  await expect.poll(() => termText('lead')).toBe(leadText);
  expect(await written('lead')).toBe(leadWritten);
  await page.keyboard.press('Alt+b');
  await expect(page.locator('.board')).toBeVisible();
  await expect(page.locator('.xterm')).toHaveCount(0);
  await page.keyboard.press('Alt+t');
  await expect(page.locator('.xterm')).toHaveCount(4);
  // A window resize refits the terminals (the fit runs only when a pane's box really changed size).
  const cols = () => page.evaluate(() => (window as unknown as { __thclaws: { terminals: { size(a: string): { cols: number } } } }).__thclaws.terminals.size('lead').cols);
  const wide = await cols();
  const viewport = page.viewportSize()!;
  await page.setViewportSize({ width: Math.round(viewport.width * 0.6), height: viewport.height });
  await expect.poll(cols).toBeLessThan(wide);
  await page.setViewportSize(viewport);
  await expect.poll(cols).toBe(wide);
});

test('a second window hiding its panes stops sizing their ptys, and sizes them again when it shows them', async ({ browser }) => {
  const second = await browser.newPage();
  const sent: string[] = [];
  second.on('websocket', (ws) => ws.on('framesent', (f) => typeof f.payload === 'string' && sent.push(f.payload)));
  await second.goto(d.url);
  await expect(second.locator('.pane[data-agent="lead"] .xterm')).toBeVisible();
  const about = (type: string) => sent.filter((m) => m.includes(`"type":"${type}"`) && m.includes('"agent":"lead"')).length;
  await expect.poll(() => about('resize')).toBeGreaterThan(0);
  await second.locator('.team-name').click();
  await second.keyboard.press('Alt+b');
  await expect.poll(() => about('unsize')).toBe(1);
  const resizes = about('resize');
  await second.keyboard.press('Alt+t');
  await expect.poll(() => about('resize')).toBeGreaterThan(resizes);
  await second.close();
});

test('requests without the token are refused', async ({ request }) => {
  expect((await request.get(d.base + '/')).status()).toBe(403);
  expect((await request.get(d.base + '/?token=nope')).status()).toBe(403);
  expect((await request.get(d.url)).status()).toBe(200);
});

test('a teammate waiting on its spending budget says so in its pane header, with the budget and how to raise it', async () => {
  const { TeamStore } = await import('../src/core/store/index.js');
  const store = new TeamStore(d.teamDir);
  const reason = "budget reached — alice's budget: 60 tokens of 55 tokens (109 %)";
  await store.statuses.write('alice', { budget_reached: reason } as never);
  const flag = pane('alice').locator('.pane-budget');
  await expect(flag).toHaveText('budget reached');
  await expect(flag).toHaveAttribute('title', `${reason}; raise it with thclaws team budget alice --usd N | --tokens N`);
  for (const [w, h] of [[1440, 900], [390, 844]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: path.join(ROOT, `test-results/screenshots/budget-reached-${w}x${h}.png`) });
  }
  await page.setViewportSize({ width: 1400, height: 900 });
  await store.statuses.write('alice', { budget_reached: null } as never);
  await expect(flag).toHaveCount(0);
});
