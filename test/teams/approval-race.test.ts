/**
 * Eight real `thclaws team approve|deny` processes racing on one request, with the lead's tool beside them:
 * exactly one answer takes effect, every other that reached the teammate is journaled as a duplicate.
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

describe('racing approvers', () => {
  it('4 approves, 4 denies and the lead\'s tool at once: one answer wins, the rest are refused or journaled; the command runs at most once', async () => {
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
    expect(accepted).toBeGreaterThanOrEqual(1);
    for (const r of results) if (r.code !== 0) expect(r.out).toMatch(/^thclaws: no pending approval request/);
    // Every frame that reached the teammate beyond the first is journaled as a duplicate.
    const log = () => (fs.existsSync(session.store.paths.log) ? fs.readFileSync(session.store.paths.log, 'utf8') : '');
    await waitFor(() => log().split(`for ${w.request_id} ignored: no such pending request`).length - 1 === accepted - 1, `${accepted - 1} duplicates journaled`);
    const ran = exists(ws, 'raced.txt') ? fs.readFileSync(`${ws.dir}/raced.txt`, 'utf8') : '';
    expect(['', 'ran\n']).toContain(ran);
    // The result the model saw matches what happened.
    expect(toolResults(ws).includes('permission denied: denied by the person')).toBe(ran === '');
    expect(await pendingApprovals(session.store)).toEqual([]);
  }, 120_000);
});
