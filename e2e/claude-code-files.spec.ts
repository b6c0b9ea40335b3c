/**
 * A Claude Code team in a thclaws dashboard, from files as Claude Code 2.1.333 writes them (its lead a live
 * process of this test, no binary needed): the workspace picker's "Claude Code teams" entry opens it and the
 * folder entry goes back; the lead waiting on its permission dialog says so; a file that stops parsing is
 * named with the version that wrote it, and the board keeps what it last read.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dashboardReady, THCLAWS } from '../test/desktop/helpers.js';
import { startDashboard, type Dashboard } from './fixture.js';

test.describe.configure({ mode: 'serial' });

const TEAM = 'session-5eed0001';
let d: Dashboard;
let page: Page;
let lead: ChildProcess;
let claude: string;

const write = (file: string, data: unknown) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data, null, 2));
};

test.beforeAll(async ({ browser }) => {
  d = await startDashboard(['alice']);
  claude = path.join(d.ws, '.home', '.claude');
  // The lead's process: alive while the test runs, as Claude Code's own would be.
  lead = spawn('sleep', ['600'], { stdio: 'ignore' });
  const pid = lead.pid!;
  write(path.join(claude, 'teams', TEAM, 'config.json'), {
    name: TEAM,
    leadAgentId: `team-lead@${TEAM}`,
    leadSessionId: 'sess-5eed',
    leadProcess: { pid },
    members: [
      { agentId: `team-lead@${TEAM}`, name: 'team-lead', agentType: 'team-lead', tmuxPaneId: 'leader', cwd: d.ws, backendType: 'in-process' },
      { agentId: `bob@${TEAM}`, name: 'bob', agentType: 'claude', tmuxPaneId: 'in-process', cwd: d.ws, backendType: 'in-process' },
    ],
  });
  write(path.join(claude, 'sessions', `${pid}.json`), { pid, sessionId: 'sess-5eed', cwd: d.ws, version: '2.1.333', status: 'waiting', waitingFor: 'permission prompt' });
  write(path.join(claude, 'tasks', TEAM, '1.json'), { id: '1', subject: 'Port the parser', description: 'to TypeScript', status: 'in_progress', owner: 'bob', blocks: ['2'], blockedBy: [] });
  write(path.join(claude, 'tasks', TEAM, '2.json'), { id: '2', subject: 'Ship it', status: 'pending', blocks: [], blockedBy: ['1'] });
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(d.url);
  await expect(page.locator('.pane[data-agent="alice"]')).toBeVisible();
});

test.afterAll(async () => {
  await page?.close();
  lead?.kill();
  await d?.stop();
});

test("the picker's Claude Code entry opens the team, its lead waiting for permission; the folder entry goes back", async () => {
  const picker = page.getByRole('combobox', { name: 'workspace' });
  await picker.selectOption('claude-code:');
  const leadPane = page.locator('.pane[data-agent="team-lead"]');
  await expect(leadPane.getByTestId('cc-waiting')).toHaveText('waiting for you: permission');
  await expect(leadPane.locator('.badge[data-waiting]')).toHaveText('waiting for you');
  await expect(page.locator('.pane[data-agent="alice"]')).toHaveCount(0);
  // The task bob works on is on his pane.
  await expect(page.locator('.pane[data-agent="bob"] .pane-task')).toHaveText('task #1');
  await expect(page.getByTestId('cc-bar')).toContainText(`Claude Code team ${TEAM} · Claude Code 2.1.333`);
  await expect(page.getByTestId('cc-error')).toHaveCount(0);
  // Claude Code runs the team: a thclaws team's own controls are not offered.
  await expect(page.getByRole('button', { name: 'Add member' })).toHaveCount(0);
  await expect(page.locator('.gear')).toHaveCount(0);
  await page.getByRole('button', { name: 'Tasks' }).click();
  await expect(page.locator('.board-col[data-column="in_progress"] .task', { hasText: 'Port the parser' })).toContainText('owner: bob');
  // #2 waits on #1, which is not done yet.
  await expect(page.locator('.board-col[data-column="pending"] .task', { hasText: 'Ship it' }).locator('.task-blocked')).toHaveText('blocked');
  await picker.selectOption(d.ws);
  await page.getByRole('button', { name: 'Team', exact: true }).click();
  await expect(page.locator('.pane[data-agent="alice"]')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add member' })).toBeVisible();
  await expect(page.locator('.pane[data-agent="team-lead"]')).toHaveCount(0);
});

test("Deny on a hook's request answers it as the hook reads it, with the reason typed", async () => {
  await page.getByRole('combobox', { name: 'workspace' }).selectOption('claude-code:');
  // A request as thclaws' PermissionRequest hook records it while it waits (its process: the lead's stand-in).
  const dir = path.join(claude, 'thclaws', 'approvals');
  write(path.join(dir, 'req-1.json'), { id: 'req-1', createdAt: new Date().toISOString(), agent: 'bob', sessionId: 'sess-5eed', cwd: d.ws, toolName: 'Bash', toolInput: { command: 'rm -rf build' }, hookPid: lead.pid });
  const card = page.locator('.approval', { hasText: 'rm -rf build' });
  await expect(card.locator('.approval-agent')).toHaveText('bob');
  await card.getByRole('textbox').fill('not the build folder');
  await card.getByRole('button', { name: 'Deny' }).click();
  await expect.poll(() => fs.existsSync(path.join(dir, 'req-1.answer.json'))).toBe(true);
  expect(JSON.parse(fs.readFileSync(path.join(dir, 'req-1.answer.json'), 'utf8'))).toEqual({ behavior: 'deny', message: 'not the build folder' });
  fs.rmSync(path.join(dir, 'req-1.json'));
  await expect(card).toHaveCount(0);
});

test('a task file that stops parsing is named with the Claude Code version, and the board keeps what it read', async () => {
  await page.getByRole('button', { name: 'Tasks' }).click();
  await expect(page.locator('.task', { hasText: 'Port the parser' })).toBeVisible();
  const file = path.join(claude, 'tasks', TEAM, '1.json');
  write(file, { id: 1, title: 'renamed field', status: 'in_progress' });
  await expect(page.getByTestId('cc-error')).toContainText(`cannot read ${file} (Claude Code 2.1.333): subject`);
  await expect(page.locator('.task', { hasText: 'Port the parser' })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  fs.mkdirSync(path.join('test-results', 'screenshots'), { recursive: true });
  await page.screenshot({ path: path.join('test-results', 'screenshots', 'claude-code-error-390.png') });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: path.join('test-results', 'screenshots', 'claude-code-error-1440.png') });
});

test('dashboard --claude-code started while a file does not parse serves the team and names the file', async ({ browser }) => {
  // The task file is still the drifted one from the test above.
  const file = path.join(claude, 'tasks', TEAM, '1.json');
  const proc = spawn(THCLAWS, ['dashboard', '--claude-code', '--port', '0'], { env: d.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
  try {
    const { url } = await dashboardReady(proc, { ms: 30_000 });
    await expect.poll(() => stderr).toContain(`thclaws: warning: cannot read ${file} (Claude Code 2.1.333)`);
    const p = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await p.goto(url);
    await expect(p.getByTestId('cc-error')).toContainText(`cannot read ${file}`);
    await p.close();
  } finally {
    proc.kill('SIGTERM');
  }
});

test('with several teams the picker lists each, and picking one shows its roster', async () => {
  // The drifted file mended (one unreadable file stops the whole read: the view keeps the last good one).
  write(path.join(claude, 'tasks', TEAM, '1.json'), { id: '1', subject: 'Port the parser', status: 'in_progress', owner: 'bob', blocks: [], blockedBy: [] });
  const other = 'session-5eed0002';
  write(path.join(claude, 'teams', other, 'config.json'), {
    name: other,
    leadAgentId: `team-lead@${other}`,
    leadSessionId: 'sess-other',
    leadProcess: { pid: lead.pid },
    members: [
      { agentId: `team-lead@${other}`, name: 'team-lead', agentType: 'team-lead', cwd: d.ws, backendType: 'in-process' },
      { agentId: `carol@${other}`, name: 'carol', agentType: 'claude', cwd: d.ws, backendType: 'in-process' },
    ],
  });
  const picker = page.getByRole('combobox', { name: 'workspace' });
  // The folder the view came from, to go back, then each Claude Code team (this one's lead session is not
  // the live process's: ended), then the way to a remote folder.
  await expect(picker.locator('option')).toHaveText([d.ws, `Claude Code: ${TEAM}`, `Claude Code: ${other} (ended)`, 'Open remote folder…']);
  await picker.selectOption(`claude-code:${other}`);
  await page.getByRole('button', { name: 'Team', exact: true }).click();
  await expect(page.locator('.pane[data-agent="carol"]')).toBeVisible();
  await expect(page.locator('.pane[data-agent="bob"]')).toHaveCount(0);
  await expect(page.getByTestId('cc-bar')).toContainText(`Claude Code team ${other}`);
  await expect(page.getByTestId('cc-ended')).toBeVisible();
});
