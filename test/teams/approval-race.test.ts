/**
 * Eight real `thclaws team approve|deny` processes racing on one request, with the lead's tool beside them:
 * exactly one answer reports success and takes effect; every loser is told so (who answered first), and no
 * answer the teammate drops as a duplicate was reported as a success.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt } from '../agent/helpers.js';
import { pendingApprovals } from '../../src/core/teams/approvals.js';
import { approvalTool } from '../../src/core/teams/tools/approval-tools.js';
import { complete, done, exists, nextRequest, runCleanups, team, toolResults } from './approval-harness.js';
import { waitFor } from './helpers.js';

beforeAll(ensureBuilt, 120_000);
afterEach(runCleanups);

function cliAsync(dir: string, home: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [BIN, 'team', ...args, '--dir', dir], { env: { ...process.env, HOME: home } });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (out += d.toString()));
    p.on('close', (code) => resolve({ code, out }));
  });
}

/** What the stopped teammate's heartbeat timer would write: its own status with a fresh beat (replaced atomically). */
function freshenHeartbeat(file: string): void {
  const status = JSON.parse(fs.readFileSync(file, 'utf8')) as { last_heartbeat: number };
  status.last_heartbeat = Date.now();
  fs.writeFileSync(`${file}.beat`, JSON.stringify(status));
  fs.renameSync(`${file}.beat`, file);
}

describe('racing approvers', () => {
  it('4 approves, 4 denies and the lead\'s tool at once: exactly one answer reports success, the losers are refused honestly; the command runs at most once', async () => {
    const { ws, session } = await team(
      [{ text: 'a', tool_calls: [{ name: 'Bash', input: { command: 'echo ran >> raced.txt' } }, complete] }, { text: 'end' }],
      {},
      {},
      { permission: 'lead', plan: 'user' },
    );
    const w = await nextRequest(session);
    const racers = [...Array(8)].map((_, i) => cliAsync(ws.dir, ws.home, i % 2 ? ['deny', w.request_id, '--message', `no ${i}`] : ['approve', w.request_id]));
    const lead = approvalTool(session).run({ request_id: w.request_id, allow: true }, {} as never);
    const results = await Promise.all(racers);
    const leadResult = await lead;
    await done(session);
    const accepted = results.filter((r) => r.code === 0).length + (leadResult.isError ? 0 : 1);
    expect(accepted).toBe(1);
    for (const r of results) if (r.code !== 0) expect(r.out).toMatch(/^thclaws: (no pending approval request|approval request "[^"]+" was already (approved|denied) by the person)/);
    if (leadResult.isError) expect(JSON.stringify(leadResult)).toMatch(/no pending approval request|was already (approved|denied) by the person/);
    // No frame beyond the winner reached the teammate, so nothing was dropped as a duplicate.
    const log = () => (fs.existsSync(session.store.paths.log) ? fs.readFileSync(session.store.paths.log, 'utf8') : '');
    expect(log()).not.toContain(`for ${w.request_id} ignored`);
    const ran = exists(ws, 'raced.txt') ? fs.readFileSync(`${ws.dir}/raced.txt`, 'utf8') : '';
    expect(['', 'ran\n']).toContain(ran);
    // The result the model saw matches what happened (the session file is written after the turn).
    await waitFor(() => toolResults(ws).includes('Task #1 completed.'), 'the turn in the session file');
    expect(toolResults(ws).includes('permission denied: denied by the person')).toBe(ran === '');
    expect(await pendingApprovals(session.store)).toEqual([]);
  }, 120_000);

  it('a stalled teammate (SIGSTOP) cannot tell racers apart: of 8 racing answers exactly one reports success, the others are told who answered first', async () => {
    const { ws, session } = await team([{ text: 'a', tool_calls: [{ name: 'Bash', input: { command: 'echo ran >> raced.txt' } }, complete] }, { text: 'end' }]);
    const w = await nextRequest(session);
    const pid = ((await session.store.statuses.read('alice')) as { pid: number }).pid;
    // Stopped, the teammate neither reads its inbox nor clears its waiting request: every racer sees it pending.
    // A stopped process also writes no heartbeat, and a teammate silent past staleAfterMs (15 s) is dead, its
    // request no longer pending; eight CLI processes starting on a loaded machine can take longer than that. So
    // while it is stopped the test keeps its heartbeat fresh, standing for the real case: a live teammate (its
    // heartbeat timer runs apart from its loop) whose loop has not read its inbox yet.
    process.kill(pid, 'SIGSTOP');
    const beat = setInterval(() => freshenHeartbeat(session.store.paths.status('alice')), 1000);
    await new Promise((r) => setTimeout(r, 16_000));
    let results: Array<{ code: number | null; out: string }>;
    try {
      results = await Promise.all([...Array(8)].map((_, i) => cliAsync(ws.dir, ws.home, i % 2 ? ['deny', w.request_id, '--message', `no ${i}`] : ['approve', w.request_id])));
    } finally {
      clearInterval(beat);
      process.kill(pid, 'SIGCONT');
    }
    const winners = results.filter((r) => r.code === 0);
    expect(winners).toHaveLength(1);
    const verdict = winners[0]!.out.startsWith('approved') ? 'approved' : 'denied';
    for (const r of results) if (r.code !== 0) expect(r.out).toMatch(new RegExp(`^thclaws: approval request "${w.request_id}" was already ${verdict} by the person\n$`));
    await done(session);
    expect(fs.existsSync(`${ws.dir}/raced.txt`)).toBe(verdict === 'approved');
    const log = fs.existsSync(session.store.paths.log) ? fs.readFileSync(session.store.paths.log, 'utf8') : '';
    expect(log).not.toContain(`for ${w.request_id} ignored`);
  }, 120_000);
});
