/**
 * Stopping the workspace host on purpose, with real processes: `--stop` from a terminal negotiates as "Stop the
 * team and quit" does (or stops at once with `--force`); a client that comes while the team is stopping is
 * refused in words it understands and starts no new host; a client that gives up on the host it started leaves
 * no host running behind it.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deriveState, TeamStore } from '../../src/core/store/index.js';
import { connectHost, connectOrStartHost, HOST_STOPPING, stopHost } from '../../src/main/daemon/host-client.js';
import { startHostDaemon } from '../../src/main/daemon/host-daemon.js';
import { openHostManager } from '../../src/main/daemon/open-host.js';
import { RemoteViews } from '../../src/main/daemon/remote-views.js';
import { readViewEvent } from '../../src/main/daemon/view-event.js';
import type { HostEvent } from '../../src/contract/api.js';
import { makeTeamWorkspace, THCLAWS, waitFor } from './helpers.js';
import { pidAlive } from '../../src/core/store/holder.js';

const tmp = (p: string) => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), p)));
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const c of cleanups) await Promise.resolve().then(c).catch(() => {});
});
/** A CLI run to its end: exit code and stdout (spawn, not spawnSync: hosts this process started get reaped). */
const run = (args: string[], env: NodeJS.ProcessEnv) =>
  new Promise<{ code: number | null; out: string }>((resolve) => {
    const p = spawn(THCLAWS, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    p.once('exit', (code) => resolve({ code, out }));
  });

describe.runIf(process.platform === 'linux')('stopping the workspace host', () => {
  it('thclaws team host --stop negotiates as "Stop the team and quit": the teammate is asked, stops by itself, one line says so', async () => {
    const ws = fs.realpathSync(makeTeamWorkspace(['alice']));
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init'], { cwd: ws });
    fs.writeFileSync(path.join(ws, '.thclaws', 'settings.json'), JSON.stringify({ provider: 'scripted', teamEnabled: true }));
    const home = tmp('stop-home-');
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: tmp('stop-rt-'), HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
    for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];
    const script = path.join(home, 'lead.json');
    fs.writeFileSync(script, JSON.stringify({ rules: [{ match: 'never said', turns: [{ text: 'OK' }] }], fallback: [{ text: 'OK' }] }));
    const c = await connectOrStartHost(ws, [THCLAWS, 'host', '--dir', ws, '--lead-script', script, '--idle-ms', '0'], { client: 'test', env, timeoutMs: 60_000 });
    cleanups.push(() => pidAlive(c.pid) && process.kill(c.pid, 'SIGKILL'));
    const events: HostEvent[] = [];
    c.onEvent((e) => events.push(e));
    c.send({ id: 1, type: 'member_start', name: 'alice' });
    const started = await waitFor(() => events.find((e) => e.type === 'reply' && e.id === 1), 'the reply to member_start');
    expect(started.type === 'reply' && !started.ok ? started.error : 'started').toBe('started');
    const store = TeamStore.forWorkspace(ws);
    await waitFor(async () => ['idle', 'working'].includes(deriveState(await store.statuses.read('alice'))), 'alice running in the host', 60_000);
    c.close();

    const r = await run(['team', 'host', '--stop', '--dir', ws], env);
    expect([r.code, r.out.trim()]).toEqual([0, `stopping the team of ${ws} (host pid ${c.pid}), each teammate asked first (up to 15 s) … stopped (stopped by thclaws host --stop; 1 of 1 teammates stopped by themselves)`]);
    expect((await store.statuses.read('alice'))?.status).toBe('stopped');
    expect(pidAlive(c.pid)).toBe(false);
  }, 180_000);

  it('thclaws host --stop --force stops at once and says so; --force alone is refused in one line', async () => {
    const ws = tmp('stop-force-');
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: tmp('stop-rt-') };
    const c = await connectOrStartHost(ws, [THCLAWS, 'host', '--dir', ws, '--no-lead', '--idle-ms', '0'], { client: 'test', env });
    cleanups.push(() => pidAlive(c.pid) && process.kill(c.pid, 'SIGKILL'));
    c.close();
    const bad = await run(['host', '--force', '--dir', ws], env);
    expect(bad.code).not.toBe(0);
    const t0 = Date.now();
    const r = await run(['host', '--stop', '--force', '--dir', ws], env);
    expect([r.code, r.out.trim()]).toEqual([0, `stopping the team of ${ws} (host pid ${c.pid}) at once … stopped (stopped by thclaws host --stop (at once))`]);
    expect(pidAlive(c.pid)).toBe(false);
    // At once: it returns when the host is gone, not after its 30 s wait for a process that never goes.
    expect(Date.now() - t0).toBeLessThan(15_000);
  }, 60_000);

  it('a view that comes while the team is stopping is told so (the page shows it stopped) and starts no host; a dashboard gets one clear error', async () => {
    const ws = tmp('stop-late-');
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: tmp('stop-rt-') };
    // Holds the host in its last step (its agents stopping) until the test has connected: a window that
    // a slow agent opens for real.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let inClose!: () => void;
    const closing = new Promise<void>((r) => (inClose = r));
    let closedWith: string | null = null;
    const daemon = await startHostDaemon({
      workspace: ws,
      env,
      log: () => {},
      onClosed: (reason) => (closedWith = reason),
      open: async (w) => {
        const m = await openHostManager(w, { startLead: false });
        const close = m.close.bind(m);
        m.close = async () => {
          inClose();
          await gate;
          return close();
        };
        return m;
      },
    });
    cleanups.push(release, () => daemon.close(), () => stopHost(ws, env, { force: true }));
    const first = await connectHost(ws, { client: 'test', env });
    first.send({ id: 1, type: 'host_stop' });
    await closing;

    const argv = [THCLAWS, 'host', '--dir', ws, '--no-lead', '--idle-ms', '0'];
    const target = { workspace: ws, argv, env };
    const views = new RemoteViews(target, { targetFor: () => target, demo: () => Promise.reject(new Error('no demo')) });
    const got: HostEvent[] = [];
    let ended = false;
    const view = views.connect((e) => got.push(readViewEvent(e)!), () => (ended = true));
    const told = await waitFor(() => got.find((e) => e.type === 'host_closed'), 'the view told that the team is stopping');
    expect(told).toEqual({ type: 'host_closed', reason: 'the team is stopping: the team was stopped from a dashboard' });
    await expect(connectOrStartHost(ws, argv, { client: 'test', env, timeoutMs: 10_000 })).rejects.toMatchObject({ code: HOST_STOPPING, message: expect.stringContaining('the team is stopping') });

    release();
    await waitFor(() => closedWith, 'the host closed');
    view.close();
    expect(ended).toBe(false);
    // Nobody started the team again behind the person's back.
    await expect(connectHost(ws, { client: 'test', env, timeoutMs: 5000 })).rejects.toMatchObject({ code: 'ENOENT' });
  }, 60_000);

  it('a client that gives up on the host it started, still starting, leaves no host behind', async () => {
    const ws = tmp('stop-slow-');
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: tmp('stop-rt-') };
    const dir = tmp('stop-slow-ctl-');
    const pidFile = path.join(dir, 'pid');
    const go = path.join(dir, 'go');
    // A host slow to start (a loaded machine, a cold disk): it starts only once the test says go, after the
    // client has given up. `exec` keeps the pid the client spawned.
    const argv = ['sh', '-c', `echo $$ > "${pidFile}"; while [ ! -e "${go}" ]; do sleep 0.05; done; exec "$@"`, 'sh', THCLAWS, 'host', '--dir', ws, '--no-lead', '--idle-ms', '0'];
    await expect(connectOrStartHost(ws, argv, { client: 'test', env, timeoutMs: 1000 })).rejects.toThrow();
    const pid = Number(await waitFor(() => fs.readFileSync(pidFile, 'utf8').trim(), 'the started pid'));
    cleanups.push(() => pidAlive(pid) && process.kill(pid, 'SIGKILL'));
    fs.writeFileSync(go, '');
    await waitFor(() => !pidAlive(pid), 'the host the client gave up on to be gone');
    await expect(connectHost(ws, { client: 'test', env, timeoutMs: 5000 })).rejects.toMatchObject({ code: 'ENOENT' });
  }, 60_000);

  it('`thclaws team host` is the workspace host under a deprecated name: one line on stderr says so, `thclaws host --stop` stops it', async () => {
    const ws = tmp('team-host-alias-');
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: tmp('stop-rt-') };
    const host = spawn(THCLAWS, ['team', 'host', '--dir', ws], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    cleanups.push(() => host.pid && pidAlive(host.pid) && host.kill('SIGKILL'));
    let out = '';
    let err = '';
    host.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    host.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise((r) => host.once('exit', r));
    await waitFor(() => out.includes('thclaws host ready'), 'the host ready');
    expect(err).toBe('thclaws: `thclaws team host` is deprecated; use `thclaws host --no-lead --idle-ms 0`\n');
    const r = await run(['host', '--stop', '--force', '--dir', ws], env);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/stopped/);
    expect(await exited).toBe(0);
  }, 60_000);
});
