/**
 * The lead's team cards in words, at 1440×900 and on a 390×844 phone: a real lead REPL (scripted) in a folder
 * with no team asks for TeamCreate and SpawnTeammate; each card says what will happen ("Create team shop:
 * alice (API, own worktree), …", "Start alice with: 'you own the API'"), keeps the JSON under "details", and
 * while the lead builds the team the page says so instead of offering "Create a team". "Always" says what it
 * covers and where it is saved, and the lead, restarted, neither asks to trust the folder for it nor asks again.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ROOT } from '../test/desktop/helpers.js';
import { startDashboard, type Dashboard } from './fixture.js';

let d: Dashboard;
let page: Page;
const shots = path.join(ROOT, 'test-results', 'screenshots');

test.describe.configure({ mode: 'serial' });

const member = (name: string, role: string, isolation: 'worktree' | 'none') => ({ name, role, isolation });
const SCRIPT = {
  rules: [
    {
      match: 'build the shop team',
      turns: [
        { text: 'Creating the team.', tool_calls: [{ name: 'TeamCreate', input: { name: 'shop', agents: [member('alice', 'API', 'worktree'), member('bob', 'UI', 'worktree'), member('carol', 'QA', 'none')] } }] },
        { tool_calls: [{ name: 'SpawnTeammate', input: { name: 'alice', prompt: 'you own the API' } }] },
        { tool_calls: [{ name: 'SpawnTeammate', input: { name: 'bob', prompt: 'you own the UI' } }] },
        { text: 'team up' },
      ],
    },
    { match: 'start carol', turns: [{ tool_calls: [{ name: 'SpawnTeammate', input: { name: 'carol' } }] }, { text: 'carol up' }] },
  ],
  fallback: [{ text: 'ok' }],
};

const termText = (name: string) => page.evaluate((n) => (window as unknown as { __thclaws: { terminals: { text(a: string): string } } }).__thclaws.terminals.text(n), name);
const card = (tool: string) => page.locator('.approval', { has: page.locator('.approval-tool', { hasText: tool }) });

async function typeToLead(text: string): Promise<void> {
  await page.locator('.pane[data-agent="lead"] .xterm').click();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

/** Serious and critical axe-core violations of the page as it is now. */
async function serious(what: string): Promise<string[]> {
  return (await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${what}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

test.beforeAll(async ({ browser }) => {
  const script = fs.mkdtempSync(path.join(ROOT, 'test-results', 'cards-words-')) + '/lead.json';
  fs.writeFileSync(script, JSON.stringify(SCRIPT));
  // No team yet: the lead builds it. A commit, so its teammates' worktrees can branch from it.
  d = await startDashboard([], { teamEnabled: true }, {}, ['--port', '0', '--lead-script', script]);
  fs.writeFileSync(path.join(d.ws, 'README.md'), '# shop\n');
  execFileSync('git', ['add', '-A'], { cwd: d.ws });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init'], { cwd: d.ws });
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto(d.url);
  await expect.poll(() => termText('lead'), { timeout: 60_000 }).toContain('thclaws>');
});

test.afterAll(async () => {
  await page?.context().close();
  await d?.stop();
});

test("the lead's TeamCreate reads as words at both sizes, and the page says the lead is setting up the team", async () => {
  await expect(page.getByRole('button', { name: 'Create a team' })).toBeVisible();
  // No team: nothing to stop, review or merge.
  for (const name of ['Stop the team', 'Changes', 'Merge']) await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
  await typeToLead('build the shop team');
  const create = card('TeamCreate');
  await expect(create).toBeVisible({ timeout: 30_000 });
  const words = create.getByTestId('approval-words');
  await expect(words).toHaveText('Create team shop: alice (API, own worktree), bob (UI, own worktree), carol (QA, project folder)');
  await expect(words.locator('strong')).toHaveText('shop');
  // The JSON is kept, folded under "details".
  const raw = create.locator('.approval-raw');
  await expect(raw.locator('code')).toBeHidden();
  await raw.locator('summary').click();
  await expect(raw.locator('code')).toContainText('"agents":[{"name":"alice"');
  // No race with the lead: no "Create a team" while its TeamCreate waits.
  await expect(page.getByTestId('setting-up')).toHaveText('the lead is setting up the team…');
  await expect(page.getByRole('button', { name: 'Create a team' })).toHaveCount(0);
  await expect(page.locator('.team-name')).toHaveText('setting up…');
  await page.screenshot({ path: path.join(shots, 'cards-words-1440.png') });
  const found = await serious('1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(words).toBeVisible();
  await expect(page.getByTestId('setting-up')).toBeVisible();
  // Words wrap inside the phone's width.
  const box = (await words.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: path.join(shots, 'cards-words-390.png') });
  found.push(...(await serious('390')));
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(found).toEqual([]);
  await create.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page.locator('.team-name')).toHaveText('shop');
  await expect(page.getByTestId('setting-up')).toHaveCount(0);
  for (const name of ['Stop the team', 'Changes', 'Merge']) await expect(page.getByRole('button', { name, exact: true })).toBeVisible();
});

test("SpawnTeammate reads 'Start alice with: …'; Always says what it covers and where it is saved, and the next spawn does not ask", async () => {
  const spawn = card('SpawnTeammate');
  await expect(spawn).toBeVisible({ timeout: 30_000 });
  await expect(spawn.getByTestId('approval-words')).toHaveText("Start alice with: 'you own the API'");
  const always = spawn.getByRole('button', { name: 'Always allow SpawnTeammate in this project — saved in .thclaws/settings.local.json', exact: true });
  await expect(always).toBeVisible();
  await expect(spawn.locator('.approval-always')).toHaveText('Always: allow SpawnTeammate in this project — saved in .thclaws/settings.local.json');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(always).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'cards-spawn-390.png') });
  await page.setViewportSize({ width: 1440, height: 900 });
  await always.click();
  // bob is started by the same rule: no card, the lead goes on by itself.
  await expect.poll(() => termText('lead'), { timeout: 60_000 }).toContain('team up');
  await expect(page.locator('.pane[data-agent="bob"] .badge')).toHaveText(/idle|working/, { timeout: 60_000 });
  await expect(page.getByTestId('approvals-badge')).toHaveText('approvals: 0');
  expect(JSON.parse(fs.readFileSync(path.join(d.ws, '.thclaws', 'settings.local.json'), 'utf8')).permissions.allow).toEqual(['SpawnTeammate']);
});

test('the lead restarted after that Always: no folder-trust question, and the rule still holds', async () => {
  await typeToLead('/quit');
  const respawn = page.locator('.pane[data-agent="lead"]').getByRole('button', { name: 'Respawn' });
  await expect(respawn).toBeVisible({ timeout: 30_000 });
  await respawn.click();
  await expect(page.locator('.pane[data-agent="lead"] .badge')).toHaveText('idle', { timeout: 60_000 });
  await typeToLead('start carol');
  // Had the restart asked to trust the folder, its card would wait here and carol would never start.
  await expect(page.locator('.pane[data-agent="carol"] .badge')).toHaveText(/idle|working/, { timeout: 60_000 });
  await expect(page.locator('.approval')).toHaveCount(0);
  expect(await termText('lead')).not.toContain('Trust the files');
});
