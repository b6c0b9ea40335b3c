/**
 * Hostile input through the approval inbox in real Chromium (`thclaws dashboard`, real scripted teammates):
 * a plan full of script vectors and links, a command with HTML and ANSI escapes, a 1 MB command. Nothing runs,
 * no dialog opens, no request leaves 127.0.0.1, and the page keeps answering. Then a click on a request that
 * timed out a moment before gets a clear notice and its card goes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { THCLAWS } from '../test/desktop/helpers.js';
import { startDashboard, type Dashboard } from './fixture.js';

let d: Dashboard;
let page: Page;
const teammates: ChildProcess[] = [];
const dialogs: string[] = [];
const offHost: string[] = [];

test.describe.configure({ mode: 'serial' });

const HOSTILE_PLAN = [
  '# Plan <img src=x onerror="window.pwnd=1">',
  '',
  '- [a](javascript:window.pwnd=2) [b](JaVaScRiPt:window.pwnd=3) [c](&#106;avascript:window.pwnd=4)',
  '- [d](data:text/html,<script>parent.pwnd=5</script>) [e](vbscript:x) [f]( javascript:window.pwnd=6)',
  '- <script>window.pwnd=7</script> <svg onload="window.pwnd=8"></svg> <iframe src="javascript:parent.pwnd=9">',
  '- ![remote](http://198.51.100.7/track.png) <img src="http://198.51.100.7/t2.png"> [ok](https://example.com/x)',
  '- **<b onmouseover="window.pwnd=10">bold</b>** `<img src=x onerror=window.pwnd=11>`',
  ...Array.from({ length: 300 }, (_, i) => `${' '.repeat(i % 40)}- nested ${i}`),
  'x'.repeat(30_000),
].join('\n');

const ANSI_CMD = 'echo "\u001b[31mred\u001b[0m <img src=x onerror=window.pwnd=12> \u001b]0;title\u0007" > /dev/null';
const LONG_CMD = `echo ${'A'.repeat(150_000)} > /dev/null`;
const BIG_CMD = `echo ${'B'.repeat(1024 * 1024)} > /dev/null`;
const complete = (id: string) => ({ name: 'TeamTaskComplete', input: { task_id: id, summary: 'done' } });
const SCRIPT = {
  rules: [
    { match: 'Task #1 —', turns: [{ text: 'p', tool_calls: [{ name: 'SubmitPlan', input: { plan: HOSTILE_PLAN } }] }, { text: 'go', tool_calls: [{ name: 'Bash', input: { command: ANSI_CMD } }, { name: 'Bash', input: { command: LONG_CMD } }, { name: 'Bash', input: { command: BIG_CMD } }, complete('1')] }, { text: 'end' }] },
    { match: 'Task #2 —', turns: [{ text: 't', tool_calls: [{ name: 'Bash', input: { command: 'touch timed-out.txt' } }, complete('2')] }, { text: 'end' }] },
  ],
  fallback: [{ text: 'ok' }],
};

function startTeammate(name: string, env: Record<string, string> = {}): void {
  const home = path.join(d.ws, '.home');
  const script = path.join(home, 'script.json');
  fs.writeFileSync(script, JSON.stringify(SCRIPT));
  teammates.push(
    spawn(THCLAWS, ['--team-agent', name, '--script', script], {
      cwd: d.ws,
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), THCLAWS_TEAM_DIR: d.teamDir, ...env },
      stdio: 'ignore',
    }),
  );
}

test.beforeAll(async ({ browser }) => {
  d = await startDashboard(['alice', 'bob'], { teamEnabled: true, teammatePermissionMode: 'ask', approvalTimeoutMs: 6000 });
  page = await (await browser.newContext()).newPage();
  page.on('dialog', (dl) => {
    dialogs.push(dl.message());
    void dl.dismiss();
  });
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.hostname !== '127.0.0.1' && u.protocol !== 'data:') offHost.push(r.url());
  });
  await page.goto(d.url);
  await expect(page.locator('.pane[data-agent="lead"]')).toBeVisible();
});

test.afterAll(async () => {
  for (const c of teammates) c.kill('SIGKILL');
  await page?.context().close();
  await d?.stop();
});

const pwned = () => page.evaluate(() => (window as unknown as { pwnd?: number }).pwnd ?? null);

test('a hostile plan and hostile commands render as text: no script, no dialog, no off-host request, only http(s) links', async () => {
  // The approval timeout is short for the next test; this teammate waits long enough to be looked at.
  fs.writeFileSync(path.join(d.ws, '.thclaws', 'settings.local.json'), JSON.stringify({ approvalTimeoutMs: 120_000 }));
  startTeammate('alice', { THCLAWS_PLAN_MODE: '1' });
  d.cli('team', 'task', 'add', '--subject', 'hostile', '--owner', 'alice');
  const plan = page.locator('.approval[data-kind="plan"]');
  await expect(plan).toBeVisible({ timeout: 30_000 });
  await expect(plan.locator('.markdown')).toContainText('<script>window.pwnd=7</script>');
  await expect(plan.locator('.markdown li')).toHaveCount(305);
  // Every link the plan made is http(s) (an image becomes a plain link, never fetched); every other target stayed text.
  const hrefs = await plan.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  expect(hrefs).toEqual(['http://198.51.100.7/track.png', 'https://example.com/x']);
  await expect(plan.locator('img, svg, iframe, script, b[onmouseover]')).toHaveCount(0);
  await plan.locator('a').last().hover();
  await plan.locator('strong').first().hover();
  // The page still answers while the plan (and its 30 000-character line) is shown.
  await page.locator('.team-name').click();
  await plan.getByRole('button', { name: 'Approve', exact: true }).click();

  const ansi = page.locator('.approval', { hasText: 'red' });
  await expect(ansi).toBeVisible({ timeout: 30_000 });
  await expect(ansi.locator('.approval-detail')).toContainText('<img src=x onerror=window.pwnd=12>');
  await expect(ansi.locator('img')).toHaveCount(0);
  await ansi.getByRole('button', { name: 'Deny', exact: true }).click();

  const long = page.locator('.approval', { hasText: 'echo AAAA' });
  await expect(long).toBeVisible({ timeout: 30_000 });
  // A 150 000-character command travels as a bounded preview; the card stays a card.
  // (its words show the preview; no raw input rides along for a command that large)
  const shown = await long.getByTestId('approval-words').textContent();
  expect(shown!.length).toBeLessThanOrEqual(20_100);
  expect(shown).toContain('echo AAAA');
  await expect(long.locator('.approval-detail')).toHaveCount(0);
  await long.getByRole('button', { name: 'Deny', exact: true }).click();
  // A 1 MB command is refused by the role guard before anyone is asked: no card for it, ever.
  await expect.poll(() => d.cli('team', 'tasks'), { timeout: 30_000 }).toMatch(/1\s+completed/);
  await expect(page.locator('.approval', { hasText: 'echo BBBB' })).toHaveCount(0);
  await expect(page.getByTestId('approvals-badge')).toHaveText('approvals: 0');

  expect(await pwned()).toBeNull();
  expect(dialogs).toEqual([]);
  expect(offHost).toEqual([]);
});

test('a click on a request that timed out a moment before: a clear notice, and the card goes', async () => {
  fs.rmSync(path.join(d.ws, '.thclaws', 'settings.local.json'), { force: true });
  startTeammate('bob');
  d.cli('team', 'task', 'add', '--subject', 'late click', '--owner', 'bob');
  const c = page.locator('.approval', { hasText: 'touch timed-out.txt' });
  await expect(c).toBeVisible({ timeout: 30_000 });
  const id = (await c.getAttribute('data-request'))!;
  const deadline = Number(JSON.parse(d.cli('team', 'approvals', '--json')).find((w: { request_id: string }) => w.request_id === id)?.deadline ?? 0);
  // The teammate is stopped (it can neither time out nor clear its request) and the page held busy (no update
  // can remove the card) until past the deadline; then the person clicks.
  const pid = (JSON.parse(fs.readFileSync(path.join(d.teamDir, 'agents', 'bob', 'status.json'), 'utf8')) as { pid: number }).pid;
  process.kill(pid, 'SIGSTOP');
  try {
    await page.evaluate(
      ([sel, until]) => {
        while (Date.now() < until);
        (document.querySelector(sel) as HTMLButtonElement).click();
      },
      [`.approval[data-request="${id}"] button.approve`, deadline + 500] as const,
    );
    await expect(page.locator('.notice').filter({ hasText: id })).toContainText(/timed out at/);
  } finally {
    process.kill(pid, 'SIGCONT');
  }
  await expect(page.locator(`.approval[data-request="${id}"]`)).toHaveCount(0);
  await expect.poll(() => d.cli('team', 'tasks'), { timeout: 30_000 }).toMatch(/2\s+completed/);
  expect(fs.existsSync(path.join(d.ws, 'timed-out.txt'))).toBe(false);
});
