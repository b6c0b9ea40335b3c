/**
 * 200 pending requests in real Chromium through `thclaws dashboard`. The requests are real status records
 * written through the store as a waiting teammate writes them (its `waiting` field, its heartbeat); the test
 * plays the teammates' side of the protocol: a beat every few seconds, and clearing `waiting` once its
 * answer frame is in its inbox. The badge counts 200, the inbox scrolls and j/k select, and approving one
 * removes exactly that one.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { TeamStore } from '../src/core/store/index.js';
import { startDashboard, type Dashboard } from './fixture.js';

const N = 200;
const names = Array.from({ length: N }, (_, i) => `t${String(i).padStart(3, '0')}`);
let d: Dashboard;
let page: Page;
let store: TeamStore;
let beat: NodeJS.Timeout | undefined;
const ids = new Map<string, string>();

test.describe.configure({ mode: 'serial' });

async function beatAll(): Promise<void> {
  for (const n of names) await store.statuses.write(n, {}, { durable: false });
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  d = await startDashboard(names, { teamEnabled: true, teammatePermissionMode: 'ask' });
  store = new TeamStore(d.teamDir);
  page = await (await browser.newContext()).newPage();
  await page.goto(d.url);
  // Hundreds of members make the first snapshot slow on a loaded machine: generous.
  await expect(page.locator('.pane[data-agent="lead"]')).toBeVisible({ timeout: 90_000 });
  const epoch = ((await store.config.load()) as { epoch?: string }).epoch ?? null;
  const now = Date.now();
  for (const [i, n] of names.entries()) {
    const id = randomUUID();
    ids.set(n, id);
    const command = `touch flood-${n}.txt`;
    const waiting = { request_id: id, kind: 'permission', agent: n, tool: 'Bash', summary: `run: ${command}`, input: { command }, cwd: d.ws, epoch, rule: `Bash(touch flood-${n}.txt:*)`, since: now + i, deadline: now + 3_600_000 };
    await store.statuses.write(n, { status: 'working', pid: process.pid, waiting } as never, { durable: false });
  }
  // Live teammates beat; without it every record would go stale and leave the inbox.
  beat = setInterval(() => void beatAll().catch(() => {}), 4000);
});

test.afterAll(async () => {
  if (beat) clearInterval(beat);
  await page?.context().close();
  await d?.stop();
});

const badge = () => page.getByTestId('approvals-badge');

test('200 pending: the badge counts them, the inbox scrolls, j/k select, approving one removes exactly that one', async () => {
  test.setTimeout(180_000);
  await expect(badge()).toHaveText(`approvals: ${N}`, { timeout: 60_000 });
  await expect(page.locator('.approval')).toHaveCount(N);
  // j walks down the list and the selected card is scrolled into view; k walks back.
  await page.locator('.team-name').click();
  for (let i = 0; i < 5; i++) await page.keyboard.press('j');
  await expect(page.locator('.approval.selected')).toHaveAttribute('data-request', ids.get(names[5]!)!);
  await page.keyboard.press('k');
  const selected = page.locator('.approval.selected');
  await expect(selected).toHaveAttribute('data-request', ids.get(names[4]!)!);
  // The last card can be scrolled to and answered.
  const last = page.locator(`.approval[data-request="${ids.get(names[N - 1]!)}"]`);
  // Scrolled to and clicked as one step, again if the list moved meanwhile (200 cards re-rendered by the heartbeats
  // under a loaded CI machine once kept it from settling for the whole test); a click either happens or times out.
  await expect(async () => {
    await last.scrollIntoViewIfNeeded({ timeout: 5_000 });
    await expect(last).toBeInViewport({ timeout: 5_000 });
    await last.getByRole('button', { name: 'Approve', exact: true }).click({ timeout: 10_000 });
  }).toPass({ timeout: 90_000 });
  // The teammate's side: its answer arrives in its inbox, and it clears its request.
  const target = names[N - 1]!;
  await expect
    .poll(async () => (await store.inboxes.read(target)).some((m) => (m as { request_id?: string }).request_id === ids.get(target)), { timeout: 30_000 })
    .toBe(true);
  await store.statuses.write(target, { waiting: null } as never, { durable: false });
  await expect(badge()).toHaveText(`approvals: ${N - 1}`);
  await expect(page.locator('.approval')).toHaveCount(N - 1);
  await expect(last).toHaveCount(0);
  // Every other teammate got nothing.
  for (const n of names.slice(0, 20)) expect(await store.inboxes.read(n)).toEqual([]);
  // One card is still selected, so the keyboard keeps working.
  await expect(selected).toHaveCount(1);
});
