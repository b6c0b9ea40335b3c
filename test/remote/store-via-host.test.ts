/**
 * A teammate's store through the lead's host (docs/remote.md): a real `thclaws host`, a real teammate process
 * run as another local user who cannot read the team dir, connected to a bridge of the host's socket only that
 * user may open. It claims and completes its task, hears the lead, shows its status, and is refused (and says
 * why) once the team's session moved on. At the host's API: a request id sent twice is applied once.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveState, isLive, TeamStore } from '../../src/core/store/index.js';
import { bumpEpoch } from '../../src/core/teams/protocol.js';
import { trustFolder } from '../../src/core/agent/trust.js';
import { hostPaths } from '../../src/main/daemon/runtime-dir.js';
import { forwardedSocket } from '../../src/main/remote/host-remote.js';
import { HOST_PROTOCOL } from '../../src/contract/api.js';
import { makeTeamWorkspace, ROOT, THCLAWS, waitFor } from '../desktop/helpers.js';
import { ensureBuilt } from '../agent/helpers.js';

const USER = 'thcs1';

/** Why this machine cannot run the test as another user, or null when it can (the user is made if absent). */
function cannotRunAsOtherUser(): string | null {
  if (process.getuid?.() !== 0) return 'not root, so no process can be run as another user here';
  if (spawnSync('id', ['-u', USER]).status !== 0 && spawnSync('useradd', ['-M', '-s', '/usr/sbin/nologin', USER]).status !== 0) return `cannot create user ${USER}`;
  const readable = (f: string) => spawnSync('runuser', ['-u', USER, '--', 'test', '-r', f]).status === 0;
  if (!readable(path.join(ROOT, 'dist/cli.mjs')) || !readable(path.join(ROOT, 'node_modules/zod/package.json'))) return `the repository is not readable by ${USER}`;
  return null;
}

const skip = cannotRunAsOtherUser();
const uid = skip ? 0 : Number(execFileSync('id', ['-u', USER]).toString());
const gid = skip ? 0 : Number(execFileSync('id', ['-g', USER]).toString());

/** A client of the host's socket speaking the raw protocol: each reply by its id. */
async function rawClient(socket: string) {
  const s = net.connect(socket);
  let buf = '';
  const seen: Array<Record<string, unknown>> = [];
  s.on('data', (d) => {
    buf += d.toString();
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      seen.push(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
      buf = buf.slice(nl + 1);
    }
  });
  await new Promise((r) => s.once('connect', r));
  s.write(`${JSON.stringify({ type: 'hello', protocol: 1, client: 'teammate' })}\n`);
  await waitFor(() => seen.find((e) => e.type === 'welcome'), 'welcome');
  let id = 1;
  return {
    /** Sends a request as a dashboard does (no store body). */
    request(body: Record<string, unknown>) {
      s.write(`${JSON.stringify({ id: ++id, ...body })}\n`);
    },
    seen,
    async call(rid: string, epoch: string | null, call: Record<string, unknown>) {
      const my = ++id;
      s.write(`${JSON.stringify({ type: 'store', id: my, rid, epoch, call })}\n`);
      const reply = await waitFor(() => seen.find((e) => e.type === 'reply' && e.id === my), `reply ${my}`);
      expect(reply.ok, String(reply.error)).toBe(true);
      return reply.result as { ok: boolean; value?: unknown; code?: string; error?: string };
    },
    /** Every kind of message the host sent this client from the `from`th on. */
    kinds: (from = 0) => new Set(seen.slice(from).map((e) => String(e.type))),
    close: () => s.end(),
  };
}

describe.skipIf(!!skip)('a teammate whose store is the lead host\'s', () => {
  const runtime = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-rt-'));
  // The lead's key, in the host's environment as a desktop app gives it: for a remote teammate it launches, no one else.
  const KEY = `sk-ant-api03-thcs-${randomUUID()}`;
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: runtime, ANTHROPIC_API_KEY: KEY };
  let ws: string;
  let store: TeamStore;
  let host: ChildProcess;
  let hostSocket: string;
  const bridgeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-bridge-'));
  const bridgeSocket = path.join(bridgeDir, 'store.sock');
  const bridged = new Set<net.Socket>();
  let bridge: net.Server;
  const mate = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-mate-'));
  let teammate: ChildProcess | undefined;
  let out = '';

  beforeAll(async () => {
    await ensureBuilt();
    ws = makeTeamWorkspace(['alice', 'bob'], []);
    store = new TeamStore(path.join(ws, '.thclaws', 'state', 'team'));
    await store.tasks.create({ subject: 'write the report', description: 'one line', reservedFor: 'alice' });
    host = spawn(THCLAWS, ['host', '--dir', ws, '--no-lead', '--idle-ms', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let hostOut = '';
    host.stdout!.on('data', (d: Buffer) => (hostOut += d.toString()));
    host.stderr!.on('data', (d: Buffer) => (hostOut += d.toString()));
    await waitFor(() => /ready \(pid \d+\)/.test(hostOut) || (host.exitCode !== null ? Promise.reject(new Error(hostOut)) : false), 'the host ready');
    hostSocket = hostPaths(ws, env).socket;
    // The other user reaches the host through this bridge only, of the socket an ssh -R forwards to a remote teammate.
    const forwarded = forwardedSocket(ws, env);
    bridge = net.createServer((c) => {
      const up = net.connect(forwarded);
      bridged.add(c);
      const end = () => (c.destroy(), up.destroy(), bridged.delete(c));
      c.on('error', end).on('close', end);
      up.on('error', end).on('close', end);
      c.pipe(up).pipe(c);
    });
    await new Promise<void>((r) => bridge.listen(bridgeSocket, r));
    fs.chmodSync(bridgeDir, 0o711);
    fs.chownSync(bridgeSocket, uid, gid);
    fs.chmodSync(bridgeSocket, 0o600);
    // The teammate's own machine: its home, its project, its script; nothing of the lead's workspace.
    const home = path.join(mate, 'home');
    const proj = path.join(mate, 'proj');
    fs.mkdirSync(path.join(proj, '.thclaws'), { recursive: true });
    fs.mkdirSync(home);
    fs.writeFileSync(path.join(proj, '.thclaws', 'settings.json'), JSON.stringify({ teamEnabled: true, teammatePermissionMode: 'auto' }));
    fs.writeFileSync(path.join(mate, 'script.json'), JSON.stringify({
      rules: [
        { match: 'write the report', turns: [{ tool_calls: [{ name: 'TeamTaskComplete', input: { task_id: '1', summary: 'report written' } }] }, { text: 'done' }] },
        { match: 'hello alice', turns: [{ tool_calls: [{ name: 'SendMessage', input: { to: 'lead', text: 'ack: hello heard' } }] }, { text: 'ok' }] },
      ],
    }));
    const mateEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
    trustFolder(proj, mateEnv);
    fs.chmodSync(mate, 0o755);
    execFileSync('chown', ['-R', `${uid}:${gid}`, mate]);
    teammate = spawn('runuser', ['-u', USER, '--', process.execPath, path.join(ROOT, 'bin/thclaws'), '--team-agent', 'alice', '--script', path.join(mate, 'script.json')], {
      cwd: proj,
      env: { ...mateEnv, THCLAWS_TEAM_VIA: `host:${bridgeSocket}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    teammate.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    teammate.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  }, 60_000);

  afterAll(() => {
    if (teammate?.exitCode === null) teammate.kill('SIGKILL');
    bridge?.close();
    for (const c of bridged) c.destroy();
    if (host?.exitCode === null) host.kill('SIGTERM');
    for (const d of [runtime, bridgeDir, mate, ws]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  it('the other user cannot read the team dir', () => {
    expect(spawnSync('runuser', ['-u', USER, '--', 'ls', store.dir]).status).not.toBe(0);
  });

  it('claims its task through the host and it ends done on the board; its status is live with its own pid', async () => {
    const done = await waitFor(async () => {
      if (teammate!.exitCode !== null) throw new Error(`the teammate exited (${teammate!.exitCode}): ${out}`);
      const t = await store.tasks.get('1');
      return t.status === 'completed' ? t : null;
    }, `task 1 completed (teammate output: ${out})`);
    expect(done.owner).toBe('alice');
    // The lead hears of it (a frame written through the host, checked there).
    await waitFor(() => store.inboxes.list('lead').find((m) => m.from === 'alice' && m.type === 'idle_notification' && (m as Record<string, unknown>).completed_task_id === '1'), 'the idle notification for task 1');
    const st = await store.statuses.read('alice');
    expect(isLive(deriveState(st))).toBe(true);
    expect(st?.pid).not.toBe(process.pid);
    expect(out).not.toMatch(/EACCES|team error/);
    // A dashboard of the host shows it: alive, idle, its task done.
    const view = await rawClient(hostSocket);
    view.request({ type: 'subscribe' });
    const shown = await waitFor(() => view.seen.flatMap((e) => (e.type === 'roster' ? (e.members as Array<Record<string, unknown>>) : e.type === 'member' ? [e.member as Record<string, unknown>] : [])).filter((m) => m.name === 'alice').pop(), "alice in the host's roster");
    expect(shown).toMatchObject({ alive: true, state: 'idle' });
    view.close();
  }, 60_000);

  it('a message from the lead reaches it (it answers)', async () => {
    await store.send('lead', 'alice', 'hello alice, are you there?');
    const reply = await waitFor(() => store.inboxes.list('lead').find((m) => m.from === 'alice' && m.text.includes('ack: hello heard')), `alice's answer (teammate output: ${out})`);
    expect(reply.to).toBe('lead');
  }, 60_000);

  it('its link dropped, it attaches again and goes on: a message sent meanwhile is answered', async () => {
    const before = bridged.size;
    expect(before).toBeGreaterThan(0);
    for (const c of bridged) c.destroy();
    await store.send('lead', 'alice', 'hello alice, once more');
    await waitFor(() => store.inboxes.list('lead').filter((m) => m.from === 'alice' && m.text.includes('ack: hello heard')).length === 2, `alice's second answer (teammate output: ${out})`);
    expect(bridged.size).toBe(1);
    expect(isLive(deriveState(await store.statuses.read('alice')))).toBe(true);
    expect(teammate!.exitCode).toBeNull();
  }, 60_000);

  it('at the host API: a request sent twice with one request id is applied once', async () => {
    const c = await rawClient(hostSocket);
    const attached = await c.call(randomUUID(), null, { op: 'attach', agent: 'bob', instance: randomUUID() });
    expect(attached.ok).toBe(true);
    // Until it attached it was a view like any (a member event may come first); from then on, not.
    const sinceAttach = c.seen.length;
    const epoch = (attached.value as { epoch: string | null }).epoch;
    const rid = randomUUID();
    const first = await c.call(rid, epoch, { op: 'send', to: 'lead', text: 'exactly once' });
    const again = await c.call(rid, epoch, { op: 'send', to: 'lead', text: 'exactly once' });
    expect(again).toEqual(first);
    expect(store.inboxes.list('lead').filter((m) => m.from === 'bob' && m.text === 'exactly once')).toHaveLength(1);
    const usage = { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    const acc = randomUUID();
    await c.call(acc, epoch, { op: 'status_account', usage, cost_usd: null });
    await c.call(acc, epoch, { op: 'status_account', usage, cost_usd: null });
    expect((await store.statuses.read('bob'))?.usage?.input_tokens).toBe(100);
    // A teammate's link carries its answers and wakes only, never the dashboard's broadcasts (the whole board).
    await store.tasks.create({ subject: 'seen by views only', description: '' });
    await waitFor(() => c.kinds(sinceAttach).has('store_wake'), 'a wake for the new task');
    expect([...c.kinds(sinceAttach)].sort()).toEqual(['reply', 'store_wake']);
    c.close();
  }, 30_000);

  it("the lead's key goes to no process the host did not launch as a remote teammate (a teammate's Bash command on its socket attaching as a member)", async () => {
    const c = await rawClient(bridgeSocket);
    const attached = await c.call(randomUUID(), null, { op: 'attach', agent: 'bob', instance: randomUUID(), model_env: true });
    c.close();
    expect(attached.ok, attached.error).toBe(true);
    expect(JSON.stringify(attached.value)).not.toContain(KEY);
  }, 30_000);

  it('after the team session moves on, its next write is refused: it stops and its status says why', async () => {
    await bumpEpoch(store, randomUUID());
    const st = await waitFor(async () => {
      const s = await store.statuses.read('alice');
      return s?.status === 'stopped' ? s : null;
    }, `alice stopped (teammate output: ${out})`);
    expect(String((st as Record<string, unknown>).last_error)).toMatch(/session epoch .* is stale/);
    expect(deriveState(st)).not.toBe('idle');
    await waitFor(() => teammate!.exitCode !== null, 'the teammate exited');
    expect(teammate!.exitCode).not.toBe(0);
    expect(out).toMatch(/stale.*stopping/);
  }, 60_000);

  it('a connection that attaches as one member and then as another does not keep the first one\'s lease: that member can attach again', async () => {
    const c = await rawClient(hostSocket);
    expect((await c.call(randomUUID(), null, { op: 'attach', agent: 'bob', instance: randomUUID() })).ok).toBe(true);
    expect(await c.call(randomUUID(), null, { op: 'attach', agent: 'alice', instance: randomUUID() })).toMatchObject({ ok: false, code: 'conflict' });
    c.close();
    const again = await rawClient(hostSocket);
    const bob = await waitFor(async () => {
      const r = await again.call(randomUUID(), null, { op: 'attach', agent: 'bob', instance: randomUUID() });
      return r.ok ? r : null;
    }, 'bob attached again after the other connection closed', 10_000).catch((err: Error) => err);
    again.close();
    expect(bob).not.toBeInstanceOf(Error);
  }, 30_000);

  it("a process on the teammate's machine with the forwarded socket (its Bash commands) cannot drive the lead's host: no stop, no view, no input; the host runs on", async () => {
    const probe = path.join(mate, 'probe.mjs');
    // As the teammate's own user: says hello as a dashboard, asks to stop the team, to type into the lead's pane, to see every pane.
    fs.writeFileSync(probe, `import net from 'node:net';
const s = net.connect(process.argv[2]);
let buf = '';
s.on('data', (d) => (buf += d));
s.on('connect', () => {
  s.write(JSON.stringify({ type: 'hello', protocol: ${HOST_PROTOCOL}, client: 'dashboard' }) + '\\n');
  for (const [id, r] of [[1, { type: 'subscribe' }], [2, { type: 'input', agent: 'lead', data: 'x' }], [3, { type: 'host_stop' }]]) s.write(JSON.stringify({ id, ...r }) + '\\n');
  setTimeout(() => (process.stdout.write(buf), process.exit(0)), 1500);
});
s.on('error', (e) => (process.stdout.write(buf + 'ERR ' + e.message), process.exit(0)));
`);
    execFileSync('chown', [`${uid}:${gid}`, probe]);
    // Not spawnSync: the bridge it goes through runs in this process.
    const child = spawn('runuser', ['-u', USER, '--', process.execPath, probe, bridgeSocket], { stdio: ['ignore', 'pipe', 'inherit'] });
    const r = { stdout: '' };
    child.stdout!.on('data', (d: Buffer) => (r.stdout += d.toString()));
    await new Promise((resolve) => child.once('close', resolve));
    const replies = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.type === 'reply');
    // Each one answered (the probe reached the host), none carried out.
    expect(replies.map((e) => [e.id, e.ok]).sort(), r.stdout.slice(0, 500)).toEqual([[1, false], [2, false], [3, false]]);
    expect(host.exitCode).toBeNull();
    const view = await rawClient(hostSocket);
    view.request({ type: 'subscribe' });
    await waitFor(() => view.seen.find((e) => e.type === 'roster'), 'the host still serving its own dashboards');
    view.close();
  }, 30_000);
});

if (skip) console.log(`store through the host, as another user: skipped (${skip})`);
