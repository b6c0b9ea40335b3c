/**
 * The lead gone while a teammate waits: the person still answers through the CLI (no lead needed), and a lead
 * that takes the team again (a new epoch) finds the old request still listed and answerable — the teammate
 * is still waiting, so the request is live, and an answer in the new epoch counts.
 */
import fs from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../agent/helpers.js';
import { pendingApprovals } from '../../src/core/teams/approvals.js';
import { cli, complete, done, exists, nextRequest, runCleanups, team } from './approval-harness.js';
import { leadSession, waitFor } from './helpers.js';

beforeAll(ensureBuilt, 120_000);
afterEach(runCleanups);

describe('approvals without a live lead', () => {
  it('the lead gone, then a new lead (new epoch): the old request stays listed, and the person\'s answer runs the command', async () => {
    const { ws, session } = await team([{ text: 'a', tool_calls: [{ name: 'Bash', input: { command: 'touch after-lead.txt' } }, { name: 'Bash', input: { command: 'touch second.txt' } }, complete] }, { text: 'end' }]);
    const w = await nextRequest(session);
    const oldEpoch = session.epoch;
    // The lead's process is gone: its lease is released, nobody reads the lead inbox.
    await session.close();
    expect(cli(ws, 'approvals').out).toContain(w.request_id);
    // A new lead takes the team: a new epoch.
    const next = leadSession(ws, 'unused');
    await next.becomeLead();
    expect(next.epoch).not.toBe(oldEpoch);
    expect((await pendingApprovals(next.store)).map((x) => x.request_id)).toEqual([w.request_id]);
    const r = cli(ws, 'approve', w.request_id);
    expect(r.code).toBe(0);
    await waitFor(() => exists(ws, 'after-lead.txt'), 'the approved command ran');
    // The next request carries the new epoch and is answered as usual.
    const w2 = await nextRequest(next, new Set([w.request_id]));
    expect(w2.epoch).toBe(next.epoch);
    expect(cli(ws, 'deny', w2.request_id).code).toBe(0);
    await done(next);
    expect(exists(ws, 'second.txt')).toBe(false);
    const log = fs.existsSync(next.store.paths.log) ? fs.readFileSync(next.store.paths.log, 'utf8') : '';
    expect(log).not.toContain(`for ${w.request_id} ignored`);
    await next.close();
  }, 120_000);
});
