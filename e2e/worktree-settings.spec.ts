/**
 * The dashboard's "New worktrees" settings change what a spawn does, with real processes: the person types a
 * setup command in Settings, starts a worktree teammate from the page's host, and the command ran once in its
 * new worktree with the teammate's own $PORT; the card shows that block of ports (1440 and 390 wide).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { TeamStore } from '../src/core/store/index.js';
import { trustFolder } from '../src/core/agent/trust.js';
import { dashboardReady, makeTeamWorkspace, ROOT, THCLAWS, waitFor } from '../test/desktop/helpers.js';
import { tearDownDashboard } from './fixture.js';
import { TermView } from '../test/desktop/term-view.js';

const SHOTS = path.join(ROOT, 'test-results', 'screens');

let ws: string;
let env: NodeJS.ProcessEnv;
let dash: ChildProcess;
let url: string;
let hostPid: number;
let page: Page;

test.beforeAll(async ({ browser }) => {
  ws = fs.realpathSync(makeTeamWorkspace(['wkr']));
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init'], { cwd: ws });
  await TeamStore.forWorkspace(ws).config.update((c) => {
    c.members[0]!.isolation = 'worktree';
  });
  fs.writeFileSync(path.join(ws, '.thclaws', 'settings.json'), JSON.stringify({ provider: 'scripted', teamEnabled: true }));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-wtset-home-'));
  env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-wtset-rt-')) };
  for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];
  // A project's setup command counts only in a trusted folder (it runs unasked).
  trustFolder(ws, env);
  const script = path.join(home, 'script.json');
  fs.writeFileSync(script, JSON.stringify({ rules: [{ match: 'never said', turns: [{ text: 'OK' }] }], fallback: [{ text: 'OK' }] }));
  dash = spawn(THCLAWS, ['dashboard', '--dir', ws, '--port', '0', '--lead-script', script], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  ({ url, hostPid } = await dashboardReady(dash, { hostPid: true }));
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(url);
});

test.afterAll(async () => {
  await tearDownDashboard({ page, dash, ws, env, hostPid });
});

test("a setup command typed in Settings runs in the next teammate's new worktree with its $PORT; the card shows its ports", async () => {
  test.setTimeout(120_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.getByRole('button', { name: '⚙' }).click();
  const setup = page.getByLabel('worktree setup command');
  await setup.fill('echo "port $PORT" >> .setup-ran');
  await setup.blur();
  const settings = path.join(ws, '.thclaws', 'settings.json');
  await waitFor(() => (JSON.parse(fs.readFileSync(settings, 'utf8')) as { worktree?: { setup?: string } }).worktree?.setup === 'echo "port $PORT" >> .setup-ran', 'the setting saved');
  await page.getByRole('button', { name: 'Close' }).click();

  const v = await TermView.overWebSocket(url);
  await v.request({ type: 'subscribe' });
  expect(await v.request({ type: 'member_start', name: 'wkr' })).toMatchObject({ ok: true });
  v.close();
  const ran = path.join(ws, '.worktrees', 'wkr', '.setup-ran');
  await waitFor(() => fs.existsSync(ran), 'the setup command to run', 60_000);
  const ports = (await TeamStore.forWorkspace(ws).config.require()).members[0]!.ports!;
  expect(fs.readFileSync(ran, 'utf8')).toBe(`port ${ports.base}\n`);

  // The bootstrap's lines are in its pane, above what the teammate then prints.
  const pane = () => page.evaluate(() => (window as unknown as { __thclaws: { terminals: { text(a: string): string } } }).__thclaws.terminals.text('wkr'));
  await expect.poll(pane, { timeout: 30_000 }).toContain('[worktree] $ echo "port $PORT" >> .setup-ran');
  await expect.poll(pane, { timeout: 30_000 }).toMatch(/\[worktree\] setup done in \d+ ms/);
  const card = page.locator('[data-agent="wkr"] [data-testid="pane-ports"]');
  await expect(card).toHaveText(`ports ${ports.base}–${ports.base + 9}`);
  await expect(page.locator('[data-agent="lead"] [data-testid="pane-ports"]')).toHaveText('ports 4100–4109');
  await page.screenshot({ path: path.join(SHOTS, 'worktree-ports-1440.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(card).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.locator('[data-agent="wkr"] .pane-head').screenshot({ path: path.join(SHOTS, 'worktree-ports-390.png') });
});

test('one card with all of it: its ports, CPU/memory/disk, N behind main and Update; stopped, Archive (both sizes)', async () => {
  test.setTimeout(120_000);
  const shots = process.env.THCLAWS_SHOTS_DIR ?? SHOTS;
  fs.mkdirSync(shots, { recursive: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'landed meanwhile'], { cwd: ws });
  const head = page.locator('[data-agent="wkr"] .pane-head');
  await expect(head.getByTestId('pane-behind')).toHaveText(/^1 behind (main|master)$/, { timeout: 20_000 });
  await expect(head.getByTestId('pane-costs')).toHaveText(/^CPU \d+% · \d+ MB · disk \d+ (KB|MB)$/, { timeout: 40_000 });
  await expect(head.getByRole('button', { name: 'Update' })).toBeEnabled();
  for (const [w, h] of [[1440, 900], [390, 844]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await head.screenshot({ path: path.join(shots, `worktree-card-all-${w}.png`) });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await head.getByRole('button', { name: 'Stop' }).click();
  await expect(head.getByRole('button', { name: 'Archive' })).toBeVisible({ timeout: 20_000 });
  for (const [w, h] of [[1440, 900], [390, 844]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await head.screenshot({ path: path.join(shots, `worktree-card-stopped-${w}.png`) });
    // Respawn, Update, Archive, Edit, Remove and Max: none is cut off by the header's edge (on a phone they wrap;
    // on a wide window the header keeps one line, with compact buttons).
    const clipped = await head.evaluate((h) => {
      const r = h.getBoundingClientRect();
      return [...h.querySelectorAll('button')].filter((b) => {
        const x = b.getBoundingClientRect();
        return x.width === 0 || x.right > r.right + 0.5 || x.bottom > r.bottom + 0.5;
      }).map((b) => b.textContent);
    });
    expect(clipped, `cut off at ${w}`).toEqual([]);
  }
});
