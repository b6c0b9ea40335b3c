/**
 * A teammate's budget file torn or hand-broken while the team runs: a real teammate process (real SDK, fake
 * Messages API) keeps to the last valid limit and says so in its own pane, so the person knows the file they
 * edited was not taken and what still holds.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import { aliceOnFakeModel } from './fake-model-team.js';
import { cleanupsAfterEach, waitFor } from './helpers.js';

const cleanups = cleanupsAfterEach();
const usage = { input_tokens: 10, output_tokens: 5 };

describe('budgets.json broken while a teammate runs', () => {
  it('the teammate keeps the last valid limit, stops at it, and its pane says the file was invalid and moved aside', async () => {
    const { fake, session, cli } = await aliceOnFakeModel(cleanups);
    await session.store.tasks.create({ subject: 'say three things', description: 'talk', reservedFor: 'alice' });
    expect((await cli('budget', 'alice', '--tokens', '40')).code).toBe(0);
    // A person's edit that is not JSON: the CLI's last write left the valid copy it falls back to.
    fs.writeFileSync(session.store.budgets.file, '{ "teammates": { "alice": { "tokens": 4000 ');
    // 15 tokens a call against the kept 40: the third call ends at 45 (over 100 %), and no fourth is made.
    fake.enqueue(...Array.from({ length: 6 }, (_, i) => ({ toolUses: [{ name: 'Write', input: { path: `p${i}.txt`, content: `part ${i}` } }], usage })));
    await spawnTeammate(session, { name: 'alice' });

    const held = await waitFor(async () => (await session.store.statuses.read('alice'))?.budget_reached, 'alice to stop at the kept budget');
    expect(held).toMatch(/^budget reached — alice's budget: 45 tokens of 40 tokens /);
    expect(fake.requests).toHaveLength(3);
    const pane = fs.readFileSync(session.store.paths.output('alice'), 'utf8');
    expect(pane).toMatch(/\[alice\] budgets\.json is invalid \(.+\): moved to budgets\.json\.corrupt-\d+-\d+; the last valid limits are kept/);
  }, 90_000);
});
