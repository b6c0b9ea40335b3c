/**
 * answerApproval's refusals and pendingApprovals' filter, on a real store in a temp dir. The waiting teammate
 * is this test process (its pid is alive) or a process that has exited.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TeamStore } from '../../src/core/store/index.js';
import { answerApproval, pendingApprovals, type Waiting } from '../../src/core/teams/approvals.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const deadPid = () => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);

async function teamWaiting(waits: Array<{ agent: string; pid: number; deadline: number; since?: number }>): Promise<TeamStore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-answer-'));
  dirs.push(dir);
  const store = TeamStore.forWorkspace(dir, {});
  store.init();
  await store.config.create({ name: 't', members: waits.map((w) => ({ name: w.agent })) });
  for (const [i, w] of waits.entries()) {
    const waiting: Waiting = { request_id: `req-${w.agent}`, kind: 'permission', agent: w.agent, tool: 'Bash', summary: 'x', cwd: dir, epoch: null, since: w.since ?? i, deadline: w.deadline };
    await store.statuses.write(w.agent, { status: 'working', pid: w.pid, waiting } as never);
  }
  return store;
}

describe('answering an approval', () => {
  it('only lead or user may answer; nothing is sent for anyone else', async () => {
    const store = await teamWaiting([{ agent: 'alice', pid: process.pid, deadline: Date.now() + 60_000 }]);
    await expect(answerApproval(store, 'bob', 'req-alice', { allow: true })).rejects.toMatchObject({ code: 'invalid', message: 'only lead or user may answer an approval, not "bob"' });
    expect(store.inboxes.list('alice')).toEqual([]);
    const { message } = await answerApproval(store, 'lead', 'req-alice', { allow: false, feedback: 'not now' });
    expect(message).toMatchObject({ from: 'lead', to: 'alice', type: 'permission_response', allow: false, scope: 'once', feedback: 'not now' });
  });

  it('a request past its deadline is refused as timed out and is no longer listed', async () => {
    const store = await teamWaiting([{ agent: 'alice', pid: process.pid, deadline: Date.now() - 1 }]);
    expect(await pendingApprovals(store)).toEqual([]);
    await expect(answerApproval(store, 'user', 'req-alice', { allow: true })).rejects.toMatchObject({ code: 'not_found', message: expect.stringMatching(/^approval request "req-alice" of alice timed out at .+; it was denied and alice was told so$/) });
    expect(store.inboxes.list('alice')).toEqual([]);
  });

  it("a dead teammate's request is neither listed nor answerable; live ones are listed oldest first", async () => {
    const far = Date.now() + 60_000;
    const store = await teamWaiting([
      { agent: 'ghost', pid: deadPid(), deadline: far, since: 1 },
      { agent: 'young', pid: process.pid, deadline: far, since: 3 },
      { agent: 'old', pid: process.pid, deadline: far, since: 2 },
    ]);
    expect((await pendingApprovals(store)).map((w) => w.agent)).toEqual(['old', 'young']);
    await expect(answerApproval(store, 'user', 'req-ghost', { allow: true })).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('no pending approval request "req-ghost"') });
    expect(store.inboxes.list('ghost')).toEqual([]);
  });

  it('an "always" answer carries its scope, and the second answer is refused with who answered first', async () => {
    const store = await teamWaiting([{ agent: 'alice', pid: process.pid, deadline: Date.now() + 60_000 }]);
    const { message } = await answerApproval(store, 'user', 'req-alice', { allow: true, always: true, ruleScope: 'team' });
    expect(message).toMatchObject({ allow: true, scope: 'always-for-this-rule', rule_scope: 'team' });
    await expect(answerApproval(store, 'lead', 'req-alice', { allow: false })).rejects.toMatchObject({ code: 'conflict', message: 'approval request "req-alice" was already approved by the person' });
    expect(store.inboxes.list('alice')).toHaveLength(1);
  });
});
