/** Plan mode enforced by the runtime, with a real teammate process: refused tools, rejection with feedback, approval. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../agent/helpers.js';
import { pendingApprovals } from '../../src/core/teams/approvals.js';
import { approvalTool } from '../../src/core/teams/tools/approval-tools.js';
import { cli, complete, done, exists, nextRequest, runCleanups, team, toolResults } from './approval-harness.js';
import { waitFor } from './helpers.js';

beforeAll(ensureBuilt, 120_000);
afterEach(runCleanups);

describe('plan mode', () => {
  it('Write/Bash/TeamTaskComplete are refused until the plan is approved; a rejection carries feedback and the revised plan is approved', async () => {
    const { ws, session, events } = await team(
      [
        { text: 'try', tool_calls: [{ name: 'Write', input: { path: 'early.txt', content: 'x' } }, { name: 'Bash', input: { command: 'touch early2.txt' } }, complete, { name: 'Read', input: { path: 'README.md' } }] },
        { text: 'plan', tool_calls: [{ name: 'SubmitPlan', input: { plan: '# Plan v1\n\n- write out.txt' } }] },
        { text: 'revised', tool_calls: [{ name: 'SubmitPlan', input: { plan: '# Plan v2\n\n- write out.txt\n- add a test' } }] },
        { text: 'go', tool_calls: [{ name: 'Bash', input: { command: 'touch out.txt' } }, complete] },
        { text: 'end' },
      ],
      // Bash itself is allowed by a rule: only the plan gate stands in the way.
      { teammateAllow: ['Bash'] },
      { planModeRequired: true },
    );
    const first = await nextRequest(session);
    expect(first).toMatchObject({ kind: 'plan', agent: 'alice', attempt: 1, plan: '# Plan v1\n\n- write out.txt' });
    const results = toolResults(ws);
    expect(results.match(/plan mode: (Write|Bash|TeamTaskComplete) is refused until your plan is approved/g)).toHaveLength(3);
    expect(results).toContain('# test project');
    expect(exists(ws, 'early.txt') || exists(ws, 'early2.txt')).toBe(false);
    expect((await session.store.tasks.get('1')).status).toBe('in_progress');
    expect(cli(ws, 'approvals').out).toMatch(/plan#1/);
    await waitFor(() => events.find((e) => e.kind === 'approval' && e.approval === 'plan'), 'the plan request at the lead');
    expect(cli(ws, 'deny', first.request_id, '--message', 'add a test too').code).toBe(0);
    const second = await nextRequest(session, new Set([first.request_id]));
    expect(second).toMatchObject({ kind: 'plan', attempt: 2 });
    expect(second.plan).toContain('add a test');
    expect(toolResults(ws)).toContain('Plan rejected by the person (attempt 1): add a test too');
    expect(cli(ws, 'approve', second.request_id).code).toBe(0);
    await done(session);
    expect(exists(ws, 'out.txt')).toBe(true);
    expect(await pendingApprovals(session.store)).toEqual([]);
    expect(fs.readFileSync(path.join(session.store.paths.output('alice')), 'utf8')).toContain('plan approved by user (attempt 2)');
  }, 90_000);

  it('with planApprover and permissionApprover "lead", the requests become lead turns and AnswerApproval answers them', async () => {
    const { ws, session, prompts } = await team(
      [
        { text: 'plan', tool_calls: [{ name: 'SubmitPlan', input: { plan: '## Plan\n\n1. touch by-lead.txt' } }] },
        { text: 'go', tool_calls: [{ name: 'Bash', input: { command: 'touch by-lead.txt' } }, complete] },
        { text: 'end' },
      ],
      {},
      { planModeRequired: true },
      { permission: 'lead', plan: 'lead' },
    );
    const answer = approvalTool(session);
    const plan = await nextRequest(session);
    const planTurn = await waitFor(() => prompts.find((p) => p.includes(plan.request_id)), 'the plan as a lead turn');
    expect(planTurn).toContain('alice submitted a plan (attempt 1) for approval');
    expect(planTurn).toContain('1. touch by-lead.txt');
    expect(planTurn).toContain(`AnswerApproval {request_id: "${plan.request_id}"`);
    expect((await answer.run({ request_id: plan.request_id, allow: true }, {} as never)).content).toBe(`Approved plan request ${plan.request_id} of alice`);
    const perm = await nextRequest(session, new Set([plan.request_id]));
    const permTurn = await waitFor(() => prompts.find((p) => p.includes(perm.request_id)), 'the permission request as a lead turn');
    expect(permTurn).toContain('alice asks permission for Bash: run: touch by-lead.txt');
    await answer.run({ request_id: perm.request_id, allow: true }, {} as never);
    await done(session);
    expect(exists(ws, 'by-lead.txt')).toBe(true);
    // A second answer to an answered request is an error the lead's model reads.
    const again = await answer.run({ request_id: perm.request_id, allow: false }, {} as never);
    expect(again.isError).toBe(true);
    expect(again.content).toMatch(/^no pending approval request/);
  }, 90_000);

  it('with the person as approver (the default), the lead\'s AnswerApproval is refused: a teammate cannot talk the lead\'s model into approving its plan or its command', async () => {
    const { ws, session } = await team(
      [
        { text: 'plan', tool_calls: [{ name: 'SubmitPlan', input: { plan: '## Plan\n\n1. touch by-person.txt' } }] },
        { text: 'go', tool_calls: [{ name: 'Bash', input: { command: 'touch by-person.txt' } }, complete] },
        { text: 'end' },
      ],
      {},
      { planModeRequired: true },
    );
    const answer = approvalTool(session);
    const plan = await nextRequest(session);
    const byLead = await answer.run({ request_id: plan.request_id, allow: true }, {} as never);
    expect(byLead.isError).toBe(true);
    expect(byLead.content).toMatch(/the person answers plans here \(settings planApprover is "user"\)/);
    // Still pending, for the person.
    expect((await pendingApprovals(session.store)).map((w) => w.request_id)).toEqual([plan.request_id]);
    expect(cli(ws, 'approve', plan.request_id).code).toBe(0);
    const perm = await nextRequest(session, new Set([plan.request_id]));
    const permByLead = await answer.run({ request_id: perm.request_id, allow: true, always: true }, {} as never);
    expect(permByLead.isError).toBe(true);
    expect(permByLead.content).toMatch(/settings permissionApprover is "user"/);
    expect(exists(ws, 'by-person.txt')).toBe(false);
    expect(cli(ws, 'approve', perm.request_id).code).toBe(0);
    await done(session);
    expect(exists(ws, 'by-person.txt')).toBe(true);
  }, 90_000);

  it('an approval of the rejected first attempt, sent after the second was submitted, unlocks nothing (refused by the CLI, a forged frame journaled as late)', async () => {
    const { sendFrame } = await import('../../src/core/teams/protocol.js');
    const { ws, session } = await team(
      [
        { text: 'plan', tool_calls: [{ name: 'SubmitPlan', input: { plan: '# v1' } }] },
        { text: 'revised', tool_calls: [{ name: 'SubmitPlan', input: { plan: '# v2' } }] },
        { text: 'go', tool_calls: [{ name: 'Bash', input: { command: 'touch after-plan.txt' } }, complete] },
        { text: 'end' },
      ],
      { teammateAllow: ['Bash'] },
      { planModeRequired: true },
    );
    const first = await nextRequest(session);
    expect(cli(ws, 'deny', first.request_id, '--message', 'smaller').code).toBe(0);
    const second = await nextRequest(session, new Set([first.request_id]));
    const late = cli(ws, 'approve', first.request_id);
    expect(late.code).toBe(2);
    expect(late.err).toMatch(/^thclaws: no pending approval request/);
    await sendFrame(session.store, 'user', 'alice', 'plan_approval_response', { request_id: first.request_id, allow: true, scope: 'once' });
    const log = () => (fs.existsSync(session.store.paths.log) ? fs.readFileSync(session.store.paths.log, 'utf8') : '');
    await waitFor(() => log().includes(`plan_approval_response from user for ${first.request_id} ignored`), 'the old attempt\'s approval journaled');
    expect((await pendingApprovals(session.store)).map((w) => w.request_id)).toEqual([second.request_id]);
    expect(exists(ws, 'after-plan.txt')).toBe(false);
    expect(cli(ws, 'approve', second.request_id).code).toBe(0);
    await done(session);
    expect(exists(ws, 'after-plan.txt')).toBe(true);
  }, 90_000);
});

