/**
 * Teammates as real processes under abuse: SIGKILL mid-task, SIGSTOP past a turn, shutdown approved and
 * rejected, abort_turn mid-stream, stale and forged control frames. The test process is the lead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli, scrubbedEnv } from '../agent/helpers.js';
import { sendFrame } from '../../src/core/teams/protocol.js';
import { shutdownTeam } from '../../src/core/teams/shutdown.js';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import { pidAlive, TEAM_POLICY } from '../../src/core/store/index.js';
import { cleanupsAfterEach, stateOf, teamWorkspace, waitFor, writeScript, type Ws } from './helpers.js';
import { leadTeam } from './lead-team.js';

const cleanups = cleanupsAfterEach();

const slowWords = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

/** Task #1 commits a marker, then streams slowly; anything else answers at once. */
const slowScript = {
  rules: [
    { match: 'Task #1 —', turns: [{ text: 'start', tool_calls: [{ name: 'Bash', input: { command: 'echo started > started.txt && git add -A && git commit -qm started' } }] }, { text: slowWords(400), delay_ms: 50 }, { text: 'end' }] },
    { match: 'Task #2 —', turns: [{ text: 'quick', tool_calls: [{ name: 'TeamTaskComplete', input: { task_id: '2', summary: 'quick done' } }] }, { text: 'done' }] },
  ],
  fallback: [{ text: 'ok' }],
};

const team = (ws: Ws, script: unknown, members: Array<{ name: string; isolation?: 'worktree' }>) => leadTeam(ws, script, members, cleanups);

describe('teammates under abuse', () => {
  it('SIGKILL mid-task: task back to pending with its reservation, watchdog report, respawn continues in the same worktree', async () => {
    const ws = teamWorkspace();
    const { session, events } = await team(ws, slowScript, [{ name: 'backend', isolation: 'worktree' }]);
    await session.store.tasks.create({ subject: 'Slow work', description: 'take your time', reservedFor: 'backend' });
    const first = await spawnTeammate(session, { name: 'backend' });
    const wt = path.join(ws.dir, '.worktrees', 'backend');
    await waitFor(() => fs.existsSync(path.join(wt, 'started.txt')), 'the first turn to commit its marker');
    const st = await session.store.statuses.read('backend');
    expect(st?.current_task).toBe('1');
    process.kill(first.pid!, 'SIGKILL');
    await waitFor(() => events.find((e) => e.kind === 'dead' && e.agent === 'backend'), 'the watchdog to report backend dead');
    const t = await waitFor(async () => {
      const x = await session.store.tasks.get('1');
      return x.status === 'pending' ? x : null;
    }, 'task 1 back to pending');
    expect(t.reserved_for).toBe('backend');
    expect(t.owner).toBeNull();
    // Respawn with a script that finishes the task from where the first run left off.
    session.opts.childFlags = ['--script', writeScript(ws, { rules: [{ match: 'Task #1 —', turns: [{ text: 'resume', tool_calls: [{ name: 'Bash', input: { command: 'test -f started.txt && echo resumed > resumed.txt && git add -A && git commit -qm resumed' } }, { name: 'TeamTaskComplete', input: { task_id: '1', summary: 'resumed' } }] }, { text: 'done' }] }] }, 'resume.json')];
    const second = await spawnTeammate(session, { name: 'backend' });
    expect(second.cwd).toBe(fs.realpathSync(wt));
    await waitFor(async () => (await session.store.tasks.get('1')).status === 'completed', 'task 1 completed by the respawn');
    const log = execFileSync('git', ['log', '--format=%s', 'team/backend'], { cwd: ws.dir, encoding: 'utf8' });
    expect(log.split('\n').slice(0, 2)).toEqual(['resumed', 'started']);
  }, 90_000);

  it('SIGSTOP for 10 s: no duplicate claim, no respawn while it lives, and it carries on after SIGCONT', async () => {
    const ws = teamWorkspace();
    const { session, events } = await team(ws, slowScript, [{ name: 'alice' }, { name: 'bob' }]);
    await session.store.tasks.create({ subject: 'Slow work', description: 'anyone' });
    const a = await spawnTeammate(session, { name: 'alice' });
    await waitFor(async () => (await session.store.tasks.get('1')).owner === 'alice', 'alice to claim task 1');
    process.kill(a.pid!, 'SIGSTOP');
    cleanups.push(() => {
      try {
        process.kill(a.pid!, 'SIGCONT');
      } catch {
        // gone
      }
    });
    await spawnTeammate(session, { name: 'bob' });
    await new Promise((r) => setTimeout(r, 10_000));
    const t = await session.store.tasks.get('1');
    expect(t.owner).toBe('alice');
    expect(t.status).toBe('in_progress');
    expect(events.filter((e) => e.kind === 'dead')).toEqual([]);
    await expect(spawnTeammate(session, { name: 'alice' })).rejects.toThrow(/already running/);
    process.kill(a.pid!, 'SIGCONT');
    await waitFor(async () => (await stateOf(session, 'alice')) === 'working', 'alice to heartbeat again');
    expect((await session.store.tasks.get('1')).owner).toBe('alice');
  }, 90_000);

  it('shutdown while a teammate is stopped (Ctrl-Z in its pane) past the stale bound: still killed by its pid, status stopped', async () => {
    const ws = teamWorkspace();
    const { session, handler } = await team(ws, slowScript, [{ name: 'napper' }]);
    const n = await spawnTeammate(session, { name: 'napper' });
    process.kill(n.pid!, 'SIGSTOP');
    cleanups.push(() => {
      try {
        process.kill(n.pid!, 'SIGCONT');
      } catch {
        // gone
      }
    });
    // Its heartbeat goes stale. On this machine liveness is its pid and start time (a laptop's sleep stops
    // heartbeats too), so it is not declared dead by the heartbeat's age alone: the process lives on.
    await waitFor(async () => Date.now() - ((await session.store.statuses.read('napper'))?.last_heartbeat ?? Date.now()) > TEAM_POLICY.staleAfterMs + 1000, "napper's heartbeat to go stale", 60_000);
    expect(await stateOf(session, 'napper')).not.toBe('dead');
    expect(pidAlive(n.pid!)).toBe(true);
    const res = await shutdownTeam(session, handler, { graceMs: 500 });
    expect(res.killed).toEqual(['napper']);
    await waitFor(() => !pidAlive(n.pid!), 'napper to be gone', 20_000);
    expect((await session.store.statuses.read('napper'))?.status).toBe('stopped');
  }, 120_000);

  it('shutdown: an idle teammate approves and exits; a busy one rejects and keeps running', async () => {
    const ws = teamWorkspace();
    const { session, handler } = await team(ws, slowScript, [{ name: 'idle1' }, { name: 'busy1' }]);
    await session.store.tasks.create({ subject: 'Slow work', description: 'x', reservedFor: 'busy1' });
    const idle = await spawnTeammate(session, { name: 'idle1' });
    const busy = await spawnTeammate(session, { name: 'busy1' });
    await waitFor(async () => (await stateOf(session, 'busy1')) === 'working', 'busy1 to start its task');
    const res = await shutdownTeam(session, handler, { graceMs: 8000 });
    expect(res.approved).toEqual(['idle1']);
    expect(res.rejected.map((r) => r.name)).toEqual(['busy1']);
    expect(res.kept).toEqual(['busy1']);
    await waitFor(() => !pidAlive(idle.pid!), 'idle1 to exit');
    expect(pidAlive(busy.pid!)).toBe(true);
    expect(await stateOf(session, 'idle1')).toBe('stopped');
  }, 90_000);

  it('shutdown: an idle teammate that still owns an in-progress task rejects it and keeps the task', async () => {
    const ws = teamWorkspace();
    // The initial prompt's turn claims task 1 and ends without completing it: the teammate is idle, no turn
    // runs, its inbox is empty, and only the task it owns says it has unfinished work.
    const holdScript = { rules: [{ match: 'hold task 1', turns: [{ text: 'claiming', tool_calls: [{ name: 'TeamTaskClaim', input: { task_id: '1' } }] }, { text: 'claimed; finishing later' }] }], fallback: [{ text: 'ok' }] };
    const { session, handler } = await team(ws, holdScript, [{ name: 'holder' }]);
    await session.store.tasks.create({ subject: 'Held work', description: 'x' });
    // The initial prompt is in the inbox before the process starts, and messages come before the queue.
    const h = await spawnTeammate(session, { name: 'holder', prompt: 'hold task 1' });
    await waitFor(async () => (await session.store.tasks.get('1')).owner === 'holder', 'holder to claim task 1');
    // Idle is set as the turn ends and the prompt is acknowledged just after: wait for both.
    await waitFor(async () => (await stateOf(session, 'holder')) === 'idle' && !session.store.inboxes.unread('holder').length, 'holder idle with its prompt consumed');
    const res = await shutdownTeam(session, handler, { graceMs: 8000 });
    expect(res.approved).toEqual([]);
    expect(res.rejected.map((r) => r.name)).toEqual(['holder']);
    const answer = session.store.inboxes.list('lead').find((m) => m.from === 'holder' && m.type === 'shutdown_rejected');
    expect((answer as Record<string, unknown> | undefined)?.reason).toBe('still have unfinished work');
    expect(pidAlive(h.pid!)).toBe(true);
    const t = await session.store.tasks.get('1');
    expect([t.status, t.owner]).toEqual(['in_progress', 'holder']);
  }, 90_000);

  it('shutdown: a teammate in the middle of a message turn (no task of its own) rejects it', async () => {
    const ws = teamWorkspace();
    const talkScript = { rules: [{ match: 'talk slowly', turns: [{ text: slowWords(400), delay_ms: 50 }, { text: 'end' }] }], fallback: [{ text: 'ok' }] };
    const { session, handler } = await team(ws, talkScript, [{ name: 'talker' }]);
    const t = await spawnTeammate(session, { name: 'talker', prompt: 'talk slowly' });
    await waitFor(() => fs.readFileSync(session.store.paths.output('talker'), 'utf8').includes('w5 '), 'talker to be streaming');
    expect(await session.store.tasks.list()).toEqual([]);
    const res = await shutdownTeam(session, handler, { graceMs: 8000 });
    expect(res.rejected.map((r) => r.name)).toEqual(['talker']);
    expect(pidAlive(t.pid!)).toBe(true);
  }, 90_000);

  it('abort_turn stops a streaming turn; the task goes back with its reservation and the lead hears why', async () => {
    const ws = teamWorkspace();
    const { session, events } = await team(ws, slowScript, [{ name: 'alice' }]);
    await session.store.tasks.create({ subject: 'Slow work', description: 'x', reservedFor: 'alice' });
    await spawnTeammate(session, { name: 'alice' });
    await waitFor(() => fs.readFileSync(session.store.paths.output('alice'), 'utf8').includes('w5 '), 'alice to be streaming');
    // The person aborts it from the command line (a control frame from `user`, this session's epoch).
    const r = await runCli(['team', 'abort', 'alice'], { cwd: ws.dir, env: scrubbedEnv(ws.home) });
    expect(r.code, r.stderr).toBe(0);
    const idle = await waitFor(() => events.find((e) => e.kind === 'idle' && e.from === 'alice'), 'the interrupted notification', 15_000);
    expect(idle).toMatchObject({ reason: 'interrupted', task: '1' });
    expect((idle as { summary: string }).summary).toMatch(/turn aborted by user/);
    const t = await session.store.tasks.get('1');
    expect(t.reserved_for).toBe('alice');
    // The stream did not run to its end.
    expect(fs.readFileSync(session.store.paths.output('alice'), 'utf8')).not.toContain('w399');
  }, 90_000);

  it('a stale shutdown_request from an earlier session and a peer-forged one are ignored and journaled', async () => {
    const ws = teamWorkspace();
    const { session } = await team(ws, slowScript, [{ name: 'alice' }, { name: 'mallory' }]);
    await sendFrame(session.store, 'lead', 'alice', 'shutdown_request', {}, 'an-earlier-session');
    const a = await spawnTeammate(session, { name: 'alice' });
    await sendFrame(session.store, 'mallory', 'alice', 'shutdown_request', {}, session.epoch);
    await sendFrame(session.store, 'mallory', 'alice', 'abort_turn', {}, session.epoch);
    await waitFor(() => session.store.journal.read().filter((j) => j.event === 'rejected').length >= 3, 'three rejections in team.log');
    const reasons = session.store.journal.read().filter((j) => j.event === 'rejected').map((j) => j.reason);
    expect(reasons.some((r) => /stale shutdown_request/.test(r))).toBe(true);
    expect(reasons.filter((r) => /from mallory ignored/.test(r))).toHaveLength(2);
    expect(pidAlive(a.pid!)).toBe(true);
    expect(await stateOf(session, 'alice')).toBe('idle');
    // Nothing was answered to the forger.
    expect(session.store.inboxes.list('mallory').filter((m) => m.type === 'shutdown_approved' || m.type === 'shutdown_rejected')).toEqual([]);
  }, 90_000);

  it('a teammate that loses its lease stops acting as that agent', async () => {
    const ws = teamWorkspace();
    const { session } = await team(ws, slowScript, [{ name: 'alice' }]);
    const a = await spawnTeammate(session, { name: 'alice' });
    fs.rmSync(path.join(session.store.paths.agentDir('alice'), '.locks', 'lease.lock'), { recursive: true, force: true });
    await waitFor(() => !pidAlive(a.pid!), 'alice to exit after losing its lease', 20_000);
    expect(fs.readFileSync(session.store.paths.output('alice'), 'utf8')).toMatch(/lost the agent lease/);
  }, 60_000);

  it('a teammate survives its team config vanishing: it reports, keeps its heartbeat, and resumes when it is back', async () => {
    const ws = teamWorkspace();
    const { session } = await team(ws, slowScript, [{ name: 'alice' }]);
    const a = await spawnTeammate(session, { name: 'alice' });
    const cfg = session.store.paths.config;
    fs.renameSync(cfg, `${cfg}.away`);
    await waitFor(() => fs.readFileSync(session.store.paths.output('alice'), 'utf8').includes('team error'), 'alice to report the missing team', 20_000);
    expect(pidAlive(a.pid!)).toBe(true);
    fs.renameSync(`${cfg}.away`, cfg);
    await session.store.tasks.create({ subject: 'Held back', description: 'task 1 is the slow one: not for alice', reservedFor: 'lead' });
    await session.store.tasks.create({ subject: 'Quick', description: 'task 2 of the script', reservedFor: 'alice' });
    await waitFor(async () => (await session.store.tasks.get('2')).status === 'completed', 'alice to carry on with task 2', 30_000);
  }, 60_000);
});
