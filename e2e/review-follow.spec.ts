/**
 * Issue 37 in real Chromium through `thclaws dashboard`: a sent comment is drawn on the line it was written
 * about after the teammate commits a function above it (not on the identical line of the other function); an
 * outdated comment is drawn with its quoted lines, away from today's text, and is still sent; a comment on a
 * file the teammate deleted is listed; the merge panel after the person resolved the conflict says "commit it"
 * and asks before an abort would throw their resolution away. Screenshots at 1440×900 and 390×844 go to
 * $SHOTS_DIR (default test-results/review-follow-shots).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { TeamStore } from '../src/core/store/index.js';
import { startDashboard, type Dashboard, shotsAtBothSizes } from './fixture.js';

let d: Dashboard;
let page: Page;
const SHOTS = process.env.SHOTS_DIR ?? path.join('test-results', 'review-follow-shots');
test.describe.configure({ mode: 'serial' });

const GUARDS = 'function first(x) {\n  if (!x) return null;\n  return x.a;\n}\n\nfunction second(x) {\n  if (!x) return null;\n  return x.b;\n}\n';
const ABOVE = 'function zero(x) {\n  if (!x) return null;\n  return x.z;\n}\n\n';
const git = (cwd: string, ...a: string[]) => execFileSync('git', ['-c', 'user.email=e2e@thclaws.local', '-c', 'user.name=e2e', ...a], { cwd, encoding: 'utf8' });
const wt = () => path.join(d.ws, '.worktrees', 'alice');

const shots = (name: string) => shotsAtBothSizes(page, SHOTS, name);

/** Comments on the row of the new side holding `text` (the nth such row). */
async function comment(file: Locator, text: string, nth: number, body: string): Promise<void> {
  const row = file.locator('tr').filter({ hasText: text }).nth(nth);
  await row.hover();
  await row.locator('.diff-add-widget').first().click();
  await page.getByLabel('review comment').fill(body);
  await page.getByRole('button', { name: 'Add to review' }).click();
  await expect(file.locator('.review-comment').filter({ hasText: body })).toBeVisible();
}

/** The text of the diff row a comment is drawn under, and of the row above that. */
const drawnUnder = (c: Locator) =>
  c.evaluate((el) => {
    const row = el.closest('tr')?.previousElementSibling;
    return { row: row?.textContent ?? null, above: row?.previousElementSibling?.textContent ?? null };
  });

test.beforeAll(async ({ browser }) => {
  d = await startDashboard(['alice'], { teamEnabled: true });
  fs.appendFileSync(path.join(d.ws, '.git', 'info', 'exclude'), '.worktrees/\n.thclaws/\n.home/\n');
  fs.writeFileSync(path.join(d.ws, 'a.txt'), 'one\n');
  git(d.ws, 'add', 'a.txt');
  git(d.ws, 'commit', '-qm', 'base');
  git(d.ws, 'worktree', 'add', '-q', '-b', 'team/alice', wt());
  fs.writeFileSync(path.join(wt(), 'guard.js'), GUARDS);
  fs.writeFileSync(path.join(wt(), 'notes.txt'), 'teh notes\n');
  fs.writeFileSync(path.join(wt(), 'a.txt'), 'from alice\n');
  git(wt(), 'add', '-A');
  git(wt(), 'commit', '-qm', 'alice: guards, notes, a');
  fs.writeFileSync(path.join(d.ws, 'a.txt'), 'from main\n');
  git(d.ws, 'commit', '-qam', 'main: a');
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto(d.url);
  await expect(page.locator('.pane[data-agent="alice"]')).toBeVisible();
});

test.afterAll(async () => {
  await d?.stop();
});

test('a moved comment stays on its line, an outdated one shows its quoted lines and is still sent, a deleted file\'s is listed', async () => {
  await page.evaluate(() => (location.hash = '#review/alice'));
  const view = page.getByTestId('changes-view');
  await view.getByRole('button', { name: 'Unified' }).click();
  const guard = view.locator('.review-file[data-path="guard.js"]');
  await comment(guard, 'if (!x) return null;', 1, 'second: throw instead?');
  await view.getByRole('button', { name: 'Send review' }).click();
  await expect(guard.locator('.review-comment[data-state="sent"]')).toBeVisible();
  await comment(guard, 'return x.b;', 0, 'x.b may be undefined');
  await comment(view.locator('.review-file[data-path="notes.txt"]'), 'teh notes', 0, 'typo');
  await expect(view.getByTestId('pending-count')).toHaveText('2 pending');

  // alice commits a function above both, changes the commented return, and deletes notes.txt.
  fs.writeFileSync(path.join(wt(), 'guard.js'), ABOVE + GUARDS.replace('return x.b;', 'return x.b ?? null;'));
  fs.rmSync(path.join(wt(), 'notes.txt'));
  git(wt(), 'add', '-A');
  git(wt(), 'commit', '-qm', 'alice: zero, b fallback, notes gone');

  const outdated = guard.locator('[data-testid="earlier-comments"] .review-comment[data-state="outdated"]');
  await expect(outdated).toContainText('x.b may be undefined');
  // Drawn with the lines it was written about, not in a row of today's diff.
  await expect(outdated.locator('pre')).toHaveText('  return x.b;');
  expect(await outdated.evaluate((el) => el.closest('tr'))).toBeNull();
  // The sent one is drawn under line 12, second()'s guard (line 7, where it was, is first()'s guard now).
  const sent = guard.locator('.review-comment[data-state="sent"]');
  await expect(sent).toHaveCount(1);
  const at = await drawnUnder(sent);
  expect(at.row).toMatch(/(^|\D)12\D.*if \(!x\) return null;/);
  expect(at.above).toContain('function second(x) {');
  // The deleted file's comment is listed with its quoted line.
  const gone = view.locator('.review-agent > [data-testid="earlier-comments"]');
  await expect(gone).toContainText('Comments on files no longer in the changes');
  await expect(gone.locator('.review-comment')).toContainText('typo');
  await expect(gone.locator('pre')).toHaveText('teh notes');
  await expect(view.getByTestId('pending-count')).toHaveText('2 pending');
  await shots('changes-moved-outdated-deleted');

  await view.getByRole('button', { name: 'Send review' }).click();
  await expect(view.getByTestId('pending-count')).toHaveText('0 pending');
  const msg = new TeamStore(d.teamDir).inboxes.list('alice').at(-1)!.text;
  expect(msg).toContain('guard.js:8 (written on an earlier version of this file; these lines have changed since)\n    >   return x.b;');
  expect(msg).toContain('notes.txt:1 (written on an earlier version of your changes; this file is no longer in them)');
});

test('the merge panel after the person resolved the conflict: "commit it", and abort asks before throwing it away', async () => {
  await page.evaluate(() => (location.hash = '#merge'));
  const panel = page.getByTestId('merge-panel');
  await expect(panel.locator('tr[data-agent="alice"]')).toBeVisible();
  // The first test's comments are still open: the panel asks before landing past them, and the person says go.
  const asked = new Promise<string>((resolve) => page.once('dialog', (dlg) => void dlg.accept().then(() => resolve(dlg.message()))));
  await panel.locator('.merge-run').click();
  expect(await asked).toContain('open review comment');
  await panel.getByRole('button', { name: 'Leave alice conflicted' }).click();
  const left = panel.getByTestId('left-conflicted');
  await expect(left).toContainText('1 conflicted file');
  // The person resolves a.txt in the lead's checkout.
  fs.writeFileSync(path.join(d.ws, 'a.txt'), 'from main and alice\n');
  git(d.ws, 'add', 'a.txt');
  // The open panel follows (no reopening).
  await expect(left).toContainText('nothing left conflicted — commit it');
  await expect(left.getByTestId('merge-next')).toContainText('git commit');
  await left.getByRole('button', { name: 'Abort merge' }).click();
  const ask = left.getByRole('alertdialog', { name: 'abort the merge?' });
  await expect(ask).toContainText('You resolved or edited a.txt');
  await shots('merge-resolved');
  await ask.getByRole('button', { name: 'Keep the merge' }).click();
  await expect(ask).toHaveCount(0);
  expect(fs.readFileSync(path.join(d.ws, 'a.txt'), 'utf8')).toBe('from main and alice\n');
  expect(fs.existsSync(path.join(d.ws, '.git', 'MERGE_HEAD'))).toBe(true);
  // Confirmed, the merge is aborted and the resolution is kept in the patch the notice names.
  await left.getByRole('button', { name: 'Abort merge' }).click();
  await left.getByRole('button', { name: 'Abort and save my work' }).click();
  await expect(left).toHaveCount(0);
  await expect(page.getByText(/your work is saved in \.thclaws\/merge-aborts\/merge-abort-.*\.patch/).first()).toBeVisible();
  const saved = fs.readdirSync(path.join(d.ws, '.thclaws', 'merge-aborts'));
  expect(fs.readFileSync(path.join(d.ws, '.thclaws', 'merge-aborts', saved[0]!), 'utf8')).toContain('+from main and alice');
});
