/** The lead in the real REPL (a pty): teammate messages become lead turns while idle at the prompt; /team; exit shuts down. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, scrubbedEnv } from '../agent/helpers.js';
import { PtySession } from '../agent/pty.js';
import { TeamStore } from '../../src/core/store/index.js';
import { teamWorkspace, writeScript } from './helpers.js';

beforeAll(ensureBuilt, 120_000);
let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

it('a teammate message reaches the idle lead as a turn; /team shows the roster; leaving the REPL ends the session', async () => {
  const ws = teamWorkspace();
  cleanups.push(ws.cleanup);
  const store = new TeamStore(path.join(ws.dir, '.thclaws/state/team'));
  store.init();
  await store.config.create({ name: 'squad', members: [{ name: 'alice', role: 'API' }] });
  const script = writeScript(ws, { rules: [{ match: 'api is ready', turns: [{ text: 'LEAD-HANDLED-IT' }] }], fallback: [{ text: 'fallback' }] });
  const s = new PtySession(['--script', script], { cwd: ws.dir, env: scrubbedEnv(ws.home) });
  cleanups.push(() => s.kill());
  await s.waitFor('thclaws> ');
  // The person's session in a project with a team is its lead: the lead guard is on.
  await store.send('alice', 'lead', 'the api is ready for review');
  await s.waitFor("[message from 'alice']: the api is ready for review");
  await s.waitFor('LEAD-HANDLED-IT');
  await s.waitFor('thclaws> ');
  s.type('/team\r');
  await s.waitFor('## Team squad');
  await s.waitFor('alice — defined');
  await s.waitFor('sandbox: '); // the OS sandbox's status line ("guards only" where it cannot run)
  await s.waitFor('## Recent messages to the lead');
  s.type('/quit\r');
  expect((await s.exited).exitCode).toBe(0);
  // The message was acknowledged after the turn: nothing is delivered twice.
  expect(store.inboxes.unread('lead')).toEqual([]);
}, 60_000);

it('the person answers a teammate\'s request from the lead REPL: /approvals lists it, /approve --always sends the answer as user', async () => {
  const ws = teamWorkspace();
  cleanups.push(ws.cleanup);
  const store = new TeamStore(path.join(ws.dir, '.thclaws/state/team'));
  store.init();
  await store.config.create({ name: 'squad', members: [{ name: 'alice' }, { name: 'bob' }] });
  // alice waits for an answer; a sleeping process stands in for her (its pid, a fresh heartbeat): the lead's
  // shutdown at /quit may kill it, never this test process.
  const stand = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
  cleanups.push(() => stand.kill('SIGKILL'));
  const waiting = { request_id: 'req-1', kind: 'permission', agent: 'alice', tool: 'Bash', summary: 'run: npm test', cwd: ws.dir, epoch: null, rule: 'Bash(npm test:*)', since: Date.now(), deadline: Date.now() + 600_000 };
  await store.statuses.write('alice', { status: 'working', pid: stand.pid!, waiting } as never);
  // bob waits too (same stand-in pid): his request is denied with a reason.
  await store.statuses.write('bob', { status: 'working', pid: stand.pid!, waiting: { ...waiting, request_id: 'req-2', agent: 'bob', summary: 'run: rm -rf build' } } as never);
  const script = writeScript(ws, { rules: [{ match: 'x', turns: [{ text: 'x' }] }], fallback: [{ text: 'fallback' }] });
  const s = new PtySession(['--script', script], { cwd: ws.dir, env: scrubbedEnv(ws.home) });
  cleanups.push(() => s.kill());
  await s.waitFor('thclaws> ');
  s.type('/approvals\r');
  await s.waitFor('req-1  alice  Bash');
  s.type('/approve req-1 --always looks fine\r');
  await s.waitFor('approved permission request of alice; Bash(npm test:*) allowed from now on for alice');
  const answer = store.inboxes.unread('alice').find((m) => m.type === 'permission_response');
  expect(answer).toMatchObject({ from: 'user', request_id: 'req-1', allow: true, scope: 'always-for-this-rule', rule_scope: 'teammate', feedback: 'looks fine' });
  s.type('/deny req-2 too risky\r');
  await s.waitFor('denied permission request of bob');
  const denied = store.inboxes.unread('bob').find((m) => m.type === 'permission_response');
  expect(denied).toMatchObject({ from: 'user', request_id: 'req-2', allow: false, scope: 'once', feedback: 'too risky' });
  s.type('/deny nope\r');
  await s.waitFor('no pending approval request "nope"');
  s.type('/quit\r');
  expect((await s.exited).exitCode).toBe(0);
}, 60_000);

it('the person types "… plan before coding" in the lead REPL: the teammate its model spawns without the flag starts in plan mode', async () => {
  const ws = teamWorkspace();
  cleanups.push(ws.cleanup);
  const script = writeScript(ws, {
    rules: [
      { match: 'plan before coding', turns: [{ text: 'go', tool_calls: [{ name: 'TeamCreate', input: { name: 't', agents: [{ name: 'alice' }] } }, { name: 'SpawnTeammate', input: { name: 'alice' } }] }, { text: 'SPAWNED' }] },
      { match: 'spawn bob, no plan approval', turns: [{ text: 'go', tool_calls: [{ name: 'SpawnTeammate', input: { name: 'bob' } }] }, { text: 'SPAWNED-BOB' }] },
    ],
    fallback: [{ text: 'fallback' }],
  });
  const s = new PtySession(['--script', script, '--accept-all'], { cwd: ws.dir, env: scrubbedEnv(ws.home) });
  cleanups.push(() => s.kill());
  await s.waitFor('thclaws> ');
  s.type('build it with alice; plan before coding\r');
  await s.waitFor('SPAWNED');
  const store = new TeamStore(path.join(ws.dir, '.thclaws/state/team'));
  const member = (name: string) => store.config.load().then((c) => c?.members.find((m) => m.name === name) as Record<string, unknown> | undefined);
  expect((await member('alice'))?.plan_mode_required).toBe(true);
  expect(s.output).toContain('because the person\'s request said "plan before coding"');
  await s.waitFor('thclaws> ');
  // The opposite wording switches it off for the next spawn.
  s.type('spawn bob, no plan approval\r');
  await s.waitFor('SPAWNED-BOB');
  expect((await member('bob'))?.plan_mode_required).toBeUndefined();
  s.type('/quit\r');
  expect((await s.exited).exitCode).toBe(0);
}, 90_000);
