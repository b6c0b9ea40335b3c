/** A whole team through the real CLI: `thclaws -p` as the lead, three teammate processes, real git. */
import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt, runCli, scrubbedEnv } from '../agent/helpers.js';
import { TeamStore, pidAlive } from '../../src/core/store/index.js';
import { teamScript } from './scripts.js';
import { teamWorkspace, waitFor, writeScript, type Ws } from './helpers.js';
import { parseLines, teamEvents, toolResults, toolUses } from './stream.js';

beforeAll(ensureBuilt, 120_000);
let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const hasTmux = spawnSync('tmux', ['-V']).status === 0;

async function runTeam(ws: Ws, extraEnv: Record<string, string> = {}) {
  const script = writeScript(ws, teamScript());
  return runCli(['-p', 'build the app', '--script', script, '--accept-all', '--timeout', '90', '--output-format', 'stream-json'], {
    cwd: ws.dir,
    env: scrubbedEnv(ws.home, extraEnv),
    timeoutMs: 120_000,
  });
}

async function expectFinished(ws: Ws, r: { code: number | null; stdout: string; stderr: string }, how: string) {
  const events = parseLines(r.stdout);
  const team = teamEvents(events);
  const spawned = toolResults(events).filter((e) => e.name === 'SpawnTeammate');
  expect(spawned).toHaveLength(3);
  for (const s of spawned) expect(s.content).toContain(how);
  const result = events.find((e) => e.type === 'result');
  expect(r.code, r.stderr).toBe(0);
  expect(result.is_error).toBe(false);
  expect(result.tasks).toEqual({ total: 3, open: 0 });
  // The merged tree has both teammates' work; the lead's tree is clean.
  expect(fs.readFileSync(path.join(ws.dir, 'api/server.js'), 'utf8')).toContain('api = 1');
  expect(fs.readFileSync(path.join(ws.dir, 'ui/index.html'), 'utf8')).toContain('demo');
  expect(spawnSync('git', ['status', '--porcelain'], { cwd: ws.dir, encoding: 'utf8' }).stdout).toBe('');
  const store = new TeamStore(path.join(ws.dir, '.thclaws/state/team'));
  for (const name of ['backend', 'frontend', 'qa']) {
    const st = await store.statuses.read(name);
    expect(st?.status).toBe('stopped');
    if (st?.pid) await waitFor(() => !pidAlive(st.pid!), `${name} to exit`);
  }
  // Idle notifications carried the task summaries, and the shutdown was approved by all.
  const idle = team.filter((e) => e.kind === 'idle').map((e) => `${e.from}:${e.task}:${e.summary}`);
  expect(idle.sort()).toEqual(['backend:1:API built', 'frontend:2:UI built', 'qa:3:looks good']);
  // The stream carries the team's state changes too. A status is a snapshot read when its file changes, so
  // a scripted task's working:<task> can be overwritten by idle within milliseconds, before it is read (it
  // was, in tmux mode on a loaded machine): each teammate's state is in the stream, every task a working
  // status names is its own, and the task ids themselves come with the idle notifications above (which are
  // messages, never lost).
  const own: Record<string, string> = { backend: '1', frontend: '2', qa: '3' };
  const states = team.filter((e) => e.kind === 'status');
  for (const name of Object.keys(own)) expect(states.some((e) => e.agent === name), `${name}'s state in the stream`).toBe(true);
  const working = states.filter((e) => e.state === 'working');
  for (const e of working) expect([null, own[e.agent]], `${e.agent} working on ${e.task}`).toContain(e.task);
  const sd = team.find((e) => e.kind === 'shutdown');
  expect([...sd.approved].sort()).toEqual(['backend', 'frontend', 'qa']);
  return events;
}

describe('team lifecycle through the real CLI', () => {
  it('background mode: create, tasks with dependencies, three teammates, merge, shutdown', async () => {
    const ws = teamWorkspace({ teammateMode: 'background' });
    cleanups.push(ws.cleanup);
    const r = await runTeam(ws);
    await expectFinished(ws, r, 'as background process');
    // Worktree teammates committed on their own branches.
    expect(spawnSync('git', ['log', '--format=%s', 'team/backend'], { cwd: ws.dir, encoding: 'utf8' }).stdout).toContain('backend: api');
    const log = fs.readFileSync(path.join(ws.dir, '.thclaws/state/team/agents/backend/output.log'), 'utf8');
    expect(log).toMatch(/--- thclaws spawn [0-9a-f-]+/);
    expect(log).toContain('working on task #1');
  }, 150_000);

  it('host mode: spawn requests served by the headless workspace host (`thclaws host --no-lead`) in ptys', async () => {
    const ws = teamWorkspace({ teammateMode: 'host' });
    cleanups.push(ws.cleanup);
    const host = spawn(process.execPath, [BIN, 'host', '--no-lead', '--idle-ms', '0', '--dir', ws.dir], { cwd: ws.dir, env: scrubbedEnv(ws.home), stdio: ['ignore', 'pipe', 'pipe'] });
    cleanups.push(() => host.kill('SIGKILL'));
    let hostOut = '';
    host.stdout.on('data', (b) => (hostOut += b));
    await waitFor(() => hostOut.includes('thclaws host ready'), 'the host ready');
    const r = await runTeam(ws);
    await expectFinished(ws, r, 'by the team host');
    const requests = ['backend', 'frontend', 'qa'].map((a) => JSON.parse(fs.readFileSync(path.join(ws.dir, `.thclaws/state/team/agents/${a}/spawn.json`), 'utf8')));
    // Each request was served once, by this host, and carries no secret values.
    for (const req of requests) expect(req).toMatchObject({ served_at: expect.any(Number), served_pid: expect.any(Number), served_by: expect.stringMatching(/ \d+$/) });
    expect(new Set(requests.map((q) => q.served_by)).size).toBe(1);
    const req = requests[2];
    expect(Object.keys(req.env)).not.toContain('ANTHROPIC_API_KEY');
    expect(req.inherit_env).toContain('ANTHROPIC_API_KEY');
    host.kill('SIGTERM');
  }, 150_000);

  it.skipIf(!hasTmux)('tmux mode: teammates in a detached tmux session', async () => {
    const ws = teamWorkspace({ teammateMode: 'tmux' });
    const sock = path.join(path.dirname(ws.dir), 'tmux.sock');
    // A private tmux server: TMUX_TMPDIR keeps the test off the person's own tmux.
    cleanups.push(ws.cleanup, () => spawnSync('tmux', ['kill-server'], { env: { ...process.env, TMUX_TMPDIR: path.dirname(sock) } }));
    const r = await runTeam(ws, { TMUX_TMPDIR: path.dirname(sock) });
    await expectFinished(ws, r, "in tmux session 'thclaws-team'");
  }, 150_000);

  it.skipIf(!hasTmux)('tmux mode inside tmux: teammates split the lead\'s own window', async () => {
    const ws = teamWorkspace({ teammateMode: 'tmux' });
    const tmp = path.dirname(ws.dir);
    const tenv = { ...process.env, TMUX_TMPDIR: tmp };
    delete (tenv as Record<string, string | undefined>).TMUX;
    cleanups.push(ws.cleanup, () => spawnSync('tmux', ['kill-server'], { env: tenv }));
    const script = writeScript(ws, teamScript());
    const out = path.join(tmp, 'lead.out');
    const cmd = `cd '${ws.dir}' && HOME='${ws.home}' '${process.execPath}' '${BIN}' -p 'build the app' --script '${script}' --accept-all --timeout 90 --output-format stream-json > '${out}' 2>&1; echo $? > '${out}.code'`;
    const started = spawnSync('tmux', ['new-session', '-d', '-s', 'leadwin', '-x', '200', '-y', '50', cmd], { env: tenv, encoding: 'utf8' });
    expect(started.status, started.stderr).toBe(0);
    let maxPanes = 0;
    await waitFor(() => {
      const panes = spawnSync('tmux', ['list-panes', '-t', 'leadwin'], { env: tenv, encoding: 'utf8' }).stdout.split('\n').filter(Boolean).length;
      maxPanes = Math.max(maxPanes, panes);
      return fs.existsSync(`${out}.code`);
    }, 'the lead inside tmux to finish', 120_000);
    expect(fs.readFileSync(`${out}.code`, 'utf8').trim()).toBe('0');
    expect(maxPanes).toBeGreaterThan(1);
    await expectFinished(ws, { code: 0, stdout: fs.readFileSync(out, 'utf8'), stderr: '' }, 'in tmux pane (current window)');
  }, 150_000);

  it('-p --timeout: gives up, shuts the team down, releases the task with its reservation, exits 1', async () => {
    const ws = teamWorkspace({ teammateMode: 'background' });
    cleanups.push(ws.cleanup);
    const slow = Array.from({ length: 300 }, (_, i) => `w${i}`).join(' ');
    const script = writeScript(ws, {
      rules: [
        { match: 'start', turns: [{ text: 'go', tool_calls: [{ name: 'TeamCreate', input: { name: 't', agents: [{ name: 'slowpoke' }] } }, { name: 'TeamTaskCreate', input: { subject: 'Never ends', description: 'x', owner: 'slowpoke' } }, { name: 'SpawnTeammate', input: { name: 'slowpoke' } }] }, { text: 'waiting' }] },
        { match: 'Task #1 —', turns: [{ text: slow, delay_ms: 100 }] },
      ],
      fallback: [{ text: 'noted' }],
    });
    const r = await runCli(['-p', 'start', '--script', script, '--accept-all', '--timeout', '4', '--output-format', 'json'], { cwd: ws.dir, env: scrubbedEnv(ws.home), timeoutMs: 60_000 });
    expect(r.code).toBe(1);
    const result = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
    expect(result.is_error).toBe(true);
    expect(result.errors[0]).toMatch(/timed out after 4 s with 1 task\(s\) open/);
    const store = new TeamStore(path.join(ws.dir, '.thclaws/state/team'));
    expect((await store.statuses.read('slowpoke'))?.status).toBe('stopped');
    const t = await store.tasks.get('1');
    expect(t.status).toBe('pending');
    expect(t.reserved_for).toBe('slowpoke');
  }, 60_000);

  it('-p: a teammate that dies mid-task is reported by the watchdog as a lead turn, and the lead can correct the queue', async () => {
    const ws = teamWorkspace({ teammateMode: 'background' });
    cleanups.push(ws.cleanup);
    // The teammate "dies" by killing its own agent process from Bash, which the OS sandbox's pid namespace
    // rightly prevents; the person (user settings) turns the sandbox off for this one.
    fs.mkdirSync(path.join(ws.home, '.config/thclaws'), { recursive: true });
    fs.writeFileSync(path.join(ws.home, '.config/thclaws/settings.json'), JSON.stringify({ sandbox: 'off' }));
    const script = writeScript(ws, {
      rules: [
        { match: 'start', turns: [{ text: 'go', tool_calls: [{ name: 'TeamCreate', input: { name: 't', agents: [{ name: 'doomed' }] } }, { name: 'TeamTaskCreate', input: { subject: 'Fragile', description: 'x', owner: 'doomed' } }, { name: 'SpawnTeammate', input: { name: 'doomed' } }] }, { text: 'waiting' }] },
        { match: 'Task #1 —', turns: [{ text: 'oops', tool_calls: [{ name: 'Bash', input: { command: 'kill -9 $PPID' } }] }, { text: 'never' }] },
        { match: "Teammate 'doomed' is not running", turns: [{ text: 'cancelling', tool_calls: [{ name: 'TeamTaskUpdate', input: { task_id: '1', cancel: true, reason: 'doomed died' } }] }, { text: 'cancelled' }] },
      ],
      fallback: [{ text: 'noted' }],
    });
    const r = await runCli(['-p', 'start', '--script', script, '--accept-all', '--timeout', '60', '--output-format', 'stream-json'], { cwd: ws.dir, env: scrubbedEnv(ws.home), timeoutMs: 90_000 });
    const events = parseLines(r.stdout);
    expect(teamEvents(events).some((e) => e.kind === 'dead' && e.agent === 'doomed')).toBe(true);
    expect(toolUses(events).some((u) => u.name === 'TeamTaskUpdate')).toBe(true);
    expect(r.code, r.stderr).toBe(0);
    const t = await new TeamStore(path.join(ws.dir, '.thclaws/state/team')).tasks.get('1');
    expect(t.result).toBe('cancelled: doomed died');
  }, 90_000);
});
