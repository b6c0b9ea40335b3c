/**
 * The dashboard as people use it, in real Chromium through `thclaws dashboard`: terminals that render like a
 * terminal (bare line feeds of a read-only tail, the bundled font), the keyboard (F6 leaves a terminal,
 * dialogs keep and give back focus, announcements), a phone (390×844, touch) beside the desktop view — the
 * phone attaching never reflows the desktop's terminal, typing on it makes it the pty's size — and an axe
 * scan of every view at both sizes. Screenshots go to test-results/screens (ignored by git).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { ROOT, THCLAWS } from '../test/desktop/helpers.js';
import { startDashboard, type Dashboard } from './fixture.js';

let d: Dashboard;
let desk: Page;
let phone: Page;
const teammates: ChildProcess[] = [];
const deskFrames: string[] = [];
const SHOTS = path.join(ROOT, 'test-results', 'screens');

// Several pages and real agents on a shared 2-core machine: generous time per step.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const SCRIPT = {
  rules: [{ match: 'Task #1 —', turns: [{ text: 'work', tool_calls: [{ name: 'Bash', input: { command: 'touch phone-approved.txt' } }, { name: 'TeamTaskComplete', input: { task_id: '1', summary: 'done' } }] }, { text: 'end' }] }],
  fallback: [{ text: 'ok' }],
};

function startTeammate(name: string): void {
  const home = path.join(d.ws, '.home');
  const script = path.join(home, 'script.json');
  fs.writeFileSync(script, JSON.stringify(SCRIPT));
  teammates.push(
    spawn(THCLAWS, ['--team-agent', name, '--script', script], {
      cwd: d.ws,
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), THCLAWS_TEAM_DIR: d.teamDir },
      stdio: 'ignore',
    }),
  );
}

async function openPhone(browser: Browser): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  const p = await ctx.newPage();
  await p.goto(d.url);
  await expect(p.locator('.pane[data-agent="lead"] .xterm')).toBeVisible();
  return p;
}

type Win = { __thclaws: { terminals: { text(a: string): string; shownSize(a: string): { cols: number; rows: number } | null; size(a: string): { cols?: number; rows?: number } } } };
const termText = (p: Page, name: string) => p.evaluate((n) => (window as unknown as Win).__thclaws.terminals.text(n), name);
const shown = (p: Page, name: string) => p.evaluate((n) => (window as unknown as Win).__thclaws.terminals.shownSize(n), name);
const own = (p: Page, name: string) => p.evaluate((n) => (window as unknown as Win).__thclaws.terminals.size(n), name);
/** Where focus is: the pane (agent) whose terminal has it, else the region or control's label. */
const focusAt = (p: Page) =>
  p.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    if (!a) return 'none';
    const pane = a.closest<HTMLElement>('.pane');
    if (pane && a.closest('.xterm')) return `terminal:${pane.dataset.agent}`;
    if (a.closest('[role="dialog"]')) return `dialog:${a.closest('[role="dialog"]')!.getAttribute('aria-label')}`;
    return a.getAttribute('aria-label') ?? a.tagName.toLowerCase();
  });

async function serious(p: Page, what: string): Promise<string[]> {
  const r = await new AxeBuilder({ page: p }).analyze();
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${what}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

test.beforeAll(async ({ browser }) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  d = await startDashboard(['alice', 'bob', 'carol'], { teamEnabled: true, teammatePermissionMode: 'ask' });
  desk = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  desk.on('websocket', (ws) => ws.on('framesent', (f) => typeof f.payload === 'string' && deskFrames.push(f.payload)));
  await desk.goto(d.url);
  await expect(desk.locator('.pane[data-agent="lead"] .xterm')).toBeVisible();
});

test.afterAll(async () => {
  for (const c of teammates) c.kill('SIGKILL');
  await phone?.context().close();
  await desk?.context().close();
  await d?.stop();
});

test('a read-only tail of a log written with bare line feeds shows each line from column 0, in the bundled font', async () => {
  // carol runs elsewhere (background mode): her own process appends to output.log with "\n" only, one
  // line split across two writes so a "\r\n" boundary is never doubled.
  const log = path.join(d.teamDir, 'agents', 'carol', 'output.log');
  fs.mkdirSync(path.dirname(log), { recursive: true });
  fs.appendFileSync(log, 'carol: first line\ncarol: second ⎿ line\r');
  await expect.poll(() => termText(desk, 'carol')).toContain('second');
  fs.appendFileSync(log, '\ncarol: third line\n');
  await expect.poll(() => termText(desk, 'carol')).toContain('third line');
  const lines = (await termText(desk, 'carol')).split('\n').filter((l) => l.includes('carol:'));
  expect(lines).toEqual(['carol: first line', 'carol: second ⎿ line', 'carol: third line']);
  expect((await termText(desk, 'carol')).split('\n').filter((l) => l.trim() === '').length).toBeGreaterThan(0); // and no line was doubled
  // The terminal font is the bundled one (no network, no system font needed), loaded before xterm measured it.
  const fonts = await desk.evaluate(() => ({
    family: getComputedStyle(document.querySelector('.pane[data-agent="carol"] .xterm-rows')!).fontFamily,
    dejavu: document.fonts.check('12px "DejaVu Mono"', '─●✻'),
    maple: document.fonts.check('12px "Maple Mono"', '⎿'),
  }));
  expect(fonts).toEqual({ family: expect.stringContaining('DejaVu Mono'), dejavu: true, maple: true });
});

test('F6 and Shift+F6 move focus out of a terminal and through the regions; Tab and Escape stay with the REPL', async () => {
  await desk.locator('.pane[data-agent="lead"] .xterm').click();
  expect(await focusAt(desk)).toBe('terminal:lead');
  await desk.keyboard.press('Tab');
  await desk.keyboard.press('Escape');
  expect(await focusAt(desk)).toBe('terminal:lead');
  // Back through the budgets, the team bar and the approvals to the header, and forward again.
  for (const region of ['budgets', 'team', 'approvals', 'team header']) {
    await desk.keyboard.press('Shift+F6');
    expect(await focusAt(desk)).toBe(region);
  }
  for (let i = 0; i < 4; i++) await desk.keyboard.press('F6');
  expect(await focusAt(desk)).toBe('terminal:lead');
  await desk.keyboard.press('F6');
  expect(await focusAt(desk)).toBe('terminal:alice');
  // The REPL got Tab and Escape, never F6 (xterm would have sent ESC [ 1 7 ~).
  const input = deskFrames.filter((f) => f.includes('"type":"input"') && f.includes('"agent":"lead"'));
  expect(input.some((f) => f.includes('"data":"\\t"'))).toBe(true);
  expect(input.some((f) => f.includes('"data":"\\u001b"'))).toBe(true);
  expect(input.some((f) => f.includes('[17~'))).toBe(false);
});

test('dialogs take focus, keep Tab inside, and give focus back on close; help lists every shortcut', async () => {
  await desk.locator('.pane[data-agent="lead"] .xterm').click();
  for (let i = 0; i < 4; i++) await desk.keyboard.press('Shift+F6'); // budgets, team bar, approvals, the header region
  await desk.keyboard.press('?');
  const help = desk.getByRole('dialog', { name: 'keyboard shortcuts' });
  await expect(help).toBeVisible();
  expect(await focusAt(desk)).toBe('dialog:keyboard shortcuts');
  for (const k of ['F6 / Shift+F6', 'a / d', 'j / k', 'Alt+M', 'Esc']) await expect(help.locator('kbd', { hasText: k }).first()).toBeVisible();
  await desk.screenshot({ path: path.join(SHOTS, 'help-1440.png') });
  for (let i = 0; i < 5; i++) await desk.keyboard.press('Tab');
  expect(await focusAt(desk)).toBe('dialog:keyboard shortcuts');
  await desk.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  expect(await focusAt(desk)).toBe('team header');
  const gear = desk.getByRole('button', { name: 'settings' });
  await gear.click();
  await expect(desk.getByRole('dialog', { name: 'settings' })).toBeVisible();
  expect(await focusAt(desk)).toBe('dialog:settings');
  for (let i = 0; i < 12; i++) await desk.keyboard.press('Shift+Tab');
  expect(await focusAt(desk)).toBe('dialog:settings');
  await desk.screenshot({ path: path.join(SHOTS, 'settings-1440.png') });
  await desk.keyboard.press('Escape');
  await expect(desk.getByRole('dialog', { name: 'settings' })).toHaveCount(0);
  expect(await desk.evaluate(() => document.activeElement?.classList.contains('gear'))).toBe(true);
});

let deskSize: { cols: number; rows: number };
const overflow = () => phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test('a phone (390×844, touch) attaches without reflowing the desktop; its menu reaches ? and ⚙, whose dialogs fit', async ({ browser }) => {
  // The desktop is in use: its terminal has focus, so the lead's pty has its size.
  await desk.locator('.pane[data-agent="lead"] .xterm').click();
  await expect.poll(() => shown(desk, 'lead')).toEqual(await own(desk, 'lead'));
  deskSize = (await shown(desk, 'lead'))!;
  expect(deskSize.cols).toBeGreaterThan(60);
  phone = await openPhone(browser);
  // The phone shows the pty at the desktop's size (scrolling sideways), and the desktop did not change.
  await expect.poll(() => shown(phone, 'lead')).toEqual(deskSize);
  expect((await own(phone, 'lead')).cols).toBeLessThan(deskSize.cols);
  expect(await shown(desk, 'lead')).toEqual(deskSize);
  expect(await overflow()).toBeLessThanOrEqual(0);
  await phone.screenshot({ path: path.join(SHOTS, 'team-390.png') });
  // Tab follows what the eye reads: the header's controls, in Tab (DOM) order, never go back up a row.
  const order = await phone.locator('header.topbar').evaluate((h) =>
    [...h.querySelectorAll('button, select, input, a[href]')]
      .filter((e) => (e as HTMLElement).offsetParent !== null)
      .map((e) => ({ name: (e.textContent ?? '').trim().slice(0, 24), y: Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2) })),
  );
  expect(order.length).toBeGreaterThan(3);
  order.slice(1).forEach((cur, i) => expect(cur.y, `"${cur.name}" is tabbed to after "${order[i]!.name}", above it`).toBeGreaterThanOrEqual(order[i]!.y - 12));

  // The header's controls are in a menu; ? and ⚙ are reachable and their dialogs fit the screen.
  await expect(phone.getByRole('button', { name: 'settings' })).toBeHidden();
  await phone.getByRole('button', { name: 'Menu' }).tap();
  await expect(phone.getByRole('button', { name: 'settings' })).toBeVisible();
  await expect(phone.getByRole('button', { name: 'keyboard shortcuts' })).toBeVisible();
  await phone.screenshot({ path: path.join(SHOTS, 'menu-390.png') });
  await phone.getByRole('button', { name: 'settings' }).tap();
  const dialog = phone.getByRole('dialog', { name: 'settings' });
  await expect(dialog).toBeVisible();
  const box = (await dialog.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await phone.screenshot({ path: path.join(SHOTS, 'settings-390.png') });
  expect(await serious(phone, 'settings 390')).toEqual([]);
  await dialog.getByRole('button', { name: 'Close' }).tap();
  await phone.getByRole('button', { name: 'Menu' }).tap();
  await phone.getByRole('button', { name: 'keyboard shortcuts' }).tap();
  const help = phone.getByRole('dialog', { name: 'keyboard shortcuts' });
  await expect(help).toBeVisible();
  const hb = (await help.boundingBox())!;
  expect(hb.x + hb.width).toBeLessThanOrEqual(390);
  await phone.screenshot({ path: path.join(SHOTS, 'help-390.png') });
  expect(await serious(phone, 'help 390')).toEqual([]);
  await help.getByRole('button', { name: 'Close' }).tap();
  expect(await shown(desk, 'lead')).toEqual(deskSize);
});

test('on the phone: a new approval is announced and approved by a tap on a large, full-width button', async () => {
  // An approval arrives: announced, a full-width card with large buttons; a tap approves it.
  startTeammate('alice');
  d.cli('team', 'task', 'add', '--subject', 'touch a file', '--owner', 'alice');
  const card = phone.locator('.approval', { hasText: 'touch phone-approved.txt' });
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(phone.getByTestId('announce-polite')).toHaveText(/alice asks to use Bash: touch phone-approved\.txt/);
  await expect(desk.getByTestId('announce-polite')).toHaveText(/alice asks to use Bash/);
  const approve = card.getByRole('button', { name: 'Approve', exact: true });
  const ab = (await approve.boundingBox())!;
  expect(ab.height).toBeGreaterThanOrEqual(44);
  expect((await card.boundingBox())!.width).toBeGreaterThan(340);
  expect(await overflow()).toBeLessThanOrEqual(0);
  await phone.screenshot({ path: path.join(SHOTS, 'approvals-390.png') });
  await desk.screenshot({ path: path.join(SHOTS, 'approvals-1440.png') });
  expect([...(await serious(phone, 'approvals 390')), ...(await serious(desk, 'approvals 1440'))]).toEqual([]);
  await approve.tap();
  await expect.poll(() => fs.existsSync(path.join(d.ws, 'phone-approved.txt')), { timeout: 30_000 }).toBe(true);
});

test('on the phone: a message is sent, and the board shows its columns as tabs; the desktop terminal kept its size', async () => {
  // A message from the phone reaches bob's inbox.
  const bob = phone.locator('.pane[data-agent="bob"]');
  await bob.scrollIntoViewIfNeeded();
  await bob.getByRole('textbox', { name: 'message bob' }).fill('from the phone');
  await bob.getByRole('button', { name: 'Send' }).tap();
  await expect.poll(() => d.cli('team', 'inbox', 'bob')).toContain('from the phone');

  // The board's columns are tabs, one column at a time.
  await phone.getByRole('button', { name: 'Tasks' }).tap();
  await expect(phone.getByRole('tablist', { name: 'task columns' })).toBeVisible();
  await phone.getByRole('tab', { name: /Completed/ }).tap();
  await expect(phone.locator('.board-col')).toHaveCount(1);
  await expect(phone.locator('.board-col[data-column="completed"] [data-task="1"]')).toBeVisible({ timeout: 30_000 });
  expect(await overflow()).toBeLessThanOrEqual(0);
  await phone.screenshot({ path: path.join(SHOTS, 'board-390.png') });
  expect(await serious(phone, 'board 390')).toEqual([]);
  await phone.getByRole('button', { name: 'Team', exact: true }).tap();
  // All the while the desktop's terminal kept its size.
  expect(await shown(desk, 'lead')).toEqual(deskSize);
});

test('typing on the phone makes its size the pty size; the desktop shows it at that size until it is used again', async () => {
  await phone.locator('.pane[data-agent="lead"] .xterm').tap();
  await phone.keyboard.type('x');
  const phoneOwn = await own(phone, 'lead');
  await expect.poll(() => shown(desk, 'lead')).toEqual(phoneOwn);
  await expect.poll(() => shown(phone, 'lead')).toEqual(phoneOwn);
  await phone.keyboard.press('Backspace');
  await desk.screenshot({ path: path.join(SHOTS, 'team-1440-phone-sized.png') });
  // The person comes back to the desktop: focusing its terminal takes the size back.
  await desk.locator('.pane[data-agent="alice"] .xterm').click();
  await desk.locator('.pane[data-agent="lead"] .xterm').click();
  await expect.poll(() => shown(desk, 'lead')).toEqual(await own(desk, 'lead'));
});

test('axe finds no serious or critical violation in the team, board and dialogs at 1440×900 and 390×844', async () => {
  const found: string[] = [];
  await desk.locator('.team-name').click();
  await desk.screenshot({ path: path.join(SHOTS, 'team-1440.png') });
  found.push(...(await serious(desk, 'team 1440')), ...(await serious(phone, 'team 390')));
  await desk.keyboard.press('Alt+b');
  await expect(desk.locator('.board')).toBeVisible();
  await desk.screenshot({ path: path.join(SHOTS, 'board-1440.png') });
  found.push(...(await serious(desk, 'board 1440')));
  await desk.keyboard.press('Alt+t');
  await desk.getByRole('button', { name: 'settings' }).click();
  found.push(...(await serious(desk, 'settings 1440')));
  await desk.keyboard.press('Escape');
  await desk.locator('.team-name').click();
  await desk.keyboard.press('?');
  found.push(...(await serious(desk, 'help 1440')));
  await desk.keyboard.press('Escape');
  expect(found).toEqual([]);
});
