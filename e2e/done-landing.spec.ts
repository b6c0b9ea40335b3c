/**
 * "Done" means committed and landing is news, in real Chromium through `thclaws dashboard`: a real teammate
 * process on a machine without a git identity cannot commit, and its task card says why instead of reading
 * done; the person lands bob's branch from the merge panel past an open comment only after the page asks,
 * and then bob's task card reads landed, the row reads landed, and bob's inbox holds the landing message.
 * Screenshots at 1440×900 and 390×844 go to test-results/done-landing-shots/.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { trustFolder } from '../src/core/agent/trust.js';
import { TeamStore } from '../src/core/store/index.js';
import { THCLAWS } from '../test/desktop/helpers.js';
import { startDashboard, type Dashboard, shotsAtBothSizes } from './fixture.js';

let d: Dashboard;
let page: Page;
const teammates: ChildProcess[] = [];
const SHOTS = process.env.THCLAWS_SHOTS_DIR ?? path.join('test-results', 'done-landing-shots');
test.describe.configure({ mode: 'serial' });

const COMPLETE = { name: 'TeamTaskComplete', input: { task_id: '1', summary: 'api.js committed' } };
const SCRIPT = {
  rules: [{ match: 'Task #1 —', turns: [{ text: 'Writing the API.', tool_calls: [{ name: 'Bash', input: { command: 'echo "export const api = 1;" > api.js && git add -A && git commit -qm api' } }, COMPLETE] }, { text: 'done' }] }],
  fallback: [{ text: 'ok' }],
};

const git = (cwd: string, ...a: string[]) => execFileSync('git', ['-c', 'user.email=e2e@thclaws.local', '-c', 'user.name=e2e', ...a], { cwd, encoding: 'utf8' }).trim();

const shots = (name: string) => shotsAtBothSizes(page, SHOTS, name, { fullPage: true });

test.beforeAll(async ({ browser }) => {
  d = await startDashboard(['alice', 'bob'], { teamEnabled: true, teammatePermissionMode: 'auto', checks: [] });
  fs.appendFileSync(path.join(d.ws, '.git', 'info', 'exclude'), '.worktrees/\n.thclaws/\n.home/\n');
  fs.writeFileSync(path.join(d.ws, 'README.md'), '# app\n');
  git(d.ws, 'add', 'README.md');
  git(d.ws, 'commit', '-qm', 'init');
  for (const n of ['alice', 'bob']) git(d.ws, 'worktree', 'add', '-q', '-b', `team/${n}`, path.join('.worktrees', n));
  // bob's work is committed and its task completed at that commit; its review comment was sent and is open.
  const bob = path.join(d.ws, '.worktrees', 'bob');
  fs.writeFileSync(path.join(bob, 'ui.html'), '<h1>ui</h1>\n');
  git(bob, 'add', '-A');
  git(bob, 'commit', '-qm', 'ui: page');
  const store = new TeamStore(d.teamDir);
  await store.tasks.create({ subject: 'API', description: 'write api.js and commit it', reservedFor: 'alice' });
  const t = await store.tasks.create({ subject: 'UI', description: 'write ui.html', reservedFor: 'bob' });
  await store.tasks.claim(t.id, 'bob');
  await store.tasks.complete(t.id, 'bob', 'ui.html committed', git(bob, 'rev-parse', 'HEAD'));
  const c = await store.reviews.add('bob', { path: 'ui.html', line: 1, end_line: null, lines: ['<h1>ui</h1>'], text: 'use a <main>' });
  await store.reviews.setState('bob', [c.id], 'sent');

  // alice: a real teammate with no git identity anywhere (empty global config, no system config, no GIT_AUTHOR_*).
  const home = path.join(d.ws, '.home', 'alice');
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(path.join(home, 'empty.gitconfig'), '');
  fs.writeFileSync(path.join(home, 'script.json'), JSON.stringify(SCRIPT));
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), GIT_CONFIG_GLOBAL: path.join(home, 'empty.gitconfig'), GIT_CONFIG_NOSYSTEM: '1', THCLAWS_TEAM_DIR: d.teamDir, THCLAWS_PROJECT_ROOT: d.ws, THCLAWS_IN_WORKTREE: '1' };
  trustFolder(d.ws, env);
  fs.mkdirSync(path.join(d.teamDir, 'agents', 'alice'), { recursive: true });
  const log = fs.openSync(path.join(d.teamDir, 'agents', 'alice', 'output.log'), 'a');
  teammates.push(spawn(THCLAWS, ['--team-agent', 'alice', '--script', path.join(home, 'script.json')], { cwd: path.join(d.ws, '.worktrees', 'alice'), env, stdio: ['ignore', log, log] }));
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto(d.url);
  await expect(page.locator('.pane[data-agent="alice"]')).toBeVisible();
});

test.afterAll(async () => {
  for (const t of teammates) t.kill('SIGKILL');
  await d?.stop();
});

test('a teammate that cannot commit: its task is not done, and the card and the pane say why', async () => {
  // The pane header says it beside the badge.
  await expect(page.locator('.pane[data-agent="alice"] [data-testid="pane-not-done"]')).toHaveText('task #1 not done: git has no identity', { timeout: 30_000 });
  // The badge itself reads the failure (never a green idle), the full refusal on hover; the chip says it once.
  const badge = page.locator('.pane[data-agent="alice"] .pane-head [data-state]');
  await expect(badge).toHaveText('error', { timeout: 30_000 });
  await expect(badge).toHaveAttribute('title', /^task #1 not done: uncommitted changes in your worktree: "api\.js": git commit failed: no identity/);
  await expect(page.locator('.pane[data-agent="alice"] [data-testid="pane-error"]')).toHaveCount(0);
  // The lead waits for the folder-trust answer: one label says so, and it opens the request.
  const leadHead = page.locator('.pane[data-agent="lead"] .pane-head');
  await expect(leadHead.locator('[data-state]')).toHaveText('waiting for you', { timeout: 30_000 });
  await expect(leadHead.getByText(/waiting for/)).toHaveCount(1);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __thclaws: { terminals: { text(a: string): string } } }).__thclaws.terminals.text('alice').replace(/\s*\n/g, '')), { timeout: 30_000 })
    .toMatch(/task #1 not completed: uncommitted changes in your worktree/);
  await shots('team-not-done');
  await page.getByRole('button', { name: 'Tasks' }).click();
  const card = page.locator('[data-task="1"]');
  await expect(card.locator('.task-not-done')).toContainText('git commit failed: no identity (user.email)', { timeout: 30_000 });
  await expect(card.locator('.task-not-done')).toContainText('"api.js"');
  await expect(page.locator('.board-col[data-column="completed"] [data-task="1"]')).toHaveCount(0);
  await expect(page.locator('[data-task="2"] .task-commit')).toHaveText(/^commit [0-9a-f]{7} · not landed yet$/);
  await shots('board-not-done');
});

test('landing past an open comment asks first; then the row and the card read landed and bob is told', async () => {
  await page.evaluate(() => (location.hash = '#merge'));
  const panel = page.locator('[data-testid="merge-panel"]');
  await expect(panel.locator('tr[data-agent="bob"] td[data-label="open comments"]')).toHaveText('1');
  // alice could not commit: her row says why it is unticked.
  await expect(panel.locator('tr[data-agent="alice"] td[data-label="ahead / behind"]')).toHaveText(/^nothing committed \(0 \/ \d+\)$/);
  await panel.getByLabel('merge alice').uncheck().catch(() => undefined);
  await expect(panel.locator('.merge-run')).toHaveText('Merge 1');
  // Dismissed: nothing lands.
  page.once('dialog', (dlg) => {
    expect(dlg.message()).toContain('bob: 1 open review comment(s)');
    void dlg.dismiss();
  });
  const main = git(d.ws, 'rev-parse', 'HEAD');
  await panel.locator('.merge-run').click();
  await expect(panel.locator('.merge-run')).toHaveText('Merge 1');
  expect(git(d.ws, 'rev-parse', 'HEAD')).toBe(main);
  // Accepted: it lands.
  page.once('dialog', (dlg) => void dlg.accept());
  await panel.locator('.merge-run').click();
  await expect(panel.getByTestId('merge-result')).toContainText(/landed on \w+: bob \(1 commit\(s\)\); told the lead and bob/);
  await expect(panel.locator('tr[data-agent="bob"] td[data-label="ahead / behind"]')).toHaveText(/^landed on \w+ · [0-9a-f]{7}$/);
  await expect(panel.locator('tr[data-agent="bob"] td[data-label="open comments"]')).toHaveText('0');
  const store = new TeamStore(d.teamDir);
  const told = store.inboxes.unread('bob');
  expect(told).toHaveLength(1);
  expect(told[0]!.text).toMatch(/Your branch team\/bob landed on \w+ .*1 commit\(s\)\n\s+[0-9a-f]+ ui: page/s);
  await shots('merge-landed');
  await page.evaluate(() => (location.hash = ''));
  await page.getByRole('button', { name: 'Tasks' }).click();
  await expect(page.locator('[data-task="2"] .task-commit.landed')).toHaveText(/^landed on \w+ · [0-9a-f]{7}$/);
  await shots('board-landed');
});
