/**
 * The dashboard's Abort, Cancel and Stop of a teammate, through its view protocol (a HostSession on a real
 * TeamHost), acting on real teammate processes that a lead (this test process) started in background mode:
 * (and the lead's own cancel, which takes the same path); each test asserts what the person relies on — the turn ended, the task is not completed, the process is gone
 * and reads stopped — never only that an inbox file was written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LeadEvent } from '../../src/core/teams/lead-handler.js';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import { taskTools } from '../../src/core/teams/tools/task-tools.js';
import type { TeamSession } from '../../src/core/teams/session.js';
import { pidAlive } from '../../src/core/store/index.js';
import { shownMember } from '../desktop/helpers.js';
import { leadTeam } from './lead-team.js';
import { cleanupsAfterEach, teamWorkspace, waitFor, type Ws } from './helpers.js';
import { openHostView, type HostView } from '../host-view.js';

const cleanups = cleanupsAfterEach();

const slowWords = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

/**
 * Task #1 streams for ~20 s and then completes itself; a prompt that says task 1 was cancelled completes task 2
 * saying so, a task 2 without that word says it heard nothing; "talk slowly" streams for ~20 s.
 */
const script = {
  rules: [
    { match: 'was cancelled by the person', turns: [{ text: 'noted', tool_calls: [{ name: 'TeamTaskComplete', input: { task_id: '2', summary: 'heard that task 1 was cancelled' } }] }, { text: 'done' }] },
    { match: 'Task #2 —', turns: [{ text: 'quick', tool_calls: [{ name: 'TeamTaskComplete', input: { task_id: '2', summary: 'heard nothing about task 1' } }] }, { text: 'done' }] },
    {
      match: 'Task #1 —',
      turns: [
        { text: 'start', tool_calls: [{ name: 'Bash', input: { command: 'echo started > started.txt' } }] },
        { text: slowWords(400), delay_ms: 50 },
        { text: 'finishing', tool_calls: [{ name: 'TeamTaskComplete', input: { task_id: '1', summary: 'finished the cancelled task' } }] },
        { text: 'end' },
      ],
    },
    { match: 'talk slowly', turns: [{ text: slowWords(400), delay_ms: 50 }, { text: 'end' }] },
  ],
  fallback: [{ text: 'ok' }],
};

/** The test process leads a team of real background teammates; a dashboard host (no lead of its own) watches it. */
async function teamWithDashboard(ws: Ws, members: string[], stopGraceMs?: number): Promise<{ session: TeamSession; events: LeadEvent[]; dash: HostView }> {
  const { session, events } = await leadTeam(ws, script, members.map((name) => ({ name })), cleanups);

  const view = await openHostView(ws.dir, { env: { HOME: ws.home, XDG_CONFIG_HOME: path.join(ws.home, '.config') }, host: stopGraceMs !== undefined ? { stopGraceMs } : {} });
  cleanups.push(() => view.host.close());
  return { session, events, dash: view };
}

const output = (session: TeamSession, name: string) => fs.readFileSync(session.store.paths.output(name), 'utf8');

describe("the dashboard's controls act on a teammate a lead started", () => {
  it('Abort ends the turn: the teammate reads idle, the stream stops short, the lead hears "aborted by user"', async () => {
    const ws = teamWorkspace();
    const { session, events, dash } = await teamWithDashboard(ws, ['alice']);
    await spawnTeammate(session, { name: 'alice', prompt: 'talk slowly' });
    await waitFor(() => output(session, 'alice').includes('w5 '), 'alice to be streaming');
    await waitFor(() => shownMember(dash.events, 'alice')?.state === 'working', 'the dashboard to show alice working');
    expect((await dash.call({ type: 'abort_turn', agent: 'alice' })).ok).toBe(true);
    // The stream takes ~20 s: well before that the turn is over.
    const idle = await waitFor(() => events.find((e) => e.kind === 'idle' && e.from === 'alice'), 'the interrupted notification', 10_000);
    expect(idle).toMatchObject({ reason: 'interrupted' });
    await waitFor(() => shownMember(dash.events, 'alice')?.state === 'idle', 'the dashboard to show alice idle', 5000);
    expect(output(session, 'alice')).toContain('turn aborted by user');
    expect(output(session, 'alice')).not.toContain('w399');
    expect(session.store.journal.read().filter((j) => /stale abort_turn/.test(j.reason ?? ''))).toEqual([]);
  }, 90_000);

  it('Cancel of an in-progress task ends its turn, the task stays cancelled, and the next input says why', async () => {
    const ws = teamWorkspace();
    const { session, dash } = await teamWithDashboard(ws, ['alice']);
    await session.store.tasks.create({ subject: 'Slow work', description: 'x', reservedFor: 'alice' });
    await spawnTeammate(session, { name: 'alice' });
    await waitFor(() => output(session, 'alice').includes('w5 '), 'alice to be streaming on task 1');
    expect((await dash.call({ type: 'task_cancel', task: '1' })).ok).toBe(true);
    // Her turn on task 1 ends long before its ~20 s stream would have.
    await waitFor(async () => (await session.store.statuses.read('alice'))?.status === 'idle', 'alice to be idle', 10_000);
    expect(output(session, 'alice')).toMatch(/task #1 cancelled by user — turn ended/);
    expect(output(session, 'alice')).not.toContain('w399');
    const t1 = await session.store.tasks.get('1');
    expect([t1.status, t1.cancelled, t1.result]).toEqual(['completed', true, 'cancelled: by user']);
    // Her next turn starts with the reason: the scripted model completes task 2 saying what it heard.
    await session.store.tasks.create({ subject: 'Next', description: 'y', reservedFor: 'alice' });
    const t2 = await waitFor(async () => {
      const t = await session.store.tasks.get('2');
      return t.status === 'completed' ? t : null;
    }, 'alice to complete task 2', 20_000);
    expect(t2.result).toBe('heard that task 1 was cancelled');
    // Task 1 was never completed by her.
    expect((await session.store.tasks.get('1')).result).toBe('cancelled: by user');
  }, 90_000);

  it("the lead's own cancel (TeamTaskUpdate) ends the owner's turn the same way and tells it who cancelled", async () => {
    const ws = teamWorkspace();
    const { session } = await teamWithDashboard(ws, ['alice']);
    await session.store.tasks.create({ subject: 'Slow work', description: 'x', reservedFor: 'alice' });
    await spawnTeammate(session, { name: 'alice' });
    await waitFor(() => output(session, 'alice').includes('w5 '), 'alice to be streaming on task 1');
    const update = taskTools(session, 'lead').find((t) => t.name === 'TeamTaskUpdate')!;
    expect((await update.run({ task_id: '1', cancel: true, reason: 'not needed' } as never, {} as never)).isError).toBeFalsy();
    await waitFor(() => /task #1 cancelled by lead — turn ended/.test(output(session, 'alice')), "alice's turn on task 1 to end", 10_000);
    expect(output(session, 'alice')).not.toContain('w399');
    expect((await session.store.tasks.get('1')).result).toBe('cancelled: not needed');
  }, 90_000);

  it('Stop of an idle teammate it did not start: asked with the epoch, it exits and reads stopped', async () => {
    const ws = teamWorkspace();
    const { session, dash } = await teamWithDashboard(ws, ['alice']);
    const a = await spawnTeammate(session, { name: 'alice' });
    await waitFor(() => shownMember(dash.events, 'alice')?.state === 'idle', 'the dashboard to show alice idle');
    expect((await dash.call({ type: 'stop', agent: 'alice' })).ok).toBe(true);
    await waitFor(() => !pidAlive(a.pid!), 'alice to exit', 10_000);
    expect(output(session, 'alice')).toContain('shutdown approved');
    await waitFor(() => shownMember(dash.events, 'alice')?.state === 'stopped', 'the dashboard to show alice stopped', 5000);
  }, 90_000);

  it('Stop of a busy teammate that refuses: ended by pid once it refuses, reads stopped, its task back in the queue', async () => {
    const ws = teamWorkspace();
    // A grace far longer than the test's waits: the refusal, not the grace, lets the Stop go on.
    const { session, dash } = await teamWithDashboard(ws, ['carol'], 60_000);
    await session.store.tasks.create({ subject: 'Slow work', description: 'x', reservedFor: 'carol' });
    const c = await spawnTeammate(session, { name: 'carol' });
    await waitFor(() => output(session, 'carol').includes('w5 '), 'carol to be streaming on task 1');
    const asked = Date.now();
    expect((await dash.call({ type: 'stop', agent: 'carol' })).ok).toBe(true);
    expect(Date.now() - asked).toBeLessThan(30_000);
    expect(pidAlive(c.pid!)).toBe(false);
    expect(output(session, 'carol')).toContain('shutdown rejected');
    expect(output(session, 'carol')).not.toContain('w399');
    await waitFor(() => shownMember(dash.events, 'carol')?.state === 'stopped', 'the dashboard to show carol stopped', 5000);
    const t = await session.store.tasks.get('1');
    expect([t.status, t.owner, t.reserved_for]).toEqual(['pending', null, 'carol']);
  }, 90_000);

  it('Stop of a teammate that cannot answer (SIGSTOP): killed by pid after the grace, reads stopped, its task back in the queue', async () => {
    const ws = teamWorkspace();
    const { session, dash } = await teamWithDashboard(ws, ['bob'], 1000);
    await session.store.tasks.create({ subject: 'Slow work', description: 'x', reservedFor: 'bob' });
    const b = await spawnTeammate(session, { name: 'bob' });
    await waitFor(() => output(session, 'bob').includes('w5 '), 'bob to be streaming on task 1');
    process.kill(b.pid!, 'SIGSTOP');
    const started = Date.now();
    expect((await dash.call({ type: 'stop', agent: 'bob' })).ok).toBe(true);
    await waitFor(() => !pidAlive(b.pid!), 'bob to be gone', 10_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    await waitFor(() => shownMember(dash.events, 'bob')?.state === 'stopped', 'the dashboard to show bob stopped', 5000);
    const t = await session.store.tasks.get('1');
    expect([t.status, t.owner, t.reserved_for]).toEqual(['pending', null, 'bob']);
  }, 90_000);
});
