/**
 * A task cancelled while its owner waits at its budget: the raise must not resume it. alice (a real teammate
 * process on the real SDK against the fake Messages API) stops at her budget mid-task; the lead cancels the
 * task (what the dashboard's Cancel and TeamTaskUpdate do); the budget is raised. No model call is spent on
 * the cancelled task: alice's next call is for her next task, and it tells her model the first was cancelled.
 */
import { describe, expect, it } from 'vitest';
import { LEAD } from '../../src/core/store/index.js';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import { tellOwnerCancelled } from '../../src/core/teams/task-cancel.js';
import { aliceOnFakeModel } from './fake-model-team.js';
import { cleanupsAfterEach, waitFor } from './helpers.js';

const cleanups = cleanupsAfterEach();
const usage = { input_tokens: 10, output_tokens: 5 };
const write = (file: string, content: string) => ({ toolUses: [{ name: 'Write', input: { path: file, content } }], usage });

describe('a task cancelled while its owner is held at its budget', () => {
  it('the raise does not resume the cancelled task; the next task runs and hears of the cancel', async () => {
    const { fake, session, cli } = await aliceOnFakeModel(cleanups);
    await session.store.tasks.create({ subject: 'write parts', description: 'p1..p4', reservedFor: 'alice' });
    // 15 tokens a call against 40: held after the third call.
    expect((await cli('budget', 'alice', '--tokens', '40')).code).toBe(0);
    fake.enqueue(write('p1.txt', 'one'), write('p2.txt', 'two'), write('p3.txt', 'three'));
    await spawnTeammate(session, { name: 'alice' });
    await waitFor(async () => (await session.store.statuses.read('alice'))?.budget_reached, 'alice to stop at her budget');
    const calls = fake.requests.length;

    const before = await session.store.tasks.get('1');
    await session.store.tasks.update('1', { cancel: true, reason: 'not needed' });
    await tellOwnerCancelled(session.store, LEAD, before, 'not needed');
    await waitFor(() => session.store.inboxes.unread('alice').length === 0, 'alice to read the cancel');

    await session.store.tasks.create({ subject: 'second', description: 'two', reservedFor: 'alice' });
    fake.enqueue({ toolUses: [{ name: 'TeamTaskComplete', input: { task_id: '2', summary: 'second done' } }], usage }, { text: 'finished', usage });
    expect((await cli('budget', 'alice', '--tokens', '1000')).code).toBe(0);
    await waitFor(async () => (await session.store.tasks.get('2')).status === 'completed', 'task 2 to complete after the raise', 30_000);
    const after = fake.requests.slice(calls).map((r) => JSON.stringify(r.body.messages));
    expect(after.some((m) => m.includes('continue task #1')), 'a model call resumed the cancelled task #1').toBe(false);
    expect(after[0]).toContain('Task #1 was cancelled by lead (not needed)');
    expect(after[0]).toContain('[Task #2 — second]');
    expect(await session.store.tasks.get('1')).toMatchObject({ status: 'completed', cancelled: true });
  }, 90_000);
});
