/**
 * The team on another machine, in real Chromium through `thclaws dashboard --remote` (a real process): a private
 * sshd on 127.0.0.1 and a second local user as "the other machine" (test/remote/ssh-machine.ts). The live demo's
 * scripted team runs in that user's workspace: its panes stream to the page, backend's Bash approved here runs
 * there (the file appears in the remote user's worktree), and the merge panel lands both branches on the remote's
 * `main`. Killing the local ssh shows "connection to <host> lost" in the page's banner, and the page comes back
 * by itself. Screenshots at 1440×900 and 390×844 in THCLAWS_SHOTS_DIR (default test-results/remote-shots/).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DASHBOARD_PROMPT, teamScript } from '../src/main/host/demo-team.js';
import { THCLAWS } from '../test/desktop/helpers.js';
import { skipReason, startSshMachine, type SshMachine } from '../test/remote/ssh-machine.js';
import { shotsAtBothSizes } from './fixture.js';

const USER = 'thcr1';
const SHOTS = process.env.THCLAWS_SHOTS_DIR ?? path.join('test-results', 'remote-shots');
const skip = skipReason();
test.describe.configure({ mode: 'serial' });
test.skip(skip !== null, skip ?? '');

let m: SshMachine;
let ws = '';
let dash: ChildProcess;
let out = '';
let page: Page;

const termText = (name: string) => page.evaluate((n) => (window as unknown as { __thclaws: { terminals: { text(a: string): string } } }).__thclaws.terminals.text(n), name);
const sshOfDashboard = (): number[] =>
  fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((d) => {
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      return stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === 'ssh' && Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[1]) === dash.pid;
    } catch {
      return false;
    }
  }).map(Number);

const shots = (name: string) => shotsAtBothSizes(page, SHOTS, name);

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  m = await startSshMachine();
  ws = m.workspace(USER);
  // The demo's workspace, made there by its user: a git repository on main, the demo's settings, its folder trusted.
  // Asking pinned here: the remote user's own settings are shared with other tests of that user.
  const settings = { teamEnabled: true, teammateMode: 'host', teammatePermissionMode: 'ask', autoAllowSandboxedBash: false, provider: 'scripted', checks: ['test -f api/server.js && test -f ui/index.html && echo "check: both there"'], permissions: { allow: ['TeamCreate', 'TeamTaskCreate', 'SpawnTeammate', 'TeamMerge'] }, teammates: { frontend: { allow: ['Bash'] }, qa: { allow: ['Bash'] } } };
  const home = m.user(USER).home;
  // Trusted there, as the demo trusts its own folder: added to that user's list (other tests use the same user).
  const trustFile = path.join(home, '.config', 'thclaws', 'trusted-folders.json');
  let trusted: string[] = [];
  try {
    trusted = (JSON.parse(fs.readFileSync(trustFile, 'utf8')) as { folders?: string[] }).folders ?? [];
  } catch {
    // none yet
  }
  const r = m.run(USER, [
    'sh', '-c',
    'cd "$1" && git init -q -b main && git config user.email demo@thclaws.local && git config user.name demo && echo "# remote project" > README.md && git add -A && git commit -qm init && mkdir .thclaws && printf %s "$2" > .thclaws/settings.json && printf %s "$3" > .git/demo-script.json && mkdir -p "$4/.config/thclaws" && printf %s "$5" > "$4/.config/thclaws/trusted-folders.json"',
    'sh', ws, JSON.stringify(settings), JSON.stringify(teamScript(true)), home, JSON.stringify({ folders: [...trusted, ws] }),
  ]);
  expect(r.status, r.stderr).toBe(0);
  const local = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-e2e-remote-'));
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: local, XDG_CONFIG_HOME: path.join(local, '.config'), XDG_RUNTIME_DIR: local, THCLAWS_SSH: m.ssh };
  for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];
  dash = spawn(THCLAWS, ['dashboard', '--remote', m.url(USER, ws), '--remote-bin', m.bin, '--lead-script', path.join(ws, '.git', 'demo-script.json'), '--lead-prompt', DASHBOARD_PROMPT, '--port', '0'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  dash.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  await expect.poll(() => /agents run on thcr1 in \S+ \(host pid \d+ there\)/.test(out), { timeout: 60_000 }).toBe(true);
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto(/(http:\/\/\S+token=\S+)/.exec(out)![1]!);
});

test.afterAll(async () => {
  await page?.context().close();
  if (dash && dash.exitCode === null) dash.kill('SIGTERM');
  await m?.close();
});

test('panes stream from the remote team; an approval clicked runs there; the merge lands on the remote main', async () => {
  test.setTimeout(240_000);
  await expect(page.locator('.pane[data-agent="lead"]')).toBeVisible();
  await expect.poll(() => termText('lead'), { timeout: 60_000 }).toContain('Build a tiny web app with a team');
  for (const name of ['backend', 'frontend', 'qa']) await expect(page.locator(`.pane[data-agent="${name}"]`)).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('select.workspace')).toHaveValue(ws);

  const bash = page.locator('.approval[data-kind="permission"]', { hasText: 'api/server.js' });
  const plan = page.locator('.approval[data-kind="plan"]', { hasText: 'Plan: the UI' });
  await expect(bash).toBeVisible({ timeout: 60_000 });
  await expect(plan).toBeVisible({ timeout: 60_000 });
  const made = path.join(ws, '.worktrees', 'backend', 'api', 'server.js');
  expect(fs.existsSync(made)).toBe(false);
  await shots('remote-dashboard');
  await bash.getByRole('button', { name: 'Approve', exact: true }).click();
  // The command ran on "the other machine": the file is in its user's worktree, owned by that user.
  await expect.poll(() => fs.existsSync(made), { timeout: 60_000 }).toBe(true);
  expect(fs.statSync(made).uid).toBe(m.user(USER).uid);
  await plan.getByRole('button', { name: 'Approve', exact: true }).click();

  await page.getByRole('button', { name: 'Tasks' }).click();
  await expect(page.locator('.board-col[data-column="completed"] .task')).toHaveCount(3, { timeout: 120_000 });
  await expect.poll(() => termText('lead'), { timeout: 60_000 }).toContain('Both branches merge cleanly.');
  await page.evaluate(() => (location.hash = '#merge'));
  const panel = page.getByTestId('merge-panel');
  await expect(panel.locator('tr[data-agent="backend"]')).toContainText('#1 Build the API');
  await panel.getByRole('button', { name: 'Merge 2' }).click();
  await expect(panel.getByTestId('merge-result')).toContainText('landed on main', { timeout: 90_000 });
  const tree = m.run(USER, ['git', '-C', ws, 'ls-tree', '-r', '--name-only', 'main']);
  expect(tree.stdout).toContain('api/server.js');
  expect(tree.stdout).toContain('ui/index.html');
  await shots('remote-merged');
  await panel.getByRole('button', { name: 'close' }).click();
  await page.getByRole('button', { name: 'Team', exact: true }).click();
});

test('the link drops: the banner says the team keeps running there; the page comes back by itself', async () => {
  test.setTimeout(120_000);
  const ssh = sshOfDashboard();
  expect(ssh).toHaveLength(1);
  process.kill(ssh[0]!, 'SIGKILL');
  const banner = page.getByTestId('link-lost');
  await expect(banner).toHaveText(/^connection to thcr1 lost — the team keeps running there; reconnecting…/);
  await shots('remote-link-lost');
  await expect(banner).toHaveCount(0, { timeout: 60_000 });
  await expect.poll(() => termText('lead'), { timeout: 30_000 }).toContain('Both branches merge cleanly.');
  expect(sshOfDashboard()).toHaveLength(1);
});

test('the picker lists this machine\'s recent remotes; "Open remote folder…" asks for a URL and moves the page to that folder there', async () => {
  test.setTimeout(120_000);
  const picker = page.locator('select.workspace');
  // The remote this dashboard opened is in the picker's remote group.
  await expect(picker.locator('optgroup[label="remote"] option')).toHaveText([m.url(USER, ws)]);
  const other = m.workspace(USER);
  const r = m.run(USER, ['sh', '-c', 'cd "$1" && git init -q && mkdir .thclaws && printf %s \'{"provider":"scripted"}\' > .thclaws/settings.json', 'sh', other]);
  expect(r.status, r.stderr).toBe(0);
  await picker.selectOption({ label: 'Open remote folder…' });
  const dialog = page.getByRole('dialog', { name: 'Open remote folder' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('ssh URL').fill(m.url(USER, other));
  await expect(dialog.getByRole('checkbox')).not.toBeChecked();
  await shots('remote-dialog');
  await dialog.getByRole('button', { name: 'Open' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(picker).toHaveValue(other, { timeout: 60_000 });
  await expect(picker.locator('optgroup[label="remote"] option')).toHaveText([m.url(USER, other), m.url(USER, ws)]);
});
