/**
 * Teammates on other machines (docs/remote.md), end to end over a real OpenSSH server on 127.0.0.1 whose local
 * users are the other machines (ssh-machine.ts): this test process is the lead (scripted provider) of a team in a
 * workspace only it can read, its workspace's `thclaws host` runs the teammates' ssh in its ptys; alice runs on
 * one machine and bob on the other, each claims its task there, commits in its own clone, and its branch comes
 * home over git; the lead's dry run and merge land both on main. A killed link returns its teammate's task to
 * pending (reserved for it); a teammate of a replaced session is refused and says why.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveState, TeamStore } from '../../src/core/store/index.js';
import { LeadHandler } from '../../src/core/teams/lead-handler.js';
import { bumpEpoch } from '../../src/core/teams/protocol.js';
import type { TeamSession } from '../../src/core/teams/session.js';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import { teamMerge } from '../../src/core/teams/merge.js';
import { shutdownTeam } from '../../src/core/teams/shutdown.js';
import { remoteTeammatesFor } from '../../src/main/remote/host-remote.js';
import { gitOut } from '../../src/core/git.js';
import { connectHost } from '../../src/main/daemon/host-client.js';
import type { Member } from '../../src/contract/api.js';
import { ensureBuilt } from '../agent/helpers.js';
import { THCLAWS } from '../desktop/helpers.js';
import { leadSession, teamWorkspace, waitFor, type Ws } from '../teams/helpers.js';
import { procs } from './procs.js';
import { skipReason, startSshMachine, type SshMachine } from './ssh-machine.js';
import { FakeAnthropic } from '../agent/fake-anthropic.js';

const skip = skipReason();
const KEY = `sk-ant-remote-${randomUUID()}`;
/** This run's clones on each machine (the users are shared with other runs and files). */
const WORK = `thclaws-${randomUUID().slice(0, 8)}`;
const commit = (file: string, msg: string) => `printf '%s\\n' '${msg}' > ${file} && git add -A && git commit -qm '${msg}'`;
const SCRIPT = {
  rules: [
    { match: 'Task #1 —', turns: [{ text: 'alice works.', tool_calls: [{ name: 'Bash', input: { command: commit('alice.txt', 'alice: her part') } }, { name: 'TeamTaskComplete', input: { task_id: '1', summary: 'alice done' } }] }, { text: 'done' }] },
    { match: 'Task #2 —', turns: [{ text: 'bob works.', tool_calls: [{ name: 'Bash', input: { command: commit('bob.txt', 'bob: his part') } }, { name: 'TeamTaskComplete', input: { task_id: '2', summary: 'bob done' } }] }, { text: 'done' }] },
    { match: 'Task #3 —', turns: [{ text: 'carol works long.', tool_calls: [{ name: 'Bash', input: { command: 'sleep 120', timeout: 300_000 } }] }, { text: 'done' }] },
  ],
  fallback: [{ text: 'Noted.' }],
};

describe.skipIf(!!skip)('teammates on two other machines, over ssh', () => {
  let m: SshMachine;
  let ws: Ws;
  let store: TeamStore;
  let session: TeamSession;
  let handler: LeadHandler;
  let host: ChildProcess;
  let hostOut = '';
  let remote: ReturnType<typeof remoteTeammatesFor>;
  const fake = new FakeAnthropic();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'thcr-lead-'));
  const sshEnvLog = path.join(tmp, 'ssh-env.log');
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: path.join(tmp, 'run'), XDG_CONFIG_HOME: path.join(tmp, 'config'), ANTHROPIC_API_KEY: KEY };

  beforeAll(async () => {
    await ensureBuilt();
    fake.respond = () => ({ text: 'hi from dave' });
    await fake.start();
    env.ANTHROPIC_BASE_URL = fake.url;
    m = await startSshMachine({ users: ['thcr4', 'thcr5'] });
    // The person's ssh command, through a wrapper that keeps each run's environment: no key may be in one.
    const wrapper = path.join(tmp, 'ssh');
    fs.writeFileSync(wrapper, `#!/bin/sh\nenv >> ${sshEnvLog}\nexec ${m.ssh} "$@"\n`, { mode: 0o755 });
    env.THCLAWS_SSH = wrapper;
    fs.mkdirSync(env.XDG_RUNTIME_DIR!, { mode: 0o700 });
    const hosts = {
      m1: { ssh: m.user('thcr4').alias, dir: `~/${WORK}`, maxTeammates: 2, bin: m.bin },
      m2: { ssh: `ssh://${m.user('thcr5').alias}`, dir: `~/${WORK}`, maxTeammates: 3, bin: m.bin },
      gone: { ssh: 'thcr-no-such-host', dir: '~/w', maxTeammates: 1, bin: m.bin },
    };
    fs.mkdirSync(path.join(env.XDG_CONFIG_HOME!, 'thclaws'), { recursive: true });
    fs.writeFileSync(path.join(env.XDG_CONFIG_HOME!, 'thclaws', 'settings.json'), JSON.stringify({ hosts }));
    // Each machine's person: a git identity and thclaws settings of their own (the lead's are not theirs).
    for (const u of ['thcr4', 'thcr5']) {
      const r = m.run(u, 'git config --global user.email "$USER@example.test" && git config --global user.name "$USER" && mkdir -p ~/.config/thclaws && printf %s \'{"teamEnabled":true,"teammatePermissionMode":"auto"}\' > ~/.config/thclaws/settings.json');
      expect(r.status, r.stderr).toBe(0);
    }
    ws = teamWorkspace();
    fs.chmodSync(ws.dir, 0o700);
    store = TeamStore.forWorkspace(ws.dir);
    store.init();
    await store.config.create({ name: 't', members: [{ name: 'alice' }, { name: 'bob' }, { name: 'carol' }, { name: 'dave', prompt: 'dave-marker: say hi to the lead' }, { name: 'erin' }] });
    for (const [i, who] of ['alice', 'bob', 'carol'].entries()) await store.tasks.create({ subject: `part ${i + 1}`, description: `the part of ${who}`, reservedFor: who });
    host = spawn(THCLAWS, ['host', '--dir', ws.dir, '--no-lead', '--idle-ms', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    host.stdout!.on('data', (d: Buffer) => (hostOut += d.toString()));
    host.stderr!.on('data', (d: Buffer) => (hostOut += d.toString()));
    await waitFor(() => /ready \(pid \d+\)/.test(hostOut) || (host.exitCode !== null ? Promise.reject(new Error(hostOut)) : false), 'the host ready');
    const scriptDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thcr-script-'));
    fs.chmodSync(scriptDir, 0o755);
    const script = path.join(scriptDir, 'script.json');
    fs.writeFileSync(script, JSON.stringify(SCRIPT), { mode: 0o644 });
    remote = remoteTeammatesFor(ws.dir, env, () => ({ hosts: hosts as never, placement: 'local' }));
    session = leadSession(ws, script, { teammateMode: 'host', remote });
    await session.becomeLead();
    handler = new LeadHandler(session, { watchdogMs: 500 });
    handler.onWake(() => void handler.drain());
    handler.start();
  }, 120_000);

  afterAll(async () => {
    handler?.stop();
    if (session) await shutdownTeam(session, handler, { graceMs: 500, force: true }).catch(() => undefined);
    await session?.close();
    if (host?.exitCode === null) {
      host.kill('SIGTERM');
      await new Promise((r) => host.once('exit', r));
    }
    // What this run gave each machine's person goes with it (the users are shared with other files).
    for (const u of ['thcr4', 'thcr5']) m?.run(u, `rm -rf ~/${WORK} ~/.gitconfig ~/.config/thclaws/settings.json`);
    await m?.close();
    await fake.close();
    ws?.cleanup();
    fs.rmSync(tmp, { recursive: true, force: true });
  }, 60_000);

  it("the other machines' users cannot read the lead's workspace", () => {
    for (const u of ['thcr4', 'thcr5']) {
      const r = m.run(u, `cat ${ws.dir}/README.md`);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/Permission denied/);
    }
  });

  it('an unknown host is one error naming it and the defined ones; an unreachable one names it', async () => {
    await expect(spawnTeammate(session, { name: 'carol', host: 'big' })).rejects.toThrow(/unknown host "big": the hosts defined are m1, m2, gone/);
    await expect(spawnTeammate(session, { name: 'carol', host: 'gone' })).rejects.toThrow(/^cannot reach host "gone" \(thcr-no-such-host\) over ssh: .*thcr-no-such-host/);
    expect(deriveState(await store.statuses.read('carol'))).toBe('defined');
    // A clone there that refuses the lead's push: one line naming the host, nothing left behind.
    const clone = `~/${WORK}/t/.worktrees/erin`;
    expect(m.run('thcr4', `mkdir -p ${clone} && cd ${clone} && git init -q && printf '#!/bin/sh\\nexit 1\\n' > .git/hooks/pre-receive && chmod +x .git/hooks/pre-receive`).status).toBe(0);
    await expect(spawnTeammate(session, { name: 'erin', host: 'm1' })).rejects.toThrow(/^host "m1" \(thcr4\): git push of the lead's [0-9a-f]{12} to \/home\/thcr4\/.*\/erin failed: .*pre-receive hook declined/);
    expect(deriveState(await store.statuses.read('erin'))).toBe('defined');
  }, 60_000);

  it('alice on one machine and bob on the other each claim, commit there; both branches come home and merge on main', async () => {
    const [a, b] = await Promise.all([spawnTeammate(session, { name: 'alice', host: 'm1' }), spawnTeammate(session, { name: 'bob', host: 'm2' })]);
    expect(a.where).toBe(`on m1 (thcr4:/home/thcr4/${WORK}/t/.worktrees/alice)`);
    expect(b.where).toBe(`on m2 (thcr5:/home/thcr5/${WORK}/t/.worktrees/bob)`);
    // Each runs as its machine's user, in its clone there.
    for (const [name, user] of [['alice', 'thcr4'], ['bob', 'thcr5']] as const) {
      const st = await store.statuses.read(name);
      const p = procs().find((x) => x.pid === st?.pid);
      expect(p?.uid).toBe(m.user(user).uid);
    }
    // A dashboard of the lead's host sees where each runs.
    const view = await connectHost(ws.dir, { client: 'test', env });
    const members = new Map<string, Member>();
    view.onEvent((e) => {
      if (e.type === 'roster') for (const x of e.members) members.set(x.name, x);
      if (e.type === 'member') members.set(e.member.name, e.member);
    });
    view.send({ type: 'subscribe', id: 1 });
    await waitFor(() => members.get('alice')?.host === 'm1' && members.get('bob')?.host === 'm2', 'the dashboard says on m1 / on m2');
    expect(members.get('carol')?.host ?? null).toBeNull();
    view.close();
    for (const id of ['1', '2']) await waitFor(async () => (await store.tasks.get(id)).status === 'completed', `task ${id} completed (host: ${hostOut})`, 60_000);
    // Fetched home by the lead's host on each completion.
    for (const n of ['alice', 'bob']) await waitFor(() => gitOut(ws.dir, ['rev-parse', '-q', '--verify', `refs/heads/team/${n}`]), `team/${n} fetched`);
    const dry = await teamMerge(session, { dry_run: true, only: ['alice', 'bob'] });
    expect(dry).toMatch(/alice \(team\/alice\): 1 commit\(s\) ahead — would merge cleanly/);
    expect(dry).toMatch(/bob \(team\/bob\): 1 commit\(s\) ahead — would merge cleanly/);
    await teamMerge(session, { only: ['alice', 'bob'] });
    expect(gitOut(ws.dir, ['show', 'main:alice.txt'])).toBe('alice: her part');
    expect(gitOut(ws.dir, ['show', 'main:bob.txt'])).toBe('bob: his part');
    expect(gitOut(ws.dir, ['log', '--format=%an', '-1', 'team/alice'])).toBe('thcr4');
    // The lead's key went to no command line and no environment on either side.
    for (const p of procs()) {
      expect(p.cmdline).not.toContain(KEY);
      if (p.uid === m.user('thcr4').uid || p.uid === m.user('thcr5').uid) expect(p.environ()).not.toContain(KEY);
    }
  }, 120_000);

  it("the lead's model key and base URL reach a remote teammate through its store link only: no command line, environment or file there", async () => {
    // A teammate on the real provider (no --script): its model calls go where the lead's host's go, with its key.
    const plain = leadSession(ws, '/nonexistent', { teammateMode: 'host', remote, childFlags: [] });
    await spawnTeammate(plain, { name: 'dave', host: 'm2' });
    const asked = await waitFor(() => fake.requests.find((r) => r.url.startsWith('/v1/messages') && JSON.stringify(r.body).includes('dave-marker')), `dave's model call (output: ${store.outputs.tail('dave', 20)})`, 60_000);
    // The SDK sends a key in either header, by version.
    expect(asked.headers['x-api-key'] ?? String(asked.headers.authorization).replace(/^Bearer /, '')).toBe(KEY);
    const dave = (await store.statuses.read('dave'))!.pid!;
    expect(procs().find((p) => p.pid === dave)?.uid).toBe(m.user('thcr5').uid);
    for (const p of procs()) {
      expect(p.cmdline).not.toContain(KEY);
      if (p.uid === m.user('thcr4').uid || p.uid === m.user('thcr5').uid) expect(p.environ()).not.toContain(KEY);
    }
    // Nor in any ssh or git-over-ssh this machine ran (prepare, push, launch, fetch).
    expect(fs.readFileSync(sshEnvLog, 'utf8')).toMatch(/THCLAWS_SSH|PATH=/);
    expect(fs.readFileSync(sshEnvLog, 'utf8')).not.toContain(KEY);
    const grep = m.run('thcr5', ['grep', '-rlF', KEY, m.user('thcr5').home]);
    expect(grep.stdout).toBe('');
    expect(grep.status).toBe(1);
  }, 120_000);

  it("killing a teammate's ssh: the host sees it gone and its task returns to pending, reserved for it", async () => {
    await spawnTeammate(session, { name: 'carol', host: 'm1' });
    await waitFor(async () => (await store.tasks.get('3')).status === 'in_progress', 'carol working on task 3', 60_000);
    const ssh = (await store.spawnRequests.read('carol'))?.served_pid;
    expect(ssh).toBeGreaterThan(0);
    process.kill(ssh!, 'SIGKILL');
    const t = await waitFor(async () => {
      const x = await store.tasks.get('3');
      return x.status === 'pending' ? x : null;
    }, 'task 3 back to pending', 60_000);
    expect(t.reserved_for).toBe('carol');
    expect(t.owner ?? null).toBeNull();
    expect(deriveState(await store.statuses.read('carol'))).toBe('dead');
    // Its pane (output.log, what a dashboard restores) says the link dropped.
    expect(store.outputs.tail('carol', 5)).toMatch(/\[thclaws: the link to m1 dropped \(ssh (SIGKILL|exit \d+)\)\]/);
    // Respawn from the dashboard: the same machine and clone, a new link; it takes its reserved task again.
    const view = await connectHost(ws.dir, { client: 'test', env });
    const replies: Array<Record<string, unknown>> = [];
    view.onEvent((e) => void (e.type === 'reply' && replies.push(e as never)));
    view.send({ type: 'respawn', id: 7, agent: 'carol' });
    const reply = await waitFor(() => replies.find((r) => r.id === 7), 'the respawn answered');
    expect(reply.ok, String(reply.error)).toBe(true);
    view.close();
    const again = await waitFor(async () => {
      const x = await store.tasks.get('3');
      return x.status === 'in_progress' && x.owner === 'carol' ? x : null;
    }, `carol working on task 3 again (output: ${store.outputs.tail('carol', 10)})`, 60_000);
    expect(again.reserved_for).toBe('carol');
    const st = await store.statuses.read('carol');
    expect(procs().find((p) => p.pid === st?.pid)?.uid).toBe(m.user('thcr4').uid);
  }, 120_000);

  it("Add member's where: the dashboard offers the user's hosts, refuses another, and Start runs the member there", async () => {
    const view = await connectHost(ws.dir, { client: 'test', env });
    const replies: Array<Record<string, unknown>> = [];
    let hosts: string[] | undefined;
    view.onEvent((e) => {
      if (e.type === 'reply') replies.push(e as never);
      if (e.type === 'settings') hosts = e.hosts;
    });
    const ask = async (id: number, req: Record<string, unknown>) => {
      view.send({ ...req, id } as never);
      return waitFor(() => replies.find((r) => r.id === id), `the answer to ${String(req.type)}`);
    };
    view.send({ type: 'subscribe', id: 20 });
    await waitFor(() => hosts, 'the settings event');
    expect(hosts).toEqual(['m1', 'm2', 'gone']);
    const refused = await ask(21, { type: 'member_add', name: 'gil', spec: { host: 'big' } });
    expect(refused.ok).toBe(false);
    expect(String(refused.error)).toMatch(/unknown host "big": the hosts defined are m1, m2, gone/);
    expect((await store.config.require()).members.some((x) => x.name === 'gil')).toBe(false);
    const added = await ask(22, { type: 'member_add', name: 'frank', spec: { role: 'tester', host: 'm2' } });
    expect(added.ok, String(added.error)).toBe(true);
    expect((await store.config.require()).members.find((x) => x.name === 'frank')?.host).toBe('m2');
    const started = await ask(23, { type: 'member_start', name: 'frank' });
    expect(started.ok, String(started.error)).toBe(true);
    view.close();
    // It runs as m2's user, in its clone there.
    const st = await waitFor(async () => {
      const x = await store.statuses.read('frank');
      return x?.pid && procs().some((p) => p.pid === x.pid) ? x : null;
    }, `frank running (output: ${store.outputs.tail('frank', 10)})`, 60_000);
    expect(procs().find((p) => p.pid === st.pid)?.uid).toBe(m.user('thcr5').uid);
    expect((await store.config.require()).members.find((x) => x.name === 'frank')?.clone).toBe(`/home/thcr5/${WORK}/t/.worktrees/frank`);
  }, 120_000);

  it("after the team's session moves on, a remote teammate's next write is refused and its status says why", async () => {
    await bumpEpoch(store, randomUUID());
    const st = await waitFor(async () => {
      const s = await store.statuses.read('alice');
      return s?.status === 'stopped' ? s : null;
    }, 'alice stopped', 30_000);
    expect(String((st as Record<string, unknown>).last_error)).toMatch(/session epoch .* is stale/);
  }, 60_000);
});

if (skip) console.log(`teammates on other machines: skipped (${skip})`);
