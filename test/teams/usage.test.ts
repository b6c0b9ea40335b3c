/** Tokens and cost: a real teammate process on the real SDK against the fake Messages API sums every call into its status. */
import { describe, expect, it } from 'vitest';
import { runCli, scrubbedEnv } from '../agent/helpers.js';
import { estimateCost } from '../../src/core/agent/cost.js';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import { teamStatusText } from '../../src/core/teams/status-view.js';
import { aliceOnFakeModel } from './fake-model-team.js';
import { cleanupsAfterEach, waitFor } from './helpers.js';

const cleanups = cleanupsAfterEach();

describe('usage accounting', () => {
  it("a teammate's status.json gets the token sums and the cost of every model call; the lead's too; `team status` shows them", async () => {
    const { fake, ws, session } = await aliceOnFakeModel(cleanups);
    await session.store.tasks.create({ subject: 'count things', description: 'count', reservedFor: 'alice' });
    const a = { input_tokens: 1200, output_tokens: 300, cache_creation_input_tokens: 4000, cache_read_input_tokens: 0 };
    const b = { input_tokens: 50, output_tokens: 20, cache_creation_input_tokens: 60, cache_read_input_tokens: 5200 };
    fake.enqueue({ toolUses: [{ name: 'TeamTaskComplete', input: { task_id: '1', summary: 'counted' } }], usage: a }, { text: 'finished', usage: b });
    await spawnTeammate(session, { name: 'alice' });
    const st = await waitFor(async () => {
      const s = await session.store.statuses.read('alice');
      return s?.usage?.output_tokens === 320 && s.status === 'idle' ? s : null;
    }, 'both calls accounted');
    expect(fake.requests.filter((r) => r.url.startsWith('/v1/messages'))).toHaveLength(2);
    expect(st.usage).toEqual({ input_tokens: 1250, output_tokens: 320, cache_creation_input_tokens: 4060, cache_read_input_tokens: 5200 });
    const usd = estimateCost('claude-sonnet-5-5', { inputTokens: 1250, outputTokens: 320, cacheWriteTokens: 4060, cacheReadTokens: 5200 })!;
    expect(usd).toBeGreaterThan(0);
    expect(st.cost_usd).toBeCloseTo(usd, 6);

    // The lead accounts into its own status; a model without a known price makes the cost unknown, not 0.
    await session.recordUsage({ inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 }, 0.001);
    await session.recordUsage({ inputTokens: 7, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 0 }, null);
    const lead = await session.store.statuses.read('lead');
    expect(lead?.usage).toMatchObject({ input_tokens: 17, output_tokens: 8 });
    expect(lead?.cost_usd).toBeNull();
    expect(lead?.status).toBe('idle');
    await session.leadTurn(true);
    expect((await session.store.statuses.read('lead'))?.status).toBe('working');
    await session.leadTurn(false);
    expect((await session.store.statuses.read('lead'))).toMatchObject({ status: 'idle', usage: { input_tokens: 17 } });

    const r = await runCli(['team', 'status'], { cwd: ws.dir, env: scrubbedEnv(ws.home) });
    expect(r.code).toBe(0);
    const row = (name: string) => r.stdout.split('\n').find((l) => l.startsWith(`${name} `)) ?? '';
    expect(row('alice')).toContain('10,830');
    expect(row('alice')).toContain(`$${usd.toFixed(4)}`);
    expect(row('lead')).toMatch(/\b25\b.*\?/);
    const json = JSON.parse((await runCli(['team', 'status', '--json'], { cwd: ws.dir, env: scrubbedEnv(ws.home) })).stdout);
    expect(json.members.find((m: { name: string }) => m.name === 'alice')).toMatchObject({ tokens: 10830, usage: st.usage });
    // What the lead model reads from TeamStatus.
    expect(await teamStatusText(session.store)).toContain(`10,830 tokens, $${usd.toFixed(4)})`);
  }, 90_000);
});
