/**
 * `thclaws dashboard --claude-code` in Chromium against a real Claude Code team: the binary the Agent SDK
 * package ships, interactive in tmux in a scratch home, on the scripted fake Messages server (cc36's harness,
 * test/claude-code/harness.ts). One team for the file: its lead makes a task and spawns the in-process teammate
 * alice, whose Bash call waits on thclaws' PermissionRequest hook. What a person does: sees the roster and the
 * board, clicks Approve (the command runs), messages the lead (its model gets it), types into the lead's tmux
 * pane only after "Type here", and sees the team ended after /exit.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { scrubbedEnv } from '../test/agent/helpers.js';
import { ALICE_MARKER, CLAUDE_BIN, startClaudeTeam, type ClaudeTeam } from '../test/claude-code/harness.js';
import { dashboardReady, ROOT, THCLAWS } from '../test/desktop/helpers.js';
import { tmuxSocketOf } from '../src/main/claude-code/tmux.js';

test.skip(!CLAUDE_BIN, 'no Claude Code binary in node_modules (or no tmux)');
test.describe.configure({ mode: 'serial' });

const shots = path.join(ROOT, 'test-results', 'screenshots');
let t: ClaudeTeam;
let dash: ChildProcess;
let page: Page;

/** Whether the fake server was asked with `marker` in the last message of a conversation. */
const asked = (marker: string) => t.fake.requests.some((r) => r.body?.messages && JSON.stringify(r.body.messages.at(-1)).includes(marker));
const termText = (agent: string) => page.evaluate((a) => (window as unknown as { __thclaws: { terminals: { text(a: string): string } } }).__thclaws.terminals.text(a), agent);

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  t = await startClaudeTeam(async (s) => {
    const r = await s.cli(['claude-team', 'hooks', 'install', '--wait', '120']);
    expect(r.code, r.stderr).toBe(0);
  });
  await expect.poll(() => t.pane().includes('❯'), { timeout: 60_000 }).toBe(true);
  t.keys('MAKE TEAM now', 'Enter');
  dash = spawn(THCLAWS, ['dashboard', '--claude-code', '--port', '0'], { env: scrubbedEnv(t.home), stdio: ['ignore', 'pipe', 'inherit'] });
  const { url } = await dashboardReady(dash, { ms: 30_000 });
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(url);
});

test.afterAll(async () => {
  await page?.close();
  if (dash && dash.exitCode === null) {
    const exited = new Promise((r) => dash.once('exit', r));
    dash.kill('SIGTERM');
    await exited;
  }
  await t?.cleanup();
});

test('the roster with the lead live in its tmux pane, alice from her transcript, and the task board', async () => {
  await expect(page.locator('.pane[data-agent="alice"]')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('.pane[data-agent="team-lead"] .pane-meta', { hasText: 'tmux %' })).toBeVisible();
  await expect(page.getByTestId('cc-bar')).toContainText('Claude Code 2.');
  // The lead's pane is its tmux pane, live: Claude Code's own screen with the prompt it was typed.
  await expect.poll(() => termText('team-lead'), { timeout: 30_000 }).toContain('MAKE TEAM now');
  await expect.poll(() => termText('alice'), { timeout: 30_000 }).toContain('ALICE-TASK please help');
  // Claude Code owns spawning and stopping: none of thclaws' own member controls is offered.
  await expect(page.locator('.pane[data-agent="alice"]').getByRole('button', { name: 'Stop' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add member' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Tasks' }).click();
  await expect(page.locator('.board-col[data-column="pending"] .task', { hasText: 'Write the parser' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New task' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Team', exact: true }).click();
});

test("alice's Bash request is approved from the card, and the command runs", async () => {
  const card = page.locator('.approval', { hasText: ALICE_MARKER });
  await expect(card).toBeVisible({ timeout: 60_000 });
  await expect(card.locator('.approval-agent')).toHaveText('alice');
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, 'claude-code-1440.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(shots, 'claude-code-390.png') });
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(fs.existsSync(path.join(t.work, ALICE_MARKER))).toBe(false);
  await card.getByRole('button', { name: 'Approve' }).click();
  await expect.poll(() => fs.existsSync(path.join(t.work, ALICE_MARKER)), { timeout: 60_000 }).toBe(true);
  await expect(card).toHaveCount(0);
});

test("a message typed in the lead's box reaches the lead's model, and the log shows it", async () => {
  const lead = page.locator('.pane[data-agent="team-lead"]');
  await lead.getByRole('textbox', { name: 'message team-lead' }).fill('PING-FROM-DASHBOARD status please');
  await lead.getByRole('button', { name: 'Send' }).click();
  // Sent: the box empties once the dashboard says so.
  await expect(lead.getByRole('textbox', { name: 'message team-lead' })).toHaveValue('');
  await expect.poll(() => asked('PING-FROM-DASHBOARD'), { timeout: 60_000 }).toBe(true);
  await page.getByRole('button', { name: 'Messages' }).click();
  await expect(page.getByTestId('message-log')).toContainText('lead heard', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Team', exact: true }).click();
});

test("keys reach the lead's tmux pane only after Type here", async () => {
  const lead = page.locator('.pane[data-agent="team-lead"]');
  await lead.locator('.xterm').click();
  await page.keyboard.type('NOT-TYPED');
  await lead.getByTestId('cc-type-here').click();
  await page.keyboard.type('TYPED-HERE');
  await expect.poll(() => t.pane(), { timeout: 20_000 }).toContain('TYPED-HERE');
  expect(t.pane()).not.toContain('NOT-TYPED');
  // The pane's echo comes back live through tmux control mode.
  await expect.poll(() => termText('team-lead'), { timeout: 20_000 }).toContain('TYPED-HERE');
  await lead.getByTestId('cc-type-here').click();
  // Cleared again so /exit below is typed into an empty prompt.
  for (let i = 0; i < 'TYPED-HERE'.length; i++) t.keys('BSpace');
  await expect.poll(() => t.pane(), { timeout: 20_000 }).not.toContain('TYPED-HERE');
});

test("a page that goes away leaves no dashboard client attached to the person's tmux", async () => {
  const session = fs.readdirSync(path.join(t.home, '.claude', 'sessions')).find((f) => /^\d+\.json$/.test(f))!;
  const socket = await tmuxSocketOf(Number(session.replace('.json', '')));
  const controlClients = () => execFileSync('tmux', ['-S', socket!, 'list-clients', '-F', '#{client_control_mode}'], { encoding: 'utf8' }).split('\n').filter((l) => l === '1').length;
  expect(controlClients()).toBe(1);
  const url = page.url();
  await page.goto('about:blank');
  await expect.poll(controlClients, { timeout: 20_000 }).toBe(0);
  await page.goto(url);
  await expect.poll(() => termText('team-lead'), { timeout: 30_000 }).toContain('MAKE TEAM now');
});

test('the team is shown ended after the lead exits, its task kept', async () => {
  t.keys('/exit', 'Enter');
  await expect(page.getByTestId('cc-ended')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('.pane[data-agent="team-lead"] .badge[data-state="stopped"]')).toBeVisible();
  await page.getByRole('button', { name: 'Tasks' }).click();
  await expect(page.locator('.task', { hasText: 'Write the parser' })).toBeVisible();
});
