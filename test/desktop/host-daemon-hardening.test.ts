/**
 * The workspace host against hostile and unlucky clients: credentials kept out of its environment listing,
 * one lease whatever the environment, socket paths the kernel would cut short, a host at the socket that
 * serves another workspace, a host that drops a connection while exiting, a client that never says hello,
 * and one that never reads.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectHost, connectOrStartHost, stopHost } from '../../src/main/daemon/host-client.js';
import { startHostDaemon } from '../../src/main/daemon/host-daemon.js';
import { openHostManager } from '../../src/main/daemon/open-host.js';
import { hostPaths } from '../../src/main/daemon/runtime-dir.js';
import { RemoteViews } from '../../src/main/daemon/remote-views.js';
import { hostReplacedText, hostRunsAgainText, hostStoppedText, leasePid } from '../../src/main/daemon/host-stall.js';
import { readViewEvent } from '../../src/main/daemon/view-event.js';
import type { HostEvent } from '../../src/contract/api.js';
import { pidAlive } from '../../src/core/store/holder.js';
import { THCLAWS, waitFor } from './helpers.js';
import { hostAndViews } from './host-views.js';

const tmp = (p: string) => fs.mkdtempSync(path.join(os.tmpdir(), p));
const stops: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const s of stops) await s().catch(() => {});
});

function descendants(pid: number): number[] {
  const out = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).stdout.trim();
  const kids = out ? out.split(/\s+/).map(Number) : [];
  return kids.flatMap((k) => [k, ...descendants(k)]);
}
const environ = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  } catch {
    return [];
  }
};

describe.runIf(process.platform === 'linux')('the workspace host, hardened', () => {
  it("credentials in the starting shell's environment (an API key, a cloud secret key, a token, a password) reach the lead, never the host's environment listing", async () => {
    const ws = tmp('hard-key-');
    const env = { ...process.env, XDG_RUNTIME_DIR: tmp('hard-rt-'), HOME: tmp('hard-home-'), ANTHROPIC_API_KEY: 'sk-ant-api03-thclaws-test-only', AWS_SECRET_ACCESS_KEY: 'aws-test-only', GITHUB_PAT: 'ghp-test-only', DB_PASSWD: 'pw-test-only' };
    const script = path.join(tmp('hard-script-'), 'lead.json');
    // A valid script (rules: at least one): the lead stays up to be found, rather than exit on a refused script.
    fs.writeFileSync(script, JSON.stringify({ rules: [{ match: 'never said', turns: [{ text: 'OK' }] }] }));
    const c = await connectOrStartHost(ws, [THCLAWS, 'host', '--dir', ws, '--lead-script', script, '--idle-ms', '0'], { client: 'test', env });
    stops.push(() => stopHost(ws, env));
    c.close();
    expect(environ(c.pid).filter((kv) => /^(ANTHROPIC_API_KEY|AWS_SECRET_ACCESS_KEY|GITHUB_PAT|DB_PASSWD)=/.test(kv))).toEqual([]);
    expect(fs.readFileSync(`/proc/${c.pid}/cmdline`, 'utf8')).not.toContain('sk-ant-api03');
    // The lead (in the host's pty, under its wrapper) still has the key it needs.
    const lead = await waitFor(() => descendants(c.pid).find((p) => environ(p).includes('ANTHROPIC_API_KEY=sk-ant-api03-thclaws-test-only')), "the lead's process with the key");
    expect(environ(lead)).toEqual(expect.arrayContaining(['AWS_SECRET_ACCESS_KEY=aws-test-only', 'GITHUB_PAT=ghp-test-only', 'DB_PASSWD=pw-test-only']));
    expect(lead).toBeGreaterThan(0);
  }, 60_000);

  it('one host per workspace whatever XDG_RUNTIME_DIR says: a second host from another environment refuses, naming the first; a client from there reaches and stops the first', async () => {
    const ws = tmp('hard-lease-');
    const envA = { ...process.env, XDG_RUNTIME_DIR: tmp('hard-rta-') };
    const envB = { ...process.env, XDG_RUNTIME_DIR: tmp('hard-rtb-') };
    const c = await connectOrStartHost(ws, [THCLAWS, 'host', '--dir', ws, '--no-lead', '--idle-ms', '0'], { client: 'test', env: envA });
    stops.push(() => stopHost(ws, envA));
    c.close();
    const second = spawnSync(THCLAWS, ['host', '--dir', ws, '--no-lead'], { env: envB, encoding: 'utf8', timeout: 30_000 });
    expect(second.status).toBe(1);
    expect(second.stderr.trim().split('\n')).toEqual([expect.stringContaining(`a host already runs for ${fs.realpathSync(ws)} (pid ${c.pid})`)]);
    // A dashboard or --stop from that other environment reaches the running host (it found no socket in its own dir).
    const b = await connectOrStartHost(ws, [THCLAWS, 'host', '--dir', ws, '--no-lead', '--idle-ms', '0'], { client: 'test', env: envB, timeoutMs: 15_000 });
    expect(b.pid).toBe(c.pid);
    b.close();
    expect(await stopHost(ws, envB)).toMatchObject({ pid: c.pid });
  }, 60_000);

  it('a socket path the kernel would cut short is refused with what to do, never truncated', () => {
    const deep = path.join(tmp('hard-long-'), 'x'.repeat(60));
    fs.mkdirSync(deep);
    expect(() => hostPaths(tmp('hard-ws-'), { XDG_RUNTIME_DIR: deep })).toThrow(/over the 107-byte limit for Unix sockets: set XDG_RUNTIME_DIR to a shorter directory/);
  });

  it('a host at the socket that serves another workspace is never talked to', async () => {
    const ws = tmp('hard-other-');
    const env = { XDG_RUNTIME_DIR: tmp('hard-rt-') };
    const p = hostPaths(ws, env);
    const impostor = net.createServer((s) => s.write(`${JSON.stringify({ type: 'welcome', protocol: 1, pid: 1, workspace: '/somewhere/else' })}\n`));
    await new Promise<void>((r) => impostor.listen(p.socket, r));
    try {
      await expect(connectHost(ws, { client: 'test', env, protocol: 1 })).rejects.toThrow(`serves /somewhere/else, not ${p.workspace}`);
    } finally {
      impostor.close();
    }
  });

  it('a host that drops the connection while exiting is started again, not reported as an error', async () => {
    const ws = tmp('hard-reset-');
    const env = { ...process.env, XDG_RUNTIME_DIR: tmp('hard-rt-') };
    const p = hostPaths(ws, env);
    // What an idle host does in its last moment: accepts, then resets. It holds no lease, so a new host takes over.
    const exiting = net.createServer((s) => s.destroy());
    await new Promise<void>((r) => exiting.listen(p.socket, r));
    try {
      const c = await connectOrStartHost(ws, [THCLAWS, 'host', '--dir', ws, '--no-lead', '--idle-ms', '0'], { client: 'test', env });
      // By pid: the impostor's close unlinks the socket path, so --stop could no longer reach this host.
      stops.push(async () => process.kill(c.pid, 'SIGTERM'));
      expect(c.workspace).toBe(p.workspace);
      c.close();
    } finally {
      exiting.close();
    }
  }, 60_000);

  it('a view that reaches a stalled host is ended (the page reconnects), not left on an empty "no team" for good', async () => {
    const { c, views } = await hostAndViews('hard-stall-', stops);
    const events: HostEvent[] = [];
    let ended = false;
    // A stopped process still has its socket: the kernel accepts the connection and nobody answers the hello.
    process.kill(c.pid, 'SIGSTOP');
    try {
      const view = views.connect((e) => events.push(readViewEvent(e)!), () => (ended = true));
      // Said at once (the lease names the pid before any hello), not only when the hello times out.
      await waitFor(() => events.some((e) => e.type === 'notice' && e.text === hostStoppedText(c.pid)) || null, 'the notice that the host is stopped', 5_000);
      expect(events.some((e) => e.type === 'notice' && /did not answer/.test(e.text))).toBe(false);
      await waitFor(() => events.some((e) => e.type === 'notice' && /did not answer/.test(e.text)) || null, 'the notice that the host did not answer', 30_000);
      await waitFor(() => ended || null, 'the view to be ended so that the page reconnects', 5_000);
      view.close();
    } finally {
      process.kill(c.pid, 'SIGCONT');
    }
    // Once the host runs again, the next view (the page's reconnect) is served.
    const got: HostEvent[] = [];
    const again = views.connect((e) => got.push(readViewEvent(e)!));
    await again.handle({ id: 1, type: 'subscribe' });
    await waitFor(() => got.some((e) => e.type === 'workspace') || null, 'the workspace from the resumed host');
    again.close();
  }, 60_000);

  it('a host stopped before it answered and run again before the timeout: "stopped", then "runs again", then served; a host never stopped says neither', async () => {
    const { c, views } = await hostAndViews('hard-cont-', stops);
    const said = (events: HostEvent[], text: string) => events.some((e) => e.type === 'notice' && e.text === text) || null;
    const events: HostEvent[] = [];
    process.kill(c.pid, 'SIGSTOP');
    let view;
    try {
      view = views.connect((e) => events.push(readViewEvent(e)!));
      await view.handle({ id: 1, type: 'subscribe' });
      await waitFor(() => said(events, hostStoppedText(c.pid)), 'the notice that the host is stopped', 5_000);
    } finally {
      process.kill(c.pid, 'SIGCONT');
    }
    await waitFor(() => said(events, hostRunsAgainText(c.pid)), 'the notice that it runs again', 8_000);
    await waitFor(() => events.some((e) => e.type === 'workspace') || null, 'the workspace from the host');
    // Said once (the lease watch and the answered hello do not both say it), and never "did not answer".
    expect(events.filter((e) => e.type === 'notice' && e.text === hostRunsAgainText(c.pid))).toHaveLength(1);
    expect(events.some((e) => e.type === 'notice' && /did not answer/.test(e.text))).toBe(false);
    view.close();
    const calm: HostEvent[] = [];
    const again = views.connect((e) => calm.push(readViewEvent(e)!));
    await again.handle({ id: 1, type: 'subscribe' });
    await waitFor(() => calm.some((e) => e.type === 'workspace') || null, 'the workspace for a view of a running host');
    await new Promise((r) => setTimeout(r, 1500)); // a stall watch ticks every second: two ticks said nothing
    expect(calm.filter((e) => e.type === 'notice' && /is stopped|runs again/.test(e.text))).toEqual([]);
    again.close();
  }, 60_000);

  it('a host killed while stopped during the hello, the next one serves: the view never says the killed pid runs again, and says which serves now', async () => {
    const { c, views, ws, env } = await hostAndViews('hard-killed-', stops);
    const events: HostEvent[] = [];
    const notices = () => events.flatMap((e) => (e.type === 'notice' ? [e.text] : []));
    process.kill(c.pid, 'SIGSTOP');
    const view = views.connect((e) => events.push(readViewEvent(e)!));
    try {
      await view.handle({ id: 1, type: 'subscribe' });
      await waitFor(() => notices().includes(hostStoppedText(c.pid)) || null, 'the notice that the host is stopped', 5_000);
      process.kill(c.pid, 'SIGKILL');
      await waitFor(() => !pidAlive(c.pid) || null, 'the stopped host gone');
      // The next host comes up (the hello's retry starts it) and serves this view.
      await waitFor(() => events.some((e) => e.type === 'workspace') || null, 'the workspace from the next host', 30_000);
      const next = await waitFor(() => leasePid(ws, env), 'the next host holding the lease');
      stops.push(async () => process.kill(next, 'SIGKILL'));
      expect(next).not.toBe(c.pid);
      // The "stopped" is answered with what happened (the page closes its notice on it: src/renderer/store/notices.test.ts).
      await waitFor(() => notices().includes(hostReplacedText(c.pid, next)) || null, 'the notice that another host serves now', 5_000);
      expect(notices()).not.toContain(hostRunsAgainText(c.pid));
    } finally {
      view.close();
    }
  }, 60_000);

  it('a view whose host is killed is told and ended (the page reconnects), and the reconnect starts a host that serves it', async () => {
    const ws = tmp('hard-killed-');
    const env = { ...process.env, XDG_RUNTIME_DIR: tmp('hard-rt-') };
    // Whichever host is left when the test ends (the reconnect's, or one a failure left behind).
    stops.push(() => stopHost(ws, env, { force: true }));
    const argv = [THCLAWS, 'host', '--dir', ws, '--no-lead', '--idle-ms', '0'];
    const views = new RemoteViews({ workspace: ws, argv, env }, { targetFor: () => ({ workspace: ws, argv, env }), demo: () => Promise.reject(new Error('no demo')) });
    const events: HostEvent[] = [];
    let ended = false;
    const view = views.connect((e) => events.push(readViewEvent(e)!), () => (ended = true));
    await view.handle({ id: 1, type: 'subscribe' });
    await waitFor(() => events.some((e) => e.type === 'workspace') || null, 'the workspace from the first host');
    const first = await connectHost(ws, { client: 'test', env });
    first.close();
    stops.push(async () => process.kill(first.pid, 'SIGKILL'));
    process.kill(first.pid, 'SIGKILL');
    await waitFor(() => ended || null, 'the view to be ended so that the page reconnects', 10_000);
    // Said once (the folder is no git repository: the review feed's own notices may come and go beside it).
    expect(events.filter((e) => e.type === 'notice' && e.text === 'the connection to the workspace host closed')).toHaveLength(1);
    view.close();
    const got: HostEvent[] = [];
    const again = views.connect((e) => got.push(readViewEvent(e)!));
    await again.handle({ id: 1, type: 'subscribe' });
    await waitFor(() => got.some((e) => e.type === 'workspace') || null, 'the workspace from the host the reconnect started');
    const second = await connectHost(ws, { client: 'test', env });
    second.close();
    expect(second.pid).not.toBe(first.pid);
    again.close();
  }, 60_000);

  it('a client whose connection is reset (a dashboard killed mid-stream) does not take the host down: it serves the next one', async () => {
    const ws = tmp('hard-rst-');
    const env = { ...process.env, XDG_RUNTIME_DIR: tmp('hard-rt-') };
    const c = await connectOrStartHost(ws, [THCLAWS, 'host', '--dir', ws, '--no-lead', '--idle-ms', '0'], { client: 'test', env });
    stops.push(() => stopHost(ws, env, { force: true }));
    c.close();
    for (let i = 0; i < 3; i++) {
      const raw = net.connect(hostPaths(ws, env).socket);
      let got = '';
      raw.on('data', (d) => (got += d));
      raw.on('error', () => {});
      // Two hundred snapshots asked for, and gone after the first: what a dashboard killed mid-stream leaves.
      raw.write(`${JSON.stringify({ type: 'hello', protocol: 1, client: 'raw' })}\n${'{"id":0,"type":"subscribe"}\n'.repeat(200)}`);
      await waitFor(() => got.includes('"type":"workspace"') || null, 'the first snapshot');
      // The host is still writing into a closed socket (EPIPE / ECONNRESET on its side).
      raw.destroy();
    }
    const again = await connectHost(ws, { client: 'test', env });
    again.close();
    expect(again.pid).toBe(c.pid);
    expect(pidAlive(c.pid)).toBe(true);
  }, 60_000);

  it('a refused client is done: lines after the refusal in the same write are not served (a stop hello among them)', async () => {
    const ws = tmp('hard-refused-');
    const env = { XDG_RUNTIME_DIR: tmp('hard-rt-') };
    let closed: string | null = null;
    const daemon = await startHostDaemon({ workspace: ws, env, open: (w) => openHostManager(w, { startLead: false }), log: () => {}, onClosed: (r) => (closed = r) });
    stops.push(() => daemon.close());
    const s = net.connect(daemon.paths.socket);
    let got = '';
    s.on('data', (d) => (got += d));
    s.write(`not a hello\n${JSON.stringify({ type: 'hello', protocol: 1, client: 'test', stop: true })}\n`);
    await new Promise((r) => s.once('close', r));
    expect(got.trim().split('\n').map((l) => JSON.parse(l))).toEqual([{ type: 'refused', error: 'the first message must be a hello (JSON)' }]);
    const c = await connectHost(ws, { client: 'test', env });
    expect(closed).toBeNull();
    c.close();
  });

  // Between its connect and the host's answer to its hello, a client is not a view yet: a host closing then
  // sent it `host_closed` as its first line, and the client failed with "the host did not answer the hello"
  // instead of starting the next host (a batch round, host-daemon.test.ts, an idle exit at 300 ms).
  for (const how of ['exits by itself', 'is stopped from a view'] as const) {
    it(`a client not welcomed yet when the host ${how} gets what its hello would get now, never host_closed`, async () => {
      const ws = tmp('hard-early-');
      const env = { XDG_RUNTIME_DIR: tmp('hard-rt-') };
      const daemon = await startHostDaemon({ workspace: ws, env, open: (w) => openHostManager(w, { startLead: false }), log: () => {} });
      stops.push(() => daemon.close());
      const view = how === 'is stopped from a view' ? await connectHost(ws, { client: 'test', env }) : null;
      const early = net.connect(daemon.paths.socket);
      let got = '';
      early.on('data', (d) => (got += d));
      const gone = new Promise((r) => early.once('close', r));
      await waitFor(() => daemon.clients() === (view ? 2 : 1) || null, 'the host to accept the connection');
      if (view) view.send({ id: 1, type: 'host_stop' });
      else await daemon.close('idle for 0 s with no client and no live agent');
      await gone;
      // Exiting by itself: dropped like a host that is gone (the client starts the next one); stopping: refused.
      if (view) expect(got.trim().split('\n').map((l) => JSON.parse(l))).toEqual([{ type: 'refused', error: 'the team is stopping: the team was stopped from a dashboard', code: 'stopping' }]);
      else expect(got).toBe('');
    });
  }

  it('a socket file removed or replaced under a running host is made again: new clients reach it, and the ones connected stay', async () => {
    const ws = tmp('hard-gone-');
    const env = { XDG_RUNTIME_DIR: tmp('hard-rt-') };
    const daemon = await startHostDaemon({ workspace: ws, env, open: (w) => openHostManager(w, { startLead: false }), log: () => {}, socketCheckMs: 100 });
    stops.push(() => daemon.close());
    const first = await connectHost(ws, { client: 'test', env });
    const reach = () => connectHost(ws, { client: 'test', env, timeoutMs: 2000 }).then((c) => (c.close(), c.pid), () => null);
    // What a /tmp cleaner (or rm -rf) does; then a regular file where the socket was.
    fs.rmSync(daemon.paths.socket);
    fs.rmSync(daemon.paths.link, { force: true });
    expect(await waitFor(reach, 'the host to listen again after its socket was removed')).toBe(process.pid);
    fs.rmSync(daemon.paths.socket);
    fs.writeFileSync(daemon.paths.socket, 'not a socket');
    expect(await waitFor(reach, 'the host to listen again after its socket was replaced by a file')).toBe(process.pid);
    expect(fs.lstatSync(daemon.paths.socket).mode & 0o777).toBe(0o600);
    // The client connected before still talks to it.
    const replies: HostEvent[] = [];
    first.onEvent((e) => replies.push(e));
    first.send({ id: 7, type: 'settings_get' });
    await waitFor(() => replies.some((e) => e.type === 'reply' && e.id === 7 && e.ok) || null, 'a reply on the connection made before');
    first.close();
  });

  it('a client that never says hello is closed, and one that never reads is closed before the host grows without bound', async () => {
    const ws = tmp('hard-silent-');
    const env = { XDG_RUNTIME_DIR: tmp('hard-rt-') };
    const daemon = await startHostDaemon({ workspace: ws, env, open: (w) => openHostManager(w, { startLead: false }), helloDeadlineMs: 300, maxClientBacklog: 256 * 1024, log: () => {} });
    stops.push(() => daemon.close());
    const silent = net.connect(daemon.paths.socket);
    silent.write('{"type":"hel');
    await new Promise((r) => silent.once('close', r));
    await waitFor(() => daemon.clients() === 0 || null, 'the host to forget the silent client');

    const greedy = net.connect(daemon.paths.socket);
    greedy.pause();
    greedy.write(`${JSON.stringify({ type: 'hello', protocol: 1, client: 'test' })}\n`);
    await waitFor(() => daemon.clients() === 1 || null, 'the host to accept the client that will not read');
    // Thousands of requests, no read: the replies pile up in the host's queue for this socket.
    const burst = Array.from({ length: 4000 }, (_, i) => JSON.stringify({ id: i + 1, type: 'settings_get' })).join('\n');
    greedy.write(`${burst}\n`);
    await waitFor(() => daemon.clients() === 0 || null, 'the host to close the client that does not read');
    greedy.destroy();
  }, 60_000);
});
