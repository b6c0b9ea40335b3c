/**
 * A teammate's card in real Chromium through `thclaws dashboard`: a live teammate process shows its CPU,
 * memory and worktree disk; after the person lands bob's branch (`thclaws team merge`), the others read
 * "N behind main"; Update brings alice to 0 (main's files are in her worktree); Archive refuses carol's
 * unlanded work (her worktree stays) and removes bob's landed worktree and branch. Screenshots at 1440×900
 * and 390×844 go to $THCLAWS_SHOTS_DIR (default test-results/worktree-card-shots/).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startDashboard, type Dashboard } from './fixture.js';

let d: Dashboard;
let page: Page;
const SHOTS = process.env.THCLAWS_SHOTS_DIR ?? path.join('test-results', 'worktree-card-shots');
test.describe.configure({ mode: 'serial' });

const git = (cwd: string, ...a: string[]) => execFileSync('git', ['-c', 'user.email=e2e@thclaws.local', '-c', 'user.name=e2e', ...a], { cwd, encoding: 'utf8' }).trim();
const wt = (n: string) => path.join(d.ws, '.worktrees', n);
const pane = (n: string) => page.locator(`.pane[data-agent="${n}"]`);
/** The host samples every 5 s. */
const SAMPLED = { timeout: 20_000 };

async function shots(name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const [w, h] of [[1440, 900], [390, 844]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await expect(pane('alice').getByTestId('pane-costs')).toBeVisible();
    await page.screenshot({ path: path.join(SHOTS, `${name}-${w}x${h}.png`), fullPage: w < 700 });
    // Each teammate's card header as the person scrolls to it (the page shot shows the first panes only on a phone).
    for (const n of ['alice', 'bob', 'carol']) {
      if (!(await pane(n).count())) continue;
      await pane(n).locator('header').scrollIntoViewIfNeeded();
      await pane(n).locator('header').screenshot({ path: path.join(SHOTS, `${name}-${n}-${w}x${h}.png`) });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test.beforeAll(async ({ browser }) => {
  d = await startDashboard(['alice', 'bob', 'carol'], { teamEnabled: true, checks: [] });
  fs.appendFileSync(path.join(d.ws, '.git', 'info', 'exclude'), '.worktrees/\n.thclaws/\n.home/\n');
  fs.writeFileSync(path.join(d.ws, 'README.md'), '# app\n');
  git(d.ws, 'add', 'README.md');
  git(d.ws, 'commit', '-qm', 'init');
  git(d.ws, 'branch', '-M', 'main');
  for (const n of ['alice', 'bob', 'carol']) git(d.ws, 'worktree', 'add', '-q', '-b', `team/${n}`, path.join('.worktrees', n));
  for (const [n, file] of [['bob', 'api.js'], ['carol', 'ui.html']] as const) {
    fs.writeFileSync(path.join(wt(n), file), `${n}\n`);
    git(wt(n), 'add', '-A');
    git(wt(n), 'commit', '-qm', `${n}: ${file}`);
  }
  d.startSim('alice');
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto(d.url);
  await expect(pane('alice')).toBeVisible();
});

test.afterAll(async () => {
  await d?.stop();
});

test('a live teammate shows CPU, memory and its worktree disk', async () => {
  const costs = pane('alice').getByTestId('pane-costs');
  await expect(costs).toHaveText(/^CPU \d+% · \d+ MB · disk \d+ KB$/, SAMPLED);
  // bob runs no process: only its worktree's disk.
  await expect(pane('bob').getByTestId('pane-costs')).toHaveText(/^disk \d+ KB$/, SAMPLED);
  await expect(pane('alice').getByTestId('pane-behind')).toHaveCount(0);
});

test("after a landing the others read N behind main; Update brings alice to 0", async () => {
  d.cli('team', 'merge', 'bob');
  await expect(pane('alice').getByTestId('pane-behind')).toHaveText('2 behind main', SAMPLED);
  await expect(pane('carol').getByTestId('pane-behind')).toHaveText('2 behind main');
  // Carol's header (Changes, Update, Archive) leaves her figures an ellipsis on a wide window: whole on hover.
  await expect(pane('carol').getByTestId('pane-costs')).toHaveAttribute('title', /^disk \d+ KB: CPU and memory of the agent/);
  await expect(pane('alice').getByTestId('pane-costs')).toHaveAttribute('title', /^CPU \d+% · \d+ MB · disk \d+ KB: /);
  await shots('card-behind');
  // While she works (or starts) the update waits: the button says so and does nothing.
  const sim = d.sims.get('alice')!;
  for (const state of ['working', 'spawning']) {
    sim.stdin!.write(`status {"status":"${state}"}\n`);
    await expect(pane('alice').getByRole('button', { name: 'Update' })).toBeDisabled(SAMPLED);
    await expect(pane('alice').getByRole('button', { name: 'Update' })).toHaveAttribute('title', 'once it is idle');
  }
  sim.stdin!.write('status {"status":"idle"}\n');
  await expect(pane('alice').getByRole('button', { name: 'Update' })).toBeEnabled(SAMPLED);
  await pane('alice').getByRole('button', { name: 'Update' }).click();
  await expect(pane('alice').getByTestId('pane-behind')).toHaveCount(0);
  await expect(pane('alice').getByRole('button', { name: 'Update' })).toHaveCount(0);
  expect(fs.readFileSync(path.join(wt('alice'), 'api.js'), 'utf8')).toBe('bob\n');
});

test("Archive refuses carol's unlanded work and removes bob's landed worktree and branch", async () => {
  const asked: string[] = [];
  page.on('dialog', (dlg) => {
    asked.push(dlg.message());
    // Yes to "Archive …?", no to "… anyway?" (throwing carol's work away).
    void (dlg.message().includes('anyway?') ? dlg.dismiss() : dlg.accept());
  });
  await pane('carol').getByRole('button', { name: 'Archive' }).click();
  await expect(page.getByText("carol's work has not landed (1 commit(s) main lacks)").first()).toBeVisible();
  expect(asked).toHaveLength(2);
  expect(fs.existsSync(wt('carol'))).toBe(true);
  expect(git(d.ws, 'rev-parse', '--verify', 'team/carol')).toMatch(/^[0-9a-f]{40}$/);

  await pane('bob').getByRole('button', { name: 'Archive' }).click();
  await expect(pane('bob').getByRole('button', { name: 'Archive' })).toHaveCount(0);
  await expect(pane('bob').getByTestId('pane-costs')).toHaveCount(0);
  expect(fs.existsSync(wt('bob'))).toBe(false);
  expect(() => git(d.ws, 'rev-parse', '-q', '--verify', 'refs/heads/team/bob')).toThrow();
  expect(fs.readFileSync(path.join(d.teamDir, 'team.log'), 'utf8')).toMatch(/archived bob: worktree \.worktrees\/bob and branch team\/bob at [0-9a-f]{40}/);
  await shots('card-archived');
});
