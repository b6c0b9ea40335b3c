/**
 * "Resume team" after the processes that ran the team are gone: a real teammate (scripted provider) in its own
 * worktree does a turn, is SIGKILLed and its host closed; `thclaws team resume` starts the workspace's next host
 * (`thclaws host`), which reads the team from disk and resumes it: the same member is back in its worktree,
 * writing the same saved conversation, and its next turn goes on from it; a second resume is refused.
 * The rules (refused while a teammate is live; fresh start without a session; removed or never-run members left
 * alone) are checked on the real store with the spawn recorded.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { readSession, sessionsDir, SessionStore } from '../../src/core/agent/sessions.js';
import { deriveState, LEAD, selfProcess, TeamStore } from '../../src/core/store/index.js';
import { stopHost } from '../../src/main/daemon/host-client.js';
import { RecentWorkspaces } from '../../src/main/host/recent.js';
import { HostSession } from '../../src/main/host/session.js';
import { TeamHost } from '../../src/main/host/team-host.js';
import { resumeTeam } from '../../src/main/host/team-resume.js';
import type { HostEvent } from '../../src/shared/api.js';
import { makeTeamWorkspace, THCLAWS, waitFor } from './helpers.js';

const execFileP = promisify(execFile);
const hosts: TeamHost[] = [];
const daemons: string[] = [];
// The workspace host `thclaws team resume` starts lives in this test's own runtime dir, and is stopped after.
const runtime = fs.mkdtempSync(path.join(os.tmpdir(), 'resume-run-'));
fs.chmodSync(runtime, 0o700);
const runEnv = { ...process.env, XDG_RUNTIME_DIR: runtime };
afterAll(async () => {
  for (const h of hosts.splice(0)) await h.close();
  for (const ws of daemons.splice(0)) await stopHost(ws, runEnv);
});

function openHost(ws: string, home: string) {
  const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, 'cfg') };
  const host = new TeamHost({ workspace: ws, startLead: false, leadArgv: [THCLAWS, '--provider', 'scripted'], recent: new RecentWorkspaces(path.join(home, 'r.json')), env });
  hosts.push(host);
  const events: HostEvent[] = [];
  const s = new HostSession(host, (e) => events.push(e));
  let id = 0;
  const call = async (body: Record<string, unknown>) => {
    const n = ++id;
    await s.handle({ id: n, ...body });
    return events.find((e) => e.type === 'reply' && e.id === n) as Extract<HostEvent, { type: 'reply' }>;
  };
  return { host, call, open: () => host.open() };
}

/** The text of every message in a saved session, in order. */
const texts = (ws: string, id: string) => readSession(path.join(sessionsDir(ws), `${id}.jsonl`)).messages.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((b) => ('text' in b ? b.text : '')).join('')));

describe('Resume team with real processes', () => {
  // The suite's 60 s timeout, not 30 s: two hosts, two turns and a `team resume` that starts a daemon host need
  // about 9 s of CPU (scripts/cpu-of.py), and took 26 s at nice 0 beside other work at load 20.
  it('a SIGKILLed teammate whose host is gone comes back, through `thclaws team resume`, in its worktree on its saved conversation', async () => {
    const ws = fs.realpathSync(makeTeamWorkspace(['alice']));
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init'], { cwd: ws });
    const store = TeamStore.forWorkspace(ws);
    await store.config.update((c) => {
      c.members.find((m) => m.name === 'alice')!.isolation = 'worktree';
    });
    fs.writeFileSync(path.join(ws, '.thclaws', 'settings.json'), JSON.stringify({ provider: 'scripted' }));
    daemons.push(ws);
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'resume-home-'));
    const first = openHost(ws, home);
    await first.open();
    expect(await first.call({ type: 'member_start', name: 'alice' })).toMatchObject({ ok: true });
    await store.send(LEAD, 'alice', 'remember the word PELICAN');
    const before = (await store.statuses.read('alice'))!;
    const session = before.session_id!;
    expect(session).toBeTruthy();
    const answered = (t: string[], prompt: string) => {
      const i = t.findIndex((x) => x.includes(prompt));
      return i >= 0 && i < t.length - 1;
    };
    await waitFor(() => answered(texts(ws, session), 'PELICAN'), 'the first turn saved');

    // While alice is live the team is not resumed, and the refusal names her.
    const refused = await first.call({ type: 'team_resume' });
    expect(refused).toMatchObject({ ok: false });
    expect(JSON.stringify(refused)).toMatch(/alice \(idle|alice \(working/);

    process.kill(before.pid!, 'SIGKILL');
    await waitFor(async () => deriveState(await store.statuses.read('alice')) === 'dead', 'alice dead');
    await first.host.close(); // the host goes too: the next one knows the team only from disk

    // The next host is the workspace's `thclaws host`, started by `thclaws team resume` as after a reboot.
    const cli = (args: string[]) => execFileP(THCLAWS, ['team', 'resume', '--dir', ws, ...args], { env: runEnv }).then((r) => ({ code: 0, ...r }), (e: { code: number; stdout: string; stderr: string }) => e);
    const resumed = await cli([]);
    expect(resumed).toMatchObject({ code: 0, stdout: `resumed alice (session ${session})\n` });
    const after = (await store.statuses.read('alice'))!;
    expect(after.pid).not.toBe(before.pid);
    expect(after.session_id).toBe(session);
    expect(fs.realpathSync(`/proc/${after.pid}/cwd`)).toBe(path.join(ws, '.worktrees', 'alice'));

    // Its next turn is appended to the same conversation, after the earlier one.
    await store.send(LEAD, 'alice', 'what was the word?');
    const all = await waitFor(() => {
      const t = texts(ws, session);
      return answered(t, 'what was the word?') ? t : null;
    }, 'the resumed turn saved');
    expect(all.findIndex((x) => x.includes('PELICAN'))).toBeLessThan(all.findIndex((x) => x.includes('what was the word?')));

    // Now alice is live: a second resume is refused in one line, naming her.
    const again = await cli([]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^thclaws: cannot resume the team while alice \((idle|working)\) is running: stop it first\n$/);
  });
});

describe('Resume team rules (real store, spawn recorded)', () => {
  const setup = async (members: string[]) => {
    const ws = fs.realpathSync(makeTeamWorkspace(members));
    const store = TeamStore.forWorkspace(ws);
    const started: [string, string | undefined][] = [];
    const run = () => resumeTeam({ workspace: ws, store, start: async (n, r) => void started.push([n, r]) });
    return { ws, store, started, run };
  };

  it('resumes dead and stopped members, a member without a session fresh; never-run and removed members are left alone', async () => {
    const { ws, store, started, run } = await setup(['ann', 'bo', 'cy', 'dee']);
    const saved = SessionStore.create(ws, { model: 'm', provider: 'scripted', cwd: ws, agentName: 'ann' });
    await store.statuses.write('ann', { status: 'idle', pid: 999_999, pid_start: '1', host: os.hostname(), session_id: saved.id } as never);
    await store.statuses.write('bo', { status: 'stopped' });
    await store.statuses.write('dee', { status: 'stopped' });
    await store.config.update((c) => {
      c.members = c.members.filter((m) => m.name !== 'dee');
    });
    expect(await run()).toEqual({ resumed: [{ name: 'ann', session_id: saved.id }], fresh: ['bo'], failed: [] });
    expect(started).toEqual([['ann', saved.id], ['bo', undefined]]);
  });

  it('a live teammate refuses the whole resume, naming it; nothing is started', async () => {
    const { store, started, run } = await setup(['ann', 'bo']);
    const me = selfProcess();
    await store.statuses.write('bo', { status: 'idle', pid: me.pid, pid_start: me.start, host: me.host } as never);
    await store.statuses.write('ann', { status: 'stopped' });
    await expect(run()).rejects.toThrow(/while bo \(idle\) is running/);
    expect(started).toEqual([]);
  });

  it('a failed start is reported and the others still start', async () => {
    const { ws, store } = await setup(['ann', 'bo']);
    await store.statuses.write('ann', { status: 'stopped' });
    await store.statuses.write('bo', { status: 'stopped' });
    const out = await resumeTeam({ workspace: ws, store, start: async (n) => { if (n === 'ann') throw new Error('cap reached\nmore'); } });
    expect(out).toEqual({ resumed: [], fresh: ['bo'], failed: [{ name: 'ann', error: 'cap reached' }] });
  });
});
