import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TeamStore } from '../../core/store/index.js';
import type { HostEvent, Member } from '../../contract/api.js';
import { BudgetFeed, modelChoices } from './budget-feed.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-budget-feed-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const member = (name: string, tokens: number | null, cost_usd: number | null): Member =>
  ({ name, role: '', model: null, state: 'idle', alive: true, current_task: null, tokens, cost_usd, queued: 0, terminal: { kind: 'readonly', reason: '' }, can_respawn: false, waiting_for: null, budget_reached: null }) as Member;

describe('the host budget feed', () => {
  it('charts each accounted call from the store (unknown price kept unknown), a new feed reads them back, and tells 80 % once per limit', async () => {
    const store = new TeamStore(path.join(tmp, 'team'));
    store.init();
    await store.config.create({ name: 't', members: [{ name: 'alice' }] });
    const events: HostEvent[] = [];
    let roster: Member[] = [];
    const feed = new BudgetFeed(store, tmp, { HOME: tmp, XDG_CONFIG_HOME: path.join(tmp, 'cfg') }, (e) => events.push(e), () => roster);
    await feed.set({ agent: 'alice', limit: { tokens: 1000 } });
    expect(JSON.parse(fs.readFileSync(path.join(store.dir, 'budgets.json'), 'utf8')).teammates.alice).toEqual({ tokens: 1000 });
    const step = async (f: BudgetFeed, tokens: number, usd: number | null) => {
      if (tokens) await store.statuses.account('alice', { input_tokens: tokens, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }, usd);
      const st = (await store.status()).members.find((m) => m.name === 'alice');
      f.observe((roster = [member('alice', st?.tokens ?? null, st?.cost_usd ?? null)])[0]!);
      await f.settled();
    };
    await step(feed, 0, null);
    await step(feed, 500, 0.5);
    await step(feed, 350, null);
    await step(feed, 0, null);
    const spend = events.filter((e) => e.type === 'spend');
    expect(spend).toHaveLength(2);
    expect(spend.at(-1)).toMatchObject({ agent: 'alice', calls: [{ tokens: 500, usd: 0.5 }, { tokens: 350, usd: null }] });
    const notices = () => events.filter((e) => e.type === 'notice').map((e) => (e as { text: string }).text);
    expect(notices()).toEqual(["budget at 80 %: alice's budget: 850 tokens of 1,000 tokens (85 %)"]);
    await feed.set({ agent: 'alice', limit: { tokens: 1000, usd: 9 } });
    await step(feed, 50, null);
    // $? against a USD limit is reached, never an unlimited run.
    expect(notices().at(-1)).toMatch(/^budget reached: alice's budget: \$\? of \$9\.0000/);
    await expect(feed.set({ agent: 'alice', role: 'x', limit: null })).rejects.toThrow(/one teammate, one role or the team/);

    // A restarted host: a new store and feed over the same files chart every call at first sight.
    const later: HostEvent[] = [];
    const reborn = new BudgetFeed(new TeamStore(store.dir), tmp, { HOME: tmp, XDG_CONFIG_HOME: path.join(tmp, 'cfg') }, (e) => later.push(e), () => roster);
    await step(reborn, 0, null);
    expect(reborn.snapshotEvents().filter((e) => e.type === 'spend')).toMatchObject([{ agent: 'alice', calls: [{ tokens: 500 }, { tokens: 350 }, { tokens: 50 }] }]);
  });

  it("a role budget set from the dashboard holds that role, not the whole team: stored for the role, its teammate told by name", async () => {
    const store = new TeamStore(path.join(tmp, 'team-role'));
    store.init();
    await store.config.create({ name: 't', members: [{ name: 'alice', role: 'reviewer' }, { name: 'bob' }] });
    const events: HostEvent[] = [];
    const roster = [{ ...member('alice', 850, null), role: 'reviewer' }, member('bob', 850, null)];
    const feed = new BudgetFeed(store, tmp, { HOME: tmp, XDG_CONFIG_HOME: path.join(tmp, 'cfg') }, (e) => events.push(e), () => roster);
    const set = await feed.set({ role: 'reviewer', limit: { tokens: 1000 } });
    expect(set).toMatchObject({ roles: { reviewer: { tokens: 1000 } } });
    expect(set.team).toBeUndefined();
    expect(JSON.parse(fs.readFileSync(path.join(store.dir, 'budgets.json'), 'utf8'))).toMatchObject({ roles: { reviewer: { tokens: 1000 } } });
    for (const m of roster) feed.observe(m);
    await feed.settled();
    expect(events.filter((e) => e.type === 'notice').map((e) => (e as { text: string }).text)).toEqual(["budget at 80 %: alice's role budget: 850 tokens of 1,000 tokens (85 %)"]);
  });

  it("offers the aliases and each provider profile's <profile>/<model>", () => {
    const env = { HOME: tmp, XDG_CONFIG_HOME: path.join(tmp, 'cfg2') };
    fs.mkdirSync(path.join(tmp, 'cfg2', 'thclaws'), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'cfg2', 'thclaws', 'settings.json'), JSON.stringify({ providers: { local: { type: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', models: { a: {}, b: {} } } } }));
    expect(modelChoices(tmp, env)).toEqual(['sonnet', 'opus', 'haiku', 'local/a', 'local/b']);
  });
});
