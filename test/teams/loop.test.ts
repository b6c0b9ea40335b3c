/** The teammate loop as a real process: urgent messages at tool boundaries, queued ones after; retries then parking. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEAM_POLICY } from '../../src/core/store/index.js';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import { cleanupsAfterEach, teamWorkspace, waitFor } from './helpers.js';
import { leadTeam } from './lead-team.js';
import { describeLeadEvent } from '../../src/cli/agent/team-run.js';

const cleanups = cleanupsAfterEach();

async function team(script: unknown, members: string[]) {
  const ws = teamWorkspace();
  return { ws, ...(await leadTeam(ws, script, members.map((name) => ({ name })), cleanups)) };
}

describe('teammate loop', () => {
  it('an urgent message reaches the running turn at its next tool boundary; a plain one waits for the turn to end', async () => {
    const { session } = await team(
      {
        rules: [
          { match: 'steer now', turns: [{ text: 'steering', tool_calls: [{ name: 'Bash', input: { command: 'echo steered > steered.txt' } }, { name: 'TeamTaskComplete', input: { task_id: '1', summary: 'steered' } }] }, { text: 'ok' }] },
          { match: 'Task #1 —', turns: [{ text: 'a', tool_calls: [{ name: 'Bash', input: { command: 'sleep 2' } }] }, { text: 'b', tool_calls: [{ name: 'Bash', input: { command: 'sleep 2' } }] }, { text: 'end' }] },
        ],
        fallback: [{ text: 'plain handled' }],
      },
      ['alice'],
    );
    await session.store.tasks.create({ subject: 'Long', description: 'x', reservedFor: 'alice' });
    await spawnTeammate(session, { name: 'alice', model: 'claude-haiku-4-5' });
    await waitFor(async () => (await session.store.statuses.read('alice'))?.status === 'working', 'alice working');
    await session.store.send('lead', 'alice', 'just fyi, no rush');
    // Queued while busy, and visible as queued; the per-teammate model is the one it runs and shows.
    const view = (await session.store.status()).members.find((m) => m.name === 'alice')!;
    expect(view.queued).toBeGreaterThanOrEqual(1);
    expect(view.model).toBe('claude-haiku-4-5');
    await session.store.send('lead', 'alice', 'steer now', { extra: { urgent: true } });
    const out = () => fs.readFileSync(session.store.paths.output('alice'), 'utf8');
    await waitFor(async () => (await session.store.tasks.get('1')).status === 'completed', 'task completed by the steered turn');
    expect(fs.existsSync(path.join(session.projectRoot, 'steered.txt'))).toBe(true);
    const log = out();
    expect(log).toContain("urgent message from 'lead' delivered mid-turn");
    // The second sleep never ran: the urgent message redirected the turn after the first tool.
    expect(log.match(/sleep 2/g)).toHaveLength(1);
    // The plain message was queued, visible as unread, and handled after the turn.
    await waitFor(() => out().includes('plain handled'), 'the queued message handled after the turn');
    expect(log.indexOf("urgent message from 'lead'")).toBeLessThan(out().indexOf("received from 'lead'"));
  }, 60_000);

  it('a task whose turns keep failing is retried with backoff, then parked for the lead with the reason', async () => {
    const { session, events } = await team({ rules: [{ match: 'Task #1 —', turns: [{ error: 'simulated provider failure' }] }] }, ['alice']);
    await session.store.tasks.create({ subject: 'Doomed', description: 'x', reservedFor: 'alice' });
    await spawnTeammate(session, { name: 'alice' });
    const t = await waitFor(async () => {
      const x = await session.store.tasks.get('1');
      return (x as Record<string, unknown>).parked ? x : null;
    }, 'task 1 parked', 30_000);
    expect(t.status).toBe('pending');
    expect(t.reserved_for).toBe('lead');
    expect(String((t as Record<string, unknown>).parked)).toMatch(/simulated provider failure \(after 3 attempts\)/);
    const idle = await waitFor(() => events.find((e) => e.kind === 'idle' && e.reason === 'failed'), 'the failure notification');
    expect(idle).toMatchObject({ task: '1', fed: true });
    // The lead's terminal says it failed (a failed teammate is not idle).
    expect(describeLeadEvent(idle)).toMatch(/^\[alice failed on task #1\] task #1 parked after 3 attempts: turn failed: .*simulated provider failure/);
    const log = fs.readFileSync(session.store.paths.output('alice'), 'utf8');
    expect(log.match(/attempt \d failed/g)).toHaveLength(2);
    // Parked means nobody re-claims it in a loop; alice reads error with the failure (never a green idle).
    await new Promise((r) => setTimeout(r, 1500));
    expect((await session.store.tasks.get('1')).status).toBe('pending');
    expect(await session.store.statuses.read('alice')).toMatchObject({ status: 'error', error: expect.stringContaining('simulated provider failure') });
  }, 60_000);

  it('the heartbeat keeps beating from its own timer while a tool runs for longer than a beat', async () => {
    const beat = TEAM_POLICY.heartbeatMs;
    const { session } = await team({ rules: [{ match: 'Task #1 —', turns: [{ text: 'long', tool_calls: [{ name: 'Bash', input: { command: `sleep ${(beat * 4) / 1000}` } }] }, { text: 'end' }] }] }, ['alice']);
    await session.store.tasks.create({ subject: 'Long tool', description: 'x', reservedFor: 'alice' });
    await spawnTeammate(session, { name: 'alice' });
    const first = await waitFor(async () => {
      const st = await session.store.statuses.read('alice');
      return st?.status === 'working' ? st : null;
    }, 'alice working');
    // A beat at least one period later while the tool still runs: only the timer writes it (the turn sits in one call).
    const later = await waitFor(async () => {
      const st = await session.store.statuses.read('alice');
      return st && st.last_heartbeat - first.last_heartbeat >= beat ? st : null;
    }, 'a later heartbeat', beat * 3);
    expect(later.status).toBe('working');
    expect(later.current_task).toBe('1');
    expect((await session.store.tasks.get('1')).status).toBe('in_progress');
  }, 60_000);
});
