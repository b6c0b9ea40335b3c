/**
 * Review and merge in real Chromium through `thclaws dashboard`: a conflict warning appears on the board and
 * in the pane headers while two teammates write; a teammate's changes are opened, a line commented and the
 * review sent, and the real teammate process (scripted provider) shows it in its pane; dry run, merge with
 * the checks streamed. Screenshots at 1440×900 and 390×844 go to test-results/.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { TeamStore } from '../src/core/store/index.js';
import { THCLAWS } from '../test/desktop/helpers.js';
import { startDashboard, type Dashboard, shotsAtBothSizes } from './fixture.js';

let d: Dashboard;
let page: Page;
const teammates: ChildProcess[] = [];
const SHOTS = path.join('test-results', 'review-shots');
test.describe.configure({ mode: 'serial' });

const CALC = 'function total(items) {\n  let sum = 0;\n  for (const i of items) sum += i.price;\n  return sum;\n}\n\n// helpers\n\nfunction tax(x) {\n  return x * 0.2;\n}\n';
const SCRIPT = {
  rules: [{ match: '/calc\\.js:4/', turns: [{ text: 'Addressing the review of calc.js:4 — REVIEW-RECEIVED' }] }],
  fallback: [{ text: 'ok' }],
};

const git = (...a: string[]) => execFileSync('git', ['-c', 'user.email=e2e@thclaws.local', '-c', 'user.name=e2e', ...a], { cwd: d.ws, encoding: 'utf8' });

const shots = (name: string) => shotsAtBothSizes(page, SHOTS, name);

test.beforeAll(async ({ browser }) => {
  d = await startDashboard(['alice', 'bob'], { teamEnabled: true, checks: ['echo running checks; test -f calc.js && echo CHECKS-PASSED'] });
  fs.writeFileSync(path.join(d.ws, 'calc.js'), CALC);
  fs.appendFileSync(path.join(d.ws, '.git', 'info', 'exclude'), '.worktrees/\n.thclaws/\n.home/\n');
  git('add', 'calc.js');
  git('commit', '-qm', 'calc');
  for (const n of ['alice', 'bob']) git('worktree', 'add', '-q', '-b', `team/${n}`, path.join('.worktrees', n));
  const home = path.join(d.ws, '.home');
  const script = path.join(home, 'review-script.json');
  fs.writeFileSync(script, JSON.stringify(SCRIPT));
  // Like the background launcher: the teammate's terminal output goes to its output.log (the pane tails it).
  fs.mkdirSync(path.join(d.teamDir, 'agents', 'alice'), { recursive: true });
  const log = fs.openSync(path.join(d.teamDir, 'agents', 'alice', 'output.log'), 'a');
  teammates.push(
    spawn(THCLAWS, ['--team-agent', 'alice', '--script', script], {
      cwd: path.join(d.ws, '.worktrees', 'alice'),
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), THCLAWS_TEAM_DIR: d.teamDir, THCLAWS_PROJECT_ROOT: d.ws, THCLAWS_IN_WORKTREE: '1' },
      stdio: ['ignore', log, log],
    }),
  );
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto(d.url);
  await expect(page.locator('.pane[data-agent="alice"]')).toBeVisible();
});

test.afterAll(async () => {
  for (const t of teammates) t.kill('SIGKILL');
  await d?.stop();
});

test('a conflict warning appears on the board and in both panes while two teammates write', async () => {
  const edit = (who: string, to: string) => fs.writeFileSync(path.join(d.ws, '.worktrees', who, 'calc.js'), CALC.replace('  return sum;', `  return ${to};`));
  edit('alice', 'Math.round(sum)');
  await expect(page.locator('.pane[data-agent="alice"] .pane-changes')).toBeVisible();
  await expect(page.locator('[data-testid="conflict-warnings"]')).toHaveCount(0);
  edit('bob', 'sum.toFixed(2)');
  await expect(page.locator('[data-testid="conflict-warnings"] .review-warning[data-kind="conflict"]')).toContainText('alice + bob: calc.js:4');
  await expect(page.locator('.pane[data-agent="alice"] [data-testid="pane-warning"]')).toHaveText('⚠ conflict with bob');
  await expect(page.locator('.pane[data-agent="bob"] [data-testid="pane-warning"]')).toHaveText('⚠ conflict with alice');
  await shots('board-warning');
  // bob steps back: the warning clears.
  fs.writeFileSync(path.join(d.ws, '.worktrees', 'bob', 'calc.js'), CALC);
  await expect(page.locator('[data-testid="conflict-warnings"]')).toHaveCount(0);
});

test('open a teammate’s changes, comment on a line, send the review, and see it in its pane', async () => {
  await page.locator('.pane[data-agent="alice"] .pane-changes').click();
  const view = page.locator('[data-testid="changes-view"]');
  await expect(view).toBeVisible();
  const file = view.locator('.review-file[data-path="calc.js"]');
  await expect(file.locator('.review-source')).toHaveText('unstaged');
  await expect(file.locator('.review-counts')).toHaveText('+1 −1');
  await view.getByRole('button', { name: 'Unified' }).click();
  const row = file.locator('tr').filter({ hasText: 'return Math.round(sum);' }).first();
  await row.hover();
  await row.locator('.diff-add-widget').first().click();
  await page.getByLabel('review comment').fill('use floor, not round');
  await page.getByLabel('last line of the comment').fill('5'); // a range: lines 4 to 5
  await page.getByRole('button', { name: 'Add to review' }).click();
  await expect(view.locator('.review-comment[data-state="pending"]')).toContainText('use floor, not round');
  await expect(view.locator('[data-testid="pending-count"]')).toHaveText('1 pending');
  const stored = JSON.parse(fs.readFileSync(path.join(d.teamDir, 'agents', 'alice', 'review.json'), 'utf8')) as { comments: Array<{ line: number; end_line: number | null; lines: string[] }> };
  expect(stored.comments[0]).toMatchObject({ line: 4, end_line: 5, lines: ['  return Math.round(sum);', '}'] });
  await shots('changes');
  await view.getByRole('button', { name: 'Send review' }).click();
  await expect(view.locator('.review-comment[data-state="sent"]')).toBeVisible();
  await view.getByRole('button', { name: 'close' }).click();
  // The real teammate's next model request carried calc.js:4: its scripted answer shows in its pane.
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __thclaws: { terminals: { text(a: string): string } } }).__thclaws.terminals.text('alice').replace(/\s*\n/g, '')), { timeout: 30_000 })
    .toContain('REVIEW-RECEIVED');
});

test('merge panel: dry run, merge with the checks streamed, landed', async () => {
  fs.writeFileSync(path.join(d.ws, '.worktrees', 'bob', 'tax.js'), 'export const rate = 0.25;\n');
  execFileSync('git', ['-c', 'user.email=b@x', '-c', 'user.name=b', 'add', '-A'], { cwd: path.join(d.ws, '.worktrees', 'bob') });
  execFileSync('git', ['-c', 'user.email=b@x', '-c', 'user.name=b', 'commit', '-qm', 'bob: tax rate'], { cwd: path.join(d.ws, '.worktrees', 'bob') });
  // The checks come from Settings: changed there, the merge runs the new one.
  await page.getByRole('button', { name: 'settings' }).click();
  const checks = page.getByLabel('checks before landing');
  await checks.fill('echo SETTINGS-CHECK-RAN');
  await checks.blur();
  await expect.poll(() => (JSON.parse(fs.readFileSync(path.join(d.ws, '.thclaws/settings.json'), 'utf8')) as { checks?: string[] }).checks).toEqual(['echo SETTINGS-CHECK-RAN']);
  await page.getByRole('button', { name: 'Close' }).click();
  await page.evaluate(() => (location.hash = '#merge'));
  const panel = page.locator('[data-testid="merge-panel"]');
  await expect(panel.locator('tr[data-agent="bob"]')).toContainText('bob: tax rate');
  await expect(panel.getByRole('columnheader', { name: 'ahead / behind' })).toBeVisible();
  await panel.getByLabel('merge alice').uncheck().catch(() => undefined);
  await expect(panel.getByLabel('merge bob')).toBeChecked();
  await panel.getByRole('button', { name: 'Dry run' }).click();
  await expect(panel.locator('[data-testid="dry-run"] [data-agent="bob"]')).toHaveAttribute('data-result', 'clean');
  await panel.locator('.merge-run').click();
  await expect(panel.locator('[data-testid="checks-output"]')).toContainText('SETTINGS-CHECK-RAN');
  await expect(panel.locator('[data-testid="checks-output"]')).not.toContainText('CHECKS-PASSED');
  await expect(panel.locator('[data-testid="merge-result"]')).toContainText('landed on');
  await expect(panel.getByTestId('dry-run')).toHaveCount(0); // the dry run predicted the branches before it
  expect(fs.readFileSync(path.join(d.ws, 'tax.js'), 'utf8')).toContain('0.25');
  // Landed: the panel refreshes and says so (not "0 / n"); bob is unticked and Merge has nothing to do.
  await expect(panel.locator('tr[data-agent="bob"] td').nth(2)).toHaveText(/^landed on \w+ · [0-9a-f]{7}$/);
  await expect(panel.locator('.merge-run')).toHaveText('Nothing to merge');
  await expect(panel.getByLabel('merge bob')).not.toBeChecked();
  await expect(panel.locator('.merge-run')).toBeDisabled();
  await panel.getByLabel('merge bob').check(); // ticked by hand: still nothing ahead to merge
  await expect(panel.locator('.merge-run')).toBeDisabled();
  await panel.getByLabel('merge bob').uncheck();
  await shots('merge');
});

test('merge panel: "Ask to commit & pause" puts the request in that working teammate’s inbox', async () => {
  const store = new TeamStore(d.teamDir);
  await store.statuses.write('bob', { status: 'working', pid: process.pid } as never, { durable: false });
  // The panel (re)opens: it reads the overview with bob working.
  await page.evaluate(() => (location.hash = '#review/all'));
  await expect(page.getByTestId('changes-view')).toBeVisible();
  await page.evaluate(() => (location.hash = '#merge'));
  const row = page.locator('[data-testid="merge-panel"] tr[data-agent="bob"]');
  await expect(row).toContainText('working');
  const before = store.inboxes.list('bob').length;
  await row.getByRole('button', { name: 'Ask to commit & pause' }).click();
  await expect.poll(() => store.inboxes.list('bob').length).toBe(before + 1);
  const msg = store.inboxes.list('bob').at(-1)!;
  expect(msg.from).toBe('user');
  expect(msg.text).toContain('Please commit your work on team/bob now');
  expect(msg.text).toContain('then pause');
  await store.statuses.write('bob', { status: 'idle' } as never, { durable: false });
});

test('merge panel: a conflicting branch left conflicted shows both sides; abort restores the lead’s checkout', async () => {
  const bobWt = path.join(d.ws, '.worktrees', 'bob');
  const inBob = (...a: string[]) => execFileSync('git', ['-c', 'user.email=b@x', '-c', 'user.name=b', ...a], { cwd: bobWt, encoding: 'utf8' });
  inBob('merge', '-q', '--ff-only', git('rev-parse', 'HEAD').trim()); // bob starts from what landed
  fs.writeFileSync(path.join(bobWt, 'calc.js'), CALC.replace('  return sum;', '  return sum.toFixed(2);'));
  inBob('commit', '-qam', 'bob: two decimals');
  fs.writeFileSync(path.join(d.ws, 'calc.js'), CALC.replace('  return sum;', '  return Math.ceil(sum);'));
  git('commit', '-qam', 'lead: ceil');
  const head = git('rev-parse', 'HEAD');
  await page.evaluate(() => (location.hash = '#review/all'));
  await expect(page.getByTestId('changes-view')).toBeVisible();
  await page.evaluate(() => (location.hash = '#merge'));
  const panel = page.locator('[data-testid="merge-panel"]');
  await expect(panel.locator('tr[data-agent="bob"]')).toContainText('bob: two decimals');
  await panel.getByLabel('merge alice').uncheck().catch(() => undefined);
  await expect(panel.getByLabel('merge bob')).toBeChecked();
  await panel.locator('.merge-run').click();
  await expect(panel.getByTestId('merge-result')).toContainText('nothing landed: conflicts in bob');
  await panel.getByRole('button', { name: 'Leave bob conflicted' }).click();
  const left = panel.getByTestId('left-conflicted');
  await expect(left).toContainText('Merge of team/bob into');
  const file = left.locator('.merge-conflict-file[data-path="calc.js"]');
  // Both sides: the lead's line on the left, bob's on the right; and the file with git's markers.
  await expect(file.locator('.old-diff-table-wrapper, .split-diff-view').first()).toContainText('return Math.ceil(sum);');
  await expect(file).toContainText('return sum.toFixed(2);');
  await file.locator('summary').click();
  await expect(file.locator('pre')).toContainText('<<<<<<< HEAD');
  expect(fs.readFileSync(path.join(d.ws, 'calc.js'), 'utf8')).toContain('>>>>>>> ');
  await shots('left-conflicted');
  await left.getByRole('button', { name: 'Abort merge' }).click();
  await expect(left).toHaveCount(0);
  expect(git('rev-parse', 'HEAD')).toBe(head);
  expect(git('status', '--porcelain', '--untracked-files=no')).toBe('');
  expect(fs.readFileSync(path.join(d.ws, 'calc.js'), 'utf8')).toContain('return Math.ceil(sum);');
});
