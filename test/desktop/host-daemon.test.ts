import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../src/contract/api.js';
import { connectHost, connectOrStartHost } from '../../src/main/daemon/host-client.js';
import { hostPaths } from '../../src/main/daemon/runtime-dir.js';
import { THCLAWS, waitFor } from './helpers.js';

/** Real `thclaws host` processes in a private runtime dir; the lead is not started (no agent needed here). */
describe('thclaws host: one process per workspace, on a socket only this user can open', () => {
  const runtime = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-rt-'));
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: runtime };
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-hostd-'));
  const procs: ChildProcess[] = [];
  let first: { proc: ChildProcess; pid: number; err: () => string };

  const startHost = async (...args: string[]) => {
    const proc = spawn(THCLAWS, ['host', '--dir', ws, '--no-lead', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    procs.push(proc);
    let out = '';
    let err = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const m = await waitFor(() => /ready \(pid (\d+)\)/.exec(out) ?? (proc.exitCode !== null ? Promise.reject(new Error(err)) : null), 'the host ready');
    return { proc, pid: Number(m[1]), err: () => err };
  };
  const exited = (p: ChildProcess) => (p.exitCode !== null || p.signalCode !== null ? Promise.resolve() : new Promise((r) => p.once('exit', r)));

  beforeAll(async () => {
    first = await startHost('--idle-ms', '0');
  }, 30_000);
  afterAll(() => {
    for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
    for (const d of [runtime, ws]) fs.rmSync(d, { recursive: true, force: true });
  });

  it('listens on a 0600 socket in a 0700 dir outside the workspace, which it leaves untouched', () => {
    const p = hostPaths(ws, env);
    expect(fs.statSync(p.dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(p.socket).mode & 0o777).toBe(0o600);
    expect(p.socket.startsWith(runtime)).toBe(true);
    expect(fs.readdirSync(ws)).toEqual([]);
  });

  it('refuses another user: a client running as uid 65534 cannot open the socket, even where it may enter the dir', async () => {
    if (process.getuid?.() !== 0) {
      console.log('second-uid socket test: skipped (not root, so no client can be run as another user here)');
      return;
    }
    const p = hostPaths(ws, env);
    const asNobody = () => new Promise<string>((resolve) => {
      const code = "require('net').connect(process.argv[1]).on('connect',()=>{console.log('connected');process.exit(0)}).on('error',(e)=>{console.log(e.code);process.exit(0)})";
      const c = spawn(process.execPath, ['-e', code, p.socket], { uid: 65534, gid: 65534, cwd: '/', stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      c.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      c.once('exit', () => resolve(out.trim()));
    });
    expect(await asNobody()).toBe('EACCES');
    // The socket's own mode refuses too: with the directories opened to others, still no way in.
    const dirs = [runtime, p.dir];
    for (const d of dirs) fs.chmodSync(d, 0o711);
    try {
      expect(await asNobody()).toBe('EACCES');
    } finally {
      for (const d of dirs) fs.chmodSync(d, 0o700);
    }
  });

  it('a second host for the same workspace exits with one line naming the running one', () => {
    const r = spawnSync(THCLAWS, ['host', '--dir', ws, '--no-lead'], { env, encoding: 'utf8', timeout: 20_000 });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining(`a host already runs for ${fs.realpathSync(ws)} (pid ${first.pid})`)]);
  });

  it('serves a client the API; a malformed message is refused and logged, and the host keeps serving', async () => {
    const c = await connectHost(ws, { client: 'test', env });
    expect(c.pid).toBe(first.pid);
    const events: HostEvent[] = [];
    c.onEvent((e) => events.push(e));
    c.send({ id: 1, type: 'subscribe' });
    await waitFor(() => events.find((e) => e.type === 'reply' && e.id === 1), 'the subscribe reply');
    expect(events.some((e) => e.type === 'workspace')).toBe(true);
    // Raw bytes on the same kind of connection: garbage after the hello, then a good request.
    const raw = net.connect(hostPaths(ws, env).socket);
    let got = '';
    raw.on('data', (d) => (got += d.toString()));
    raw.write(`${JSON.stringify({ type: 'hello', protocol: 1, client: 'raw' })}\nthis is not json\n{"id":7,"type":"no_such_request"}\n{"id":8,"type":"subscribe"}\n`);
    await waitFor(() => got.includes('"id":8,"ok":true'), 'the good request served after the bad ones');
    expect(got).toMatch(/"id":-1,"ok":false,"error":"invalid request: not JSON"/);
    expect(got).toMatch(/"id":7,"ok":false,"error":"invalid request/);
    expect(first.err()).toContain('refused a malformed message (not JSON)');
    raw.destroy();
    c.close();
  });

  it('serves one workspace: opening another folder through it is refused in one line, and it keeps serving', async () => {
    const c = await connectHost(ws, { client: 'test', env });
    const replies: HostEvent[] = [];
    c.onEvent((e) => e.type === 'reply' && replies.push(e));
    c.send({ id: 1, type: 'open_workspace', dir: os.tmpdir() });
    c.send({ id: 2, type: 'demo_start' });
    c.send({ id: 3, type: 'settings_get' });
    await waitFor(() => replies.length === 3, 'three replies');
    expect(replies.find((r) => r.type === 'reply' && r.id === 1)).toMatchObject({ ok: false, error: expect.stringMatching(/^this host serves .* only: a dashboard opens another folder through that folder's host$/) });
    expect(replies.find((r) => r.type === 'reply' && r.id === 2)).toMatchObject({ ok: false });
    expect(replies.find((r) => r.type === 'reply' && r.id === 3)).toMatchObject({ ok: true });
    c.close();
  });

  it('a client of another protocol version gets one clear error, not a hang', async () => {
    await expect(connectHost(ws, { client: 'old', env, protocol: 99, timeoutMs: 5_000 })).rejects.toThrow(/speaks protocol 1, the client 99/);
  });

  it("keeps no token or key in its command line or environment", () => {
    const cmdline = fs.readFileSync(`/proc/${first.pid}/cmdline`, 'utf8');
    const environ = fs.readFileSync(`/proc/${first.pid}/environ`, 'utf8').split('\0');
    expect(cmdline).not.toMatch(/token|key|secret/i);
    expect(environ.filter((kv) => /token|api_key|secret/i.test(kv.split('=')[0]!))).toEqual([]);
  });

  it('a killed host leaves a stale socket: the next host replaces it; --stop stops it', async () => {
    first.proc.kill('SIGKILL');
    await exited(first.proc);
    expect(fs.existsSync(hostPaths(ws, env).socket)).toBe(true);
    const next = await startHost('--idle-ms', '0');
    const c = await connectHost(ws, { client: 'test', env });
    expect(c.pid).toBe(next.pid);
    c.close();
    // Not spawnSync: the host is this process's child, reaped only while this event loop runs.
    const stop = spawn(THCLAWS, ['team', 'host', '--stop', '--dir', ws], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    stop.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise((r) => stop.once('exit', r));
    expect([code, out.trim()]).toEqual([0, `stopping the team of ${ws} (host pid ${next.pid}), each teammate asked first (up to 15 s) … stopped (stopped by thclaws host --stop)`]);
    await exited(next.proc);
    expect(fs.existsSync(hostPaths(ws, env).socket)).toBe(false);
  }, 30_000);

  it('"Stop the team and quit" from a client: answered, its views told the host closes on purpose, and it exits', async () => {
    const h = await startHost('--idle-ms', '0');
    const c = await connectHost(ws, { client: 'test', env });
    const events: HostEvent[] = [];
    c.onEvent((e) => events.push(e));
    const closed = new Promise<void>((r) => c.onClose(r));
    c.send({ id: 7, type: 'host_stop' });
    await closed;
    // Notices (the review feed's, on a folder that is not a git repository) and member updates (the
    // resources sampler's) may come any time; the answer and the close are exact and in order.
    expect(events.filter((e) => e.type !== 'notice' && e.type !== 'member')).toEqual([{ type: 'reply', id: 7, ok: true }, { type: 'host_closed', reason: 'the team was stopped from a dashboard' }]);
    await exited(h.proc);
    expect(h.proc.exitCode).toBe(0);
    expect(h.err()).toContain('"Stop the team and quit" asked by a client');
  }, 30_000);

  it('a client starts the host detached when none runs; with no client and no agent it exits by itself', async () => {
    const c = await connectOrStartHost(ws, [THCLAWS, 'host', '--dir', ws, '--no-lead', '--idle-ms', '300'], { client: 'test', env });
    const alive = () => {
      try {
        process.kill(c.pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive()).toBe(true);
    c.close();
    await waitFor(() => !alive(), 'the idle host to exit', 15_000);
    // Nothing else asked it to stop; a clean exit removes its log (a crash would have kept it: host-log.test.ts).
    expect(fs.existsSync(hostPaths(ws, env).log)).toBe(false);
  }, 30_000);
});
