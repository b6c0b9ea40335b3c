/**
 * The teammate's budget guard over a real store and real settings files (no process: the decisions are the
 * guard's, the store and the settings are the real ones).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeamStore } from '../store/index.js';
import { BudgetGuard, settingsBudgets } from './budget-guard.js';
import type { TeamSession } from './session.js';

let dir: string;
let store: TeamStore;
const env = (): NodeJS.ProcessEnv => ({ HOME: path.join(dir, 'home') });
const settingsFile = () => path.join(dir, '.thclaws', 'settings.json');
const writeSettings = (v: unknown) => fs.writeFileSync(settingsFile(), typeof v === 'string' ? v : JSON.stringify(v));
const tokens = (n: number) => ({ input_tokens: n, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
const sessionOf = (me: string) => ({ store, team: store, me, epoch: null, settled: async () => undefined }) as unknown as TeamSession;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'budget-guard-'));
  fs.mkdirSync(path.join(dir, '.thclaws'), { recursive: true });
  store = new TeamStore(path.join(dir, '.thclaws', 'state', 'team'));
  store.init();
  await store.config.create({ name: 't', members: [{ name: 'alice', model: 'claude-sonnet-5-5' }, { name: 'bob', model: 'local/unpriced' }, { name: 'carol', model: 'claude-sonnet-5-5' }] });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('BudgetGuard', () => {
  it('reads the settings limits afresh: a raise in settings.json lifts the hold, a broken file keeps the last limits', async () => {
    writeSettings({ budgets: { teammates: { alice: { tokens: 40 } } } });
    await store.statuses.account('alice', tokens(45), 0.01);
    const lines: string[] = [];
    const guard = new BudgetGuard(sessionOf('alice'), settingsBudgets(dir, env(), { roles: {}, teammates: {} }), (l) => lines.push(l));
    expect(await guard.check()).toBe("budget reached — alice's budget: 45 tokens of 40 tokens (112 %)");
    // A half-saved file: the last valid limit still holds.
    writeSettings('{"budgets": {"teammates": {"alice": {"tokens": 4');
    expect(await guard.check()).toMatch(/^budget reached/);
    writeSettings({ budgets: { teammates: { alice: { tokens: 100_000 } } } });
    expect(await guard.check()).toBeUndefined();
    expect(lines).toEqual(["[alice] budget reached: alice's budget: 45 tokens of 40 tokens (112 %)"]);
  });

  it("a member without a price is held by the team's USD limit before its first call; the priced ones by the known costs", async () => {
    writeSettings({ budgets: { team: { usd: 1 } } });
    const settings = settingsBudgets(dir, env(), { roles: {}, teammates: {} });
    const bob = new BudgetGuard(sessionOf('bob'), settings, () => undefined, () => false);
    expect(await bob.check()).toMatch(/^budget reached — the team's budget: \$\? of \$1\.0000 \(bob's model has no price/);
    // bob has spent (unknown), the lead $0.50: carol goes on; at $5 known she stops, bob's cost unknown or not.
    await store.statuses.account('bob', tokens(10), null);
    await store.statuses.account('lead', tokens(10), 0.5);
    const carol = new BudgetGuard(sessionOf('carol'), settings, () => undefined);
    expect(await carol.check()).toBeUndefined();
    await store.statuses.account('lead', tokens(10), 4.5);
    expect(await carol.check()).toMatch(/^budget reached — the team's budget: at least \$5\.0\d+ of \$1\.0000/);
  });
});
