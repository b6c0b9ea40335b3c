/**
 * Budgets with a real teammate process on the real SDK against the fake Messages API: crossing 80 % tells the
 * lead, 100 % stops the teammate after the tool call it is in (the file is whole), parks its task with reason
 * `budget`, and `thclaws team budget` raising the limit resumes it to the end of the task.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import { aliceOnFakeModel } from './fake-model-team.js';
import { cleanupsAfterEach, waitFor } from './helpers.js';

const cleanups = cleanupsAfterEach();
const usage = { input_tokens: 10, output_tokens: 5 };
const write = (file: string, content: string) => ({ toolUses: [{ name: 'Write', input: { path: file, content } }], usage });

describe('budgets', () => {
  it('a teammate crossing 80 % and 100 % mid-task: notice to the lead, whole files, parked task, resumed after a raise', async () => {
    const { fake, ws, session, cli } = await aliceOnFakeModel(cleanups);
    await session.store.tasks.create({ subject: 'write four parts', description: 'p1..p4', reservedFor: 'alice' });
    // 15 tokens a call against 55: after the third call 45 (81 %), after the fourth 60 (109 %).
    expect(await cli('budget', 'alice', '--tokens', '55')).toMatchObject({ code: 0, stdout: 'budget of alice: 55 tokens\n' });
    expect(await cli('budget', 'alice', '--tokens', 'lots')).toMatchObject({ code: 2, stderr: 'thclaws: --tokens: expected a whole number above 0, got "lots"\n' });
    // Targets that would never act are refused, one line and exit 2; one unit given keeps the other.
    const [nobody, lead, both] = await Promise.all([cli('budget', 'nobody', '--usd', '5'), cli('budget', 'lead', '--usd', '1'), cli('budget', 'alice', '--clear', '--usd', '5')]);
    expect(nobody).toMatchObject({ code: 2, stderr: 'thclaws: team budget: no teammate named "nobody" (members: alice)\n' });
    expect(lead).toMatchObject({ code: 2, stderr: "thclaws: team budget: the lead is never held by a budget; limit the whole team with --team\n" });
    expect(both).toMatchObject({ code: 2, stderr: 'thclaws: team budget: --clear removes the limit; give it without --usd or --tokens\n' });
    expect(await cli('budget', 'alice', '--usd', '50')).toMatchObject({ code: 0, stdout: 'budget of alice: $50 and 55 tokens\n' });
    const big = 'x'.repeat(200_000);
    fake.enqueue(write('p1.txt', 'one'), write('p2.txt', 'two'), write('p3.txt', 'three'), write('p4.txt', big));
    await spawnTeammate(session, { name: 'alice' });

    const held = await waitFor(async () => (await session.store.statuses.read('alice'))?.budget_reached, 'alice to stop at her budget');
    expect(held).toBe("budget reached — alice's budget: 60 tokens of 55 tokens (109 %)");
    // The call it was in ran to its end; no fifth model call was made.
    expect(fs.readFileSync(path.join(ws.dir, 'p4.txt'), 'utf8')).toBe(big);
    expect(fake.requests).toHaveLength(4);
    expect(await session.store.tasks.get('1')).toMatchObject({ status: 'in_progress', owner: 'alice', parked: 'budget' });
    const notices = session.store.inboxes.unread('lead').filter((m) => m.type === 'budget_notice') as Array<{ level?: string; spent?: number }>;
    expect(notices.map((m) => [m.level, m.spent])).toEqual([['warning', 45], ['reached', 60]]);
    const status = await cli('status');
    expect(status.stdout.split('\n').find((l) => l.startsWith('alice '))).toContain('budget reached');

    // Raising the budget resumes the task where it stopped.
    fake.enqueue({ toolUses: [{ name: 'TeamTaskComplete', input: { task_id: '1', summary: 'all four parts' } }], usage }, { text: 'finished', usage });
    expect((await cli('budget', 'alice', '--tokens', '1000')).code).toBe(0);
    const done = await waitFor(async () => {
      const t = await session.store.tasks.get('1');
      return t.status === 'completed' ? t : null;
    }, 'the task to complete after the raise');
    expect(done.parked).toBeNull();
    expect(JSON.stringify(fake.requests[4]!.body.messages.at(-1))).toContain('The budget was raised: continue task #1');
    await waitFor(async () => (await session.store.statuses.read('alice'))?.budget_reached === null, 'the budget state to clear');
  }, 90_000);
});
