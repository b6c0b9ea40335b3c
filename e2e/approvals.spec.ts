/**
 * The approval inbox in real Chromium through `thclaws dashboard`: real teammate processes (scripted provider,
 * `ask` mode) ask, the person clicks. Approve runs the tool (the file appears), Deny does not; a plan is
 * rejected with feedback, the revised plan approved, and the teammate proceeds; the badge counts down.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ROOT, THCLAWS } from '../test/desktop/helpers.js';
import { startDashboard, type Dashboard } from './fixture.js';

let d: Dashboard;
let page: Page;
const teammates: ChildProcess[] = [];

test.describe.configure({ mode: 'serial' });

const complete = (id: string) => ({ name: 'TeamTaskComplete', input: { task_id: id, summary: 'done' } });
const SCRIPT = {
  rules: [
    { match: 'Task #1 —', turns: [{ text: 'work', tool_calls: [{ name: 'Bash', input: { command: 'touch approved.txt' } }, { name: 'Bash', input: { command: 'touch denied.txt' } }, complete('1')] }, { text: 'end' }] },
    {
      match: 'Task #2 —',
      turns: [
        { text: 'plan', tool_calls: [{ name: 'SubmitPlan', input: { plan: '# Plan v1\n\n- **write** plan-done.txt' } }] },
        { text: 'revised', tool_calls: [{ name: 'SubmitPlan', input: { plan: '# Plan v2\n\n1. write plan-done.txt\n2. add a test\n\n<script>window.pwned = 1</script>' } }] },
        { text: 'go', tool_calls: [{ name: 'Bash', input: { command: 'touch plan-done.txt' } }, complete('2')] },
        { text: 'end' },
      ],
    },
    { match: 'Task #3 —', turns: [{ text: 'a', tool_calls: [{ name: 'Bash', input: { command: 'touch always-1.txt' } }, { name: 'Bash', input: { command: 'touch always-1.txt always-2.txt' } }, { name: 'Bash', input: { command: 'mkdir other-rule' } }, complete('3')] }, { text: 'end' }] },
    { match: 'Task #4 —', turns: [{ text: 'j', tool_calls: [{ name: 'Bash', input: { command: 'touch key-alice.txt' } }, complete('4')] }, { text: 'end' }] },
    { match: 'Task #5 —', turns: [{ text: 'k', tool_calls: [{ name: 'Bash', input: { command: 'touch key-bob.txt' } }, complete('5')] }, { text: 'end' }] },
    { match: 'Task #6 —', turns: [{ text: 'c', tool_calls: [{ name: 'Bash', input: { command: 'touch by-cli.txt' } }, { name: 'Bash', input: { command: 'touch by-click.txt' } }, complete('6')] }, { text: 'end' }] },
    { match: 'Task #7 —', turns: [{ text: 'n', tool_calls: [{ name: 'Bash', input: { command: 'touch seen-focused.txt' } }, { name: 'Bash', input: { command: 'touch seen-unfocused.txt' } }, complete('7')] }, { text: 'end' }] },
  ],
  fallback: [{ text: 'ok' }],
};

function startTeammate(name: string, env: Record<string, string> = {}): void {
  const script = path.join(d.ws, '.home', 'script.json');
  fs.writeFileSync(script, JSON.stringify(SCRIPT));
  const home = path.join(d.ws, '.home');
  const c = spawn(THCLAWS, ['--team-agent', name, '--script', script], {
    cwd: d.ws,
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), THCLAWS_TEAM_DIR: d.teamDir, ...env },
    stdio: 'ignore',
  });
  teammates.push(c);
}

test.beforeAll(async ({ browser }) => {
  // Teams on, so the dashboard's lead takes the team (and its epoch); teammates ask (the default, stated).
  d = await startDashboard(['alice', 'bob'], { teamEnabled: true, teammatePermissionMode: 'ask' });
  // A context of our own: the notification test opens a second page in it to take the focus away.
  page = await (await browser.newContext()).newPage();
  await page.goto(d.url);
  await expect(page.locator('.pane[data-agent="lead"]')).toBeVisible();
});

test.afterAll(async () => {
  for (const c of teammates) c.kill('SIGKILL');
  await page?.context().close();
  await d?.stop();
});

const card = (text: string) => page.locator('.approval', { hasText: text });
const badge = () => page.getByTestId('approvals-badge');
const exists = (f: string) => fs.existsSync(path.join(d.ws, f));
/** Whether a teammate's saved conversation (its transcript under the workspace) holds `text`: what the model was told. */
const told = (text: string) =>
  (fs.readdirSync(path.join(d.ws, '.thclaws'), { recursive: true, encoding: 'utf8' }) as string[])
    .filter((f) => f.endsWith('.jsonl'))
    .some((f) => fs.readFileSync(path.join(d.ws, '.thclaws', f), 'utf8').includes(text));

test('a permission request appears; Approve runs the tool, Deny does not; the badge counts down', async () => {
  startTeammate('alice');
  d.cli('team', 'task', 'add', '--subject', 'touch files', '--owner', 'alice');
  await expect(card('touch approved.txt')).toBeVisible({ timeout: 30_000 });
  await expect(card('touch approved.txt').locator('.approval-agent')).toHaveText('alice');
  await expect(card('touch approved.txt')).toContainText(`in ${d.ws}`);
  await expect(badge()).toHaveText('approvals: 1');
  await expect(page.locator('.pane[data-agent="alice"] .pane-waiting')).toBeVisible();
  expect(exists('approved.txt')).toBe(false);
  await card('touch approved.txt').getByRole('button', { name: 'Approve', exact: true }).click();
  await expect.poll(() => exists('approved.txt')).toBe(true);
  await expect(card('touch denied.txt')).toBeVisible();
  await card('touch denied.txt').locator('.approval-feedback').fill('not this one');
  await card('touch denied.txt').getByRole('button', { name: 'Deny', exact: true }).click();
  await expect(badge()).toHaveText('approvals: 0');
  await expect.poll(() => d.cli('team', 'tasks'), { timeout: 30_000 }).toMatch(/1\s+completed/);
  expect(exists('denied.txt')).toBe(false);
  // The CLI sees the same (nothing pending), and the teammate was told why.
  expect(d.cli('team', 'approvals')).toContain('(no pending approvals)');
  await expect.poll(() => told('denied by the person: not this one')).toBe(true);
});

test('a plan is rendered as Markdown, rejected with feedback, revised, approved; the teammate proceeds (keyboard approve)', async () => {
  startTeammate('bob', { THCLAWS_PLAN_MODE: '1' });
  d.cli('team', 'task', 'add', '--subject', 'planned work', '--owner', 'bob');
  const v1 = page.locator('.approval[data-kind="plan"]', { hasText: 'Plan v1' });
  await expect(v1).toBeVisible({ timeout: 30_000 });
  await expect(v1.locator('.markdown h3')).toHaveText('Plan v1');
  await expect(v1.locator('.markdown li strong')).toHaveText('write');
  await expect(v1.locator('.approval-tool')).toHaveText('plan · attempt 1');
  await v1.locator('.approval-feedback').fill('add a test too');
  await v1.getByRole('button', { name: 'Reject', exact: true }).click();
  const v2 = page.locator('.approval[data-kind="plan"]', { hasText: 'Plan v2' });
  await expect(v2).toBeVisible();
  await expect(v2.locator('.approval-tool')).toHaveText('plan · attempt 2');
  // HTML in a plan is shown as text, never run.
  await expect(v2).toContainText('<script>window.pwned = 1</script>');
  expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
  await page.screenshot({ path: path.join(ROOT, 'test-results/screenshots/approvals.png') });
  await v2.locator('.approval-feedback').fill('keep it small');
  await v2.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(card('touch plan-done.txt')).toBeVisible();
  await expect.poll(() => told('with a note: keep it small')).toBe(true); // an approval's note reaches the teammate too
  await expect(card('touch plan-done.txt')).toHaveClass(/selected/);
  await page.locator('.team-name').click();
  await page.keyboard.press('a');
  await expect.poll(() => exists('plan-done.txt')).toBe(true);
  await expect(badge()).toHaveText('approvals: 0');
});

test('Always: a later request of the same rule does not ask; a different rule still asks', async () => {
  d.cli('team', 'task', 'add', '--subject', 'always', '--owner', 'alice');
  await expect(card('touch always-1.txt')).toBeVisible({ timeout: 30_000 });
  await card('touch always-1.txt').getByRole('button', { name: 'Always allow Bash(touch always-1.txt:*) for alice' }).click();
  // The same rule ran without a card; the next card is the other rule's.
  await expect(card('mkdir other-rule')).toBeVisible({ timeout: 30_000 });
  expect(exists('always-2.txt')).toBe(true);
  await expect(card('touch always-1.txt always-2.txt')).toHaveCount(0);
  await expect(badge()).toHaveText('approvals: 1');
  await card('mkdir other-rule').getByRole('button', { name: 'Approve', exact: true }).click();
  await expect.poll(() => exists('other-rule')).toBe(true);
  const local = JSON.parse(fs.readFileSync(path.join(d.ws, '.thclaws', 'settings.local.json'), 'utf8')) as { teammates: Record<string, { allow: string[] }> };
  expect(local.teammates.alice!.allow).toEqual(['Bash(touch always-1.txt:*)']);
});

test('keyboard: j/k move the selection between two requests, d denies the selected one, a approves the next', async () => {
  d.cli('team', 'task', 'add', '--subject', 'keys a', '--owner', 'alice');
  await expect(card('touch key-alice.txt')).toBeVisible({ timeout: 30_000 });
  d.cli('team', 'task', 'add', '--subject', 'keys b', '--owner', 'bob');
  await expect(card('touch key-bob.txt')).toBeVisible({ timeout: 30_000 });
  await expect(badge()).toHaveText('approvals: 2');
  await page.locator('.team-name').click();
  const selected = page.locator('.approval.selected');
  await expect(selected).toHaveCount(1);
  await expect(selected).toContainText('touch key-alice.txt');
  await page.keyboard.press('j');
  await expect(selected).toContainText('touch key-bob.txt');
  await page.keyboard.press('k');
  await expect(selected).toContainText('touch key-alice.txt');
  await page.keyboard.press('j');
  await page.keyboard.press('d');
  await expect(card('touch key-bob.txt')).toHaveCount(0);
  await expect(selected).toContainText('touch key-alice.txt');
  await page.keyboard.press('a');
  await expect.poll(() => exists('key-alice.txt')).toBe(true);
  await expect(badge()).toHaveText('approvals: 0');
  expect(exists('key-bob.txt')).toBe(false);
});

test('an answer in the CLI removes the card from the open dashboard; a click empties the CLI list', async () => {
  d.cli('team', 'task', 'add', '--subject', 'cli', '--owner', 'alice');
  await expect(card('touch by-cli.txt')).toBeVisible({ timeout: 30_000 });
  const id = (await card('touch by-cli.txt').getAttribute('data-request'))!;
  expect(d.cli('team', 'approvals')).toContain(id);
  d.cli('team', 'approve', id);
  await expect(page.locator(`.approval[data-request="${id}"]`)).toHaveCount(0);
  await expect.poll(() => exists('by-cli.txt')).toBe(true);
  await expect(card('touch by-click.txt')).toBeVisible({ timeout: 30_000 });
  const second = (await card('touch by-click.txt').getAttribute('data-request'))!;
  expect(d.cli('team', 'approvals')).toContain(second);
  await card('touch by-click.txt').getByRole('button', { name: 'Approve', exact: true }).click();
  await expect.poll(() => d.cli('team', 'approvals')).toContain('(no pending approvals)');
  await expect.poll(() => exists('by-click.txt')).toBe(true);
});

test('a desktop notification is shown for a request that arrives while the window is not focused, not while it is', async () => {
  await page.context().grantPermissions(['notifications'], { origin: new URL(d.url).origin });
  // Playwright makes every page think it has focus; without that emulation a page behind another has none.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: false });
  await page.bringToFront();
  const shown = () => page.evaluate(() => (window as unknown as { __approvalNotifications?: string[] }).__approvalNotifications ?? []);
  d.cli('team', 'task', 'add', '--subject', 'notify', '--owner', 'bob');
  await expect(card('touch seen-focused.txt')).toBeVisible({ timeout: 30_000 });
  expect(await page.evaluate(() => document.hasFocus())).toBe(true);
  await card('touch seen-focused.txt').getByRole('button', { name: 'Approve', exact: true }).click();
  const other = await page.context().newPage();
  await other.bringToFront();
  await expect.poll(() => page.evaluate(() => document.hasFocus())).toBe(false);
  await expect.poll(shown, { timeout: 30_000 }).toHaveLength(1);
  const [id] = await shown();
  const pending = d.cli('team', 'approvals');
  expect(pending).toContain(id);
  expect(pending).toContain('touch seen-unfocused.txt');
  await other.close();
  await page.bringToFront();
  await card('touch seen-unfocused.txt').getByRole('button', { name: 'Approve', exact: true }).click();
  await expect.poll(() => exists('seen-unfocused.txt')).toBe(true);
  expect(await shown()).toHaveLength(1);
  await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true });
});

test('Settings: "Auto-allow sandboxed Bash" is off by default and its switch writes autoAllowSandboxedBash', async () => {
  await page.getByRole('button', { name: 'settings' }).click();
  const pill = page.getByRole('button', { name: 'Auto-allow sandboxed Bash' });
  await expect(pill).toHaveText('Off');
  await pill.click();
  await expect(pill).toHaveText('On');
  const read = () => (JSON.parse(fs.readFileSync(path.join(d.ws, '.thclaws/settings.json'), 'utf8')) as { autoAllowSandboxedBash?: boolean }).autoAllowSandboxedBash;
  await expect.poll(read).toBe(true);
  await pill.click();
  await expect(pill).toHaveText('Off');
  await expect.poll(read).toBe(false);
  await page.getByRole('button', { name: 'Close' }).click();
});
