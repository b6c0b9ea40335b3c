/**
 * Permission forwarding with real teammate processes on the scripted provider: the teammate's Bash call
 * waits in its status and the lead's inbox, the person answers with the real `thclaws team` CLI.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../agent/helpers.js';
import { pendingApprovals, type Waiting } from '../../src/core/teams/approvals.js';
import { LeadHandler } from '../../src/core/teams/lead-handler.js';
import { sendFrame } from '../../src/core/teams/protocol.js';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import { approvalTool } from '../../src/core/teams/tools/approval-tools.js';
import { cleanups, cli, cliEnv, commitWork, complete, done, exists, nextRequest, runCleanups, team, toolResults } from './approval-harness.js';
import { leadSession, stopLeadAndTeam, teamWorkspace, waitFor, writeScript } from './helpers.js';

beforeAll(ensureBuilt, 120_000);
afterEach(runCleanups);

describe('permission forwarding', () => {
  it('a Bash call waits ("waiting for approval" in the status, a request in the lead inbox) and runs once the person approves in the CLI', async () => {
    const { ws, session, events } = await team([{ text: 'a', tool_calls: [{ name: 'Bash', input: { command: 'touch approved.txt' } }, complete] }, { text: 'end' }]);
    const w = await nextRequest(session);
    expect(w).toMatchObject({ agent: 'alice', kind: 'permission', tool: 'Bash', input: { command: 'touch approved.txt' }, rule: 'Bash(touch approved.txt:*)' });
    expect(w.cwd).toBe(ws.dir);
    await new Promise((r) => setTimeout(r, 300));
    expect(exists(ws, 'approved.txt')).toBe(false);
    const listed = cli(ws, 'approvals');
    expect(listed.out).toContain(w.request_id);
    expect(listed.out).toContain('touch approved.txt');
    expect(cli(ws, 'status').out).toContain(`waiting for approval ${w.request_id}`);
    await waitFor(() => events.find((e) => e.kind === 'approval' && e.request_id === w.request_id), 'the request frame at the lead');
    // A teammate's own shell (its name in the environment) cannot answer.
    const self = cliEnv(ws, { THCLAWS_TEAM_AGENT: 'alice' }, 'approve', w.request_id);
    expect(self.code).toBe(2);
    expect(self.err).toBe('thclaws: a teammate (alice) cannot answer approvals; the person or the lead does\n');
    const r = cli(ws, 'approve', w.request_id);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    await done(session);
    expect(exists(ws, 'approved.txt')).toBe(true);
    expect(await pendingApprovals(session.store)).toEqual([]);
    // Answered once: a second answer is refused with one line and exit 2.
    const again = cli(ws, 'approve', w.request_id);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/^thclaws: no pending approval request/);
  }, 90_000);

  it('denied: the command does not run and the teammate is told why', async () => {
    const { ws, session } = await team([{ text: 'a', tool_calls: [{ name: 'Bash', input: { command: 'touch denied.txt' } }, complete] }, { text: 'end' }]);
    const w = await nextRequest(session);
    expect(cli(ws, 'deny', w.request_id, '--message', 'use the Makefile instead').code).toBe(0);
    await done(session);
    expect(exists(ws, 'denied.txt')).toBe(false);
    await waitFor(() => toolResults(ws).includes('permission denied: denied by the person: use the Makefile instead'), 'the reason in the tool result');
  }, 90_000);

  it('"always" stores the rule for this teammate and stops later questions for the same rule only', async () => {
    const { ws, session } = await team([
      { text: 'a', tool_calls: [{ name: 'Bash', input: { command: 'touch one.txt' } }] },
      { text: 'b', tool_calls: [{ name: 'Bash', input: { command: 'touch one.txt two.txt' } }] },
      { text: 'c', tool_calls: [{ name: 'Bash', input: { command: 'mkdir other' } }, complete] },
      { text: 'end' },
    ]);
    const seen = new Set<string>();
    const first = await nextRequest(session, seen);
    seen.add(first.request_id);
    expect(cli(ws, 'approve', first.request_id, '--always').out).toContain('rule Bash(touch one.txt:*) stored for alice');
    const second = await nextRequest(session, seen);
    // The same-rule call ran without a question; the next question is for another rule.
    expect(exists(ws, 'two.txt')).toBe(true);
    expect(second.summary).toContain('mkdir other');
    expect(cli(ws, 'approve', second.request_id).code).toBe(0);
    await done(session);
    expect(fs.statSync(path.join(ws.dir, 'other')).isDirectory()).toBe(true);
    const local = JSON.parse(fs.readFileSync(path.join(ws.dir, '.thclaws', 'settings.local.json'), 'utf8'));
    expect(local.teammates.alice.allow).toEqual(['Bash(touch one.txt:*)']);
    expect(local.permissions).toBeUndefined();
  }, 90_000);

  it('no answer within approvalTimeoutMs denies and says so; a late answer is refused', async () => {
    const { ws, session } = await team([{ text: 'a', tool_calls: [{ name: 'Bash', input: { command: 'touch late.txt' } }, complete] }, { text: 'end' }], { approvalTimeoutMs: 1500 });
    const w = await nextRequest(session);
    await done(session);
    expect(exists(ws, 'late.txt')).toBe(false);
    await waitFor(() => toolResults(ws).includes(`no answer to permission request ${w.request_id} within 2 s — denied (timeout)`), 'the timeout in the tool result');
    expect(cli(ws, 'approve', w.request_id).code).toBe(2);
  }, 90_000);

  it('answers from a peer or of an earlier epoch are dropped and journaled; the right one still works', async () => {
    // The lead answers permission requests here (permissionApprover "lead"), so its tool may answer below.
    const { ws, session } = await team([{ text: 'a', tool_calls: [{ name: 'Bash', input: { command: 'touch guarded.txt' } }, complete] }, { text: 'end' }], {}, {}, { permission: 'lead', plan: 'user' });
    const w: Waiting = await nextRequest(session);
    const answer = { request_id: w.request_id, allow: true, scope: 'once' };
    // A peer forging an approval, and the person's answer stamped with a stale epoch.
    await sendFrame(session.store, 'bob', 'alice', 'permission_response', answer);
    await sendFrame(session.store, 'user', 'alice', 'permission_response', answer, 'an-earlier-epoch');
    const log = () => (fs.existsSync(session.store.paths.log) ? fs.readFileSync(session.store.paths.log, 'utf8') : '');
    await waitFor(() => log().includes('permission_response from bob ignored') && log().includes('stale permission_response'), 'both rejections journaled');
    expect(exists(ws, 'guarded.txt')).toBe(false);
    expect((await pendingApprovals(session.store)).map((x) => x.request_id)).toEqual([w.request_id]);
    // The lead's model answers through its tool (same path as the person's CLI).
    const tool = approvalTool(session);
    const res = await tool.run({ request_id: w.request_id, allow: true }, {} as never);
    expect(res.isError).toBeFalsy();
    await done(session);
    expect(exists(ws, 'guarded.txt')).toBe(true);
    // A duplicate reaching the teammate after the answer is journaled as late or duplicate.
    await sendFrame(session.store, 'user', 'alice', 'permission_response', answer);
    await waitFor(() => log().includes(`for ${w.request_id} ignored: no such pending request`), 'the duplicate journaled');
  }, 90_000);

  it('a teammate killed while waiting leaves no request shown as live', async () => {
    const { ws, session } = await team([{ text: 'a', tool_calls: [{ name: 'Bash', input: { command: 'touch never.txt' } }] }, { text: 'end' }]);
    const w = await nextRequest(session);
    const st = await session.store.statuses.read('alice');
    process.kill(-st!.pid!, 'SIGKILL');
    await waitFor(async () => (await pendingApprovals(session.store)).length === 0, 'the dead teammate’s request gone from the list');
    const view = (await session.store.status()).members.find((m) => m.name === 'alice')!;
    expect(view.waiting_for).toBeNull();
    expect(cli(ws, 'approve', w.request_id).code).toBe(2);
  }, 90_000);

  it('writes inside its own worktree need no question; the lead\'s --accept-all is not passed to teammates', async () => {
    const ws = teamWorkspace({ teammatePermissionMode: 'ask', teammateAllow: ['Bash'] });
    const script = { rules: [{ match: 'Task #1 —', turns: [{ text: 'w', tool_calls: [{ name: 'Write', input: { path: 'notes.md', content: 'hi\n' } }, commitWork, complete] }, { text: 'end' }] }], fallback: [{ text: 'ok' }] };
    const session = leadSession(ws, writeScript(ws, script));
    session.store.init();
    await session.store.config.create({ name: 't', members: [{ name: 'alice', isolation: 'worktree' }] });
    await session.becomeLead();
    const handler = new LeadHandler(session);
    handler.start();
    cleanups.push(() => stopLeadAndTeam(session, handler, ws));
    await session.store.tasks.create({ subject: 'Work', description: 'x', reservedFor: 'alice' });
    await spawnTeammate(session, { name: 'alice' });
    await done(session);
    expect(fs.readFileSync(path.join(ws.dir, '.worktrees', 'alice', 'notes.md'), 'utf8')).toBe('hi\n');
    const out = fs.readFileSync(session.store.paths.output('alice'), 'utf8');
    expect(out).toContain('permission mode: ask');
    expect(fs.readFileSync(`/proc/${(await session.store.statuses.read('alice'))!.pid}/cmdline`, 'utf8')).not.toContain('--accept-all');
  }, 90_000);
});
