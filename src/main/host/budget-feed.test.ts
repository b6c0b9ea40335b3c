import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TeamStore } from '../../core/store/index.js';
import type { HostEvent, Member } from '../../shared/api.js';
import { BudgetFeed, modelChoices } from './budget-feed.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-budget-feed-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const member = (name: string, tokens: number | null, cost_usd: number | null): Member =>
  ({ name, role: '', model: null, state: 'idle', alive: true, current_task: null, tokens, cost_usd, queued: 0, terminal: { kind: 'readonly', reason: '' }, can_respawn: false, waiting_for: null, budget_reached: null }) as Member;

describe('the host budget feed', () => {
  it('charts each growth of an agent’s totals as one call (unknown price kept unknown) and tells 80 % once per limit', async () => {
    const store = new TeamStore(path.join(tmp, 'team'));
    fs.mkdirSync(store.dir, { recursive: true });
    const events: HostEvent[] = [];
    let roster: Member[] = [];
    const feed = new BudgetFeed(store, tmp, { HOME: tmp, XDG_CONFIG_HOME: path.join(tmp, 'cfg') }, (e) => events.push(e), () => roster);
    await feed.set({ agent: 'alice', limit: { tokens: 1000 } });
    expect(JSON.parse(fs.readFileSync(path.join(store.dir, 'budgets.json'), 'utf8')).teammates.alice).toEqual({ tokens: 1000 });
    const step = (tokens: number | null, usd: number | null) => feed.observe((roster = [member('alice', tokens, usd)])[0]!);
    step(null, null);
    step(500, 0.5);
    step(850, null);
    step(850, null);
    const spend = events.filter((e) => e.type === 'spend');
    expect(spend.at(-1)).toMatchObject({ agent: 'alice', calls: [{ tokens: 500, usd: 0.5 }, { tokens: 350, usd: null }] });
    const notices = () => events.filter((e) => e.type === 'notice').map((e) => (e as { text: string }).text);
    expect(notices()).toEqual(["budget at 80 %: alice's budget: 850 tokens of 1,000 tokens (85 %)"]);
    await feed.set({ agent: 'alice', limit: { tokens: 1000, usd: 9 } });
    step(900, null);
    expect(notices()).toHaveLength(1);
    step(1000, null);
    expect(notices().at(-1)).toBe("budget reached: alice's budget: 1,000 tokens of 1,000 tokens (100 %)");
    await expect(feed.set({ agent: 'alice', role: 'x', limit: null })).rejects.toThrow(/one teammate, one role or the team/);
  });

  it("offers the aliases and each provider profile's <profile>/<model>", () => {
    const env = { HOME: tmp, XDG_CONFIG_HOME: path.join(tmp, 'cfg2') };
    fs.mkdirSync(path.join(tmp, 'cfg2', 'thclaws'), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'cfg2', 'thclaws', 'settings.json'), JSON.stringify({ providers: { local: { type: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', models: { a: {}, b: {} } } } }));
    expect(modelChoices(tmp, env)).toEqual(['sonnet', 'opus', 'haiku', 'local/a', 'local/b']);
  });
});
