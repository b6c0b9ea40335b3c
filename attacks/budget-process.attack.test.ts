/**
 * Attack: budgets with a real teammate process (same setup as test/teams/budget.test.ts).
 * Run: npx vitest run -c attacks/vitest.attacks.config.mts attacks/budget-process.attack.test.ts
 * Each `it` asserts what SHOULD happen; a failing `it` is a defect.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../test/agent/fake-anthropic.js';
import { FakeOpenAI } from '../test/agent/fake-openai.js';
import { LeadHandler } from '../src/core/teams/lead-handler.js';
import { shutdownTeam } from '../src/core/teams/shutdown.js';
import { spawnTeammate } from '../src/core/teams/spawn.js';
import { cleanupsAfterEach, leadSession, teamWorkspace, waitFor, writeScript } from '../test/teams/helpers.js';

const cleanups = cleanupsAfterEach();
const usage = { input_tokens: 10, output_tokens: 5 };
const write = (file: string, content: string) => ({ toolUses: [{ name: 'Write', input: { file_path: file, content } }], usage });

describe('budget attacks', () => {
  it('a budget set in settings.json and raised in settings.json resumes the teammate (the issue: "set in settings")', async () => {
    const fake = await new FakeAnthropic().start();
    const ws = teamWorkspace({ budgets: { teammates: { alice: { tokens: 40 } } } });
    const session = leadSession(ws, writeScript(ws, { rules: [] }), {
      childFlags: [],
      childEnv: { HOME: ws.home, THCLAWS_TEST: '1', ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url },
    });
    cleanups.push(async () => {
      await shutdownTeam(session, new LeadHandler(session), { graceMs: 1000, force: true }).catch(() => {});
      await session.close();
      await fake.close();
      ws.cleanup();
    });
    session.store.init();
    await session.store.config.create({ name: 't', members: [{ name: 'alice', model: 'claude-sonnet-5-5' }] });
    await session.becomeLead();
    await session.store.tasks.create({ subject: 'write parts', description: 'p1..p4', reservedFor: 'alice' });
    fake.enqueue(write('p1.txt', 'one'), write('p2.txt', 'two'), write('p3.txt', 'three'));
    await spawnTeammate(session, { name: 'alice' });
    await waitFor(async () => (await session.store.statuses.read('alice'))?.budget_reached, 'alice to stop at her settings budget');
    expect(fake.requests).toHaveLength(3);

    // The person raises the limit where they set it: the project settings.
    const file = path.join(ws.dir, '.thclaws', 'settings.json');
    const s = JSON.parse(fs.readFileSync(file, 'utf8'));
    s.budgets.teammates.alice.tokens = 100_000;
    fs.writeFileSync(file, JSON.stringify(s));
    fake.enqueue({ toolUses: [{ name: 'TeamTaskComplete', input: { task_id: '1', summary: 'done' } }], usage }, { text: 'finished', usage });
    // Two safety polls (5 s each) and a margin.
    await waitFor(async () => (await session.store.statuses.read('alice'))?.budget_reached === null, 'alice to resume after the settings raise', 20_000);
  }, 90_000);

  it('a teammate on an unpriced OpenAI-compatible model is stopped by a team USD budget the priced members already spent', async () => {
    const [anthropic, openai] = await Promise.all([new FakeAnthropic().start(), new FakeOpenAI().start()]);
    const ws = teamWorkspace({ providers: { local: { type: 'openai-compatible', baseURL: openai.url, models: { unpriced: { contextWindow: 32768 } } } } });
    const session = leadSession(ws, writeScript(ws, { rules: [] }), {
      childFlags: [],
      childEnv: { HOME: ws.home, THCLAWS_TEST: '1', ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: anthropic.url },
    });
    cleanups.push(async () => {
      await shutdownTeam(session, new LeadHandler(session), { graceMs: 1000, force: true }).catch(() => {});
      await session.close();
      await Promise.all([anthropic.close(), openai.close()]);
      ws.cleanup();
    });
    session.store.init();
    await session.store.config.create({ name: 't', members: [{ name: 'bob', model: 'local/unpriced' }] });
    await session.becomeLead();
    // The team's limit is $1; the lead has spent $0.50 so far (priced, known).
    const lead = (usd: number) => session.store.statuses.account('lead', { input_tokens: 1000, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }, usd);
    await lead(0.5);
    await session.store.budgets.set({ team: true }, { usd: 1 });
    await session.store.tasks.create({ subject: 'write parts', description: 'p1..p3', reservedFor: 'bob' });
    const replies = [
      { toolCalls: [{ name: 'Write', arguments: { file_path: 'b1.txt', content: '1' } }] },
      { toolCalls: [{ name: 'Write', arguments: { file_path: 'b2.txt', content: '2' } }] },
      { toolCalls: [{ name: 'TeamTaskComplete', arguments: { task_id: '1', summary: 'done' } }] },
      { text: 'finished' },
    ];
    openai.respond = async () => {
      // While bob's first (unpriced) call runs, the lead spends another $4.50: the team is at $5 of $1.
      if (openai.requests.length === 1) await lead(4.5);
      return replies.shift() ?? { text: 'nothing more' };
    };
    await spawnTeammate(session, { name: 'bob', model: 'local/unpriced' });
    // Either bob is held at the budget, or he runs the whole task on a team that is already 500 % over.
    const outcome = await waitFor(async () => {
      const st = await session.store.statuses.read('bob');
      if (st?.budget_reached) return 'held';
      const t = await session.store.tasks.get('1');
      return t.status === 'completed' ? 'ran to the end' : null;
    }, 'bob to be held or to finish', 60_000);
    expect({ outcome, openaiCalls: openai.requests.length }).toEqual({ outcome: 'held', openaiCalls: 1 });
  }, 90_000);

  it('a hand-edit typo in budgets.json must not lift the limit of a teammate held at it', async () => {
    const fake = await new FakeAnthropic().start();
    const ws = teamWorkspace();
    const session = leadSession(ws, writeScript(ws, { rules: [] }), {
      childFlags: [],
      childEnv: { HOME: ws.home, THCLAWS_TEST: '1', ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url },
    });
    cleanups.push(async () => {
      await shutdownTeam(session, new LeadHandler(session), { graceMs: 1000, force: true }).catch(() => {});
      await session.close();
      await fake.close();
      ws.cleanup();
    });
    session.store.init();
    await session.store.config.create({ name: 't', members: [{ name: 'alice', model: 'claude-sonnet-5-5' }] });
    await session.becomeLead();
    await session.store.budgets.set({ agent: 'alice' }, { tokens: 40 });
    await session.store.tasks.create({ subject: 'write parts', description: 'p1..p4', reservedFor: 'alice' });
    fake.enqueue(write('p1.txt', 'one'), write('p2.txt', 'two'), write('p3.txt', 'three'));
    await spawnTeammate(session, { name: 'alice' });
    await waitFor(async () => (await session.store.statuses.read('alice'))?.budget_reached, 'alice to stop at her budget');
    expect(fake.requests).toHaveLength(3);
    // The person edits the file by hand and leaves a trailing comma (or lowers another limit to -1).
    fake.enqueue(write('p4.txt', 'spent past the limit'), { text: 'more', usage });
    fs.writeFileSync(session.store.budgets.file, '{"teammates":{"alice":{"tokens":40},},"roles":{}}');
    // Two safety polls: alice must still be held, and no model call made.
    await new Promise((r) => setTimeout(r, 12_000));
    expect({ held: (await session.store.statuses.read('alice'))?.budget_reached ?? null, calls: fake.requests.length }).toEqual({ held: expect.any(String), calls: 3 });
  }, 90_000);
});
