/** Host mode: spawn requests are served exactly once per spawn id, even with two hosts watching one team. */
import { lockPathFor } from '../../src/core/store/lock-layout.js';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LeadHandler } from '../../src/core/teams/lead-handler.js';
import { PtyLauncher } from '../../src/core/teams/launchers/pty.js';
import { serveSpawnRequests, type SpawnServeEvent } from '../../src/core/teams/serve-spawn-requests.js';
import { shutdownTeam } from '../../src/core/teams/shutdown.js';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import { TeamStore } from '../../src/core/store/index.js';
import { setLockWaitReporter } from '../../src/core/store/lock.js';
import { startWorker } from '../team/helpers.js';
import { cleanupsAfterEach, leadSession, teamWorkspace, waitFor, writeScript } from './helpers.js';

const cleanups = cleanupsAfterEach();

describe('serveSpawnRequests', () => {
  it('two hosts, three spawns: each launched exactly once, by one host, and each boots', async () => {
    const ws = teamWorkspace({ teammateMode: 'host' });
    const session = leadSession(ws, writeScript(ws, { rules: [{ turns: [{ text: 'ok' }] }] }), { teammateMode: 'host' });
    session.store.init();
    await session.store.config.create({ name: 't', members: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] });
    await session.becomeLead();
    const events: Array<SpawnServeEvent & { host: string }> = [];
    const hosts = ['h1', 'h2'].map((h) => {
      // Each host has its own store object, as two processes would.
      const store = new TeamStore(session.store.dir);
      const launcher = new PtyLauncher(store);
      const server = serveSpawnRequests(store, launcher, { by: h, onEvent: (e) => events.push({ ...e, host: h }) });
      return { server, launcher };
    });
    cleanups.push(async () => {
      await shutdownTeam(session, new LeadHandler(session), { graceMs: 1000, force: true }).catch(() => {});
      for (const h of hosts) {
        h.server.close();
        await h.launcher.dispose();
      }
      await session.close();
      ws.cleanup();
    });
    const outcomes = await Promise.all(['a', 'b', 'c'].map((name) => spawnTeammate(session, { name })));
    for (const o of outcomes) expect(o.mode).toBe('host');
    const launched = events.filter((e) => e.kind === 'launched');
    expect(launched.map((e) => e.agent).sort()).toEqual(['a', 'b', 'c']);
    for (const name of ['a', 'b', 'c']) {
      const req = await session.store.spawnRequests.read(name);
      expect(req?.served_by).toBe(launched.find((e) => e.agent === name)!.host);
      // The host runs each teammate under the tail-safe pty wrapper: the served pid is the teammate's parent.
      expect((await session.store.statuses.read(name))?.parent_pid).toBe(req?.served_pid);
    }
    // A rescan of both hosts launches nothing more.
    for (const h of hosts) await h.server.scan();
    expect(events.filter((e) => e.kind === 'launched')).toHaveLength(3);
  }, 60_000);

  it('a corrupt spawn.json is quarantined, never launched, and the host keeps serving', async () => {
    const ws = teamWorkspace({ teammateMode: 'host' });
    const store = new TeamStore(`${ws.dir}/.thclaws/state/team`);
    store.init();
    await store.config.create({ name: 't', members: [{ name: 'a' }] });
    fs.mkdirSync(store.paths.agentDir('a'), { recursive: true });
    fs.writeFileSync(store.spawnRequests.file('a'), '{"spawn_id": "x", "argv": ["/bin/sh", "-c", "touch /tmp/pwned"');
    const launcher = new PtyLauncher(store);
    const events: SpawnServeEvent[] = [];
    const server = serveSpawnRequests(store, launcher, { onEvent: (e) => events.push(e) });
    cleanups.push(async () => {
      server.close();
      await launcher.dispose();
      ws.cleanup();
    });
    await waitFor(() => store.journal.read().some((j) => j.event === 'quarantined'), 'the bad request quarantined');
    expect(fs.existsSync(store.spawnRequests.file('a'))).toBe(false);
    expect(events).toEqual([]);
  }, 30_000);

  it('claiming a request is exclusive: of 8 concurrent claimers exactly one wins', async () => {
    const ws = teamWorkspace();
    cleanups.push(() => ws.cleanup());
    const dir = `${ws.dir}/.thclaws/state/team`;
    const store = new TeamStore(dir);
    store.init();
    await store.config.create({ name: 't', members: [{ name: 'a' }] });
    await store.spawnRequests.write({ spawn_id: 's1', agent: 'a', argv: ['node'], cwd: ws.dir, env: {}, team_dir: dir, requested_at: Date.now() });
    const wins = await Promise.all(Array.from({ length: 8 }, (_, i) => new TeamStore(dir).spawnRequests.claim('a', 's1', `h${i}`)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    expect(await store.spawnRequests.claim('a', 'other-id', 'late')).toBe(false);
  });

  it('a host that read a request another host is claiming right now does not launch it (the other host stopped inside its claim)', async () => {
    const ws = teamWorkspace();
    const dir = `${ws.dir}/.thclaws/state/team`;
    const store = new TeamStore(dir);
    store.init();
    await store.config.create({ name: 't', members: [{ name: 'a' }] });
    await store.spawnRequests.write({ spawn_id: 's1', agent: 'a', argv: ['sleep', '30'], cwd: ws.dir, env: {}, team_dir: dir, requested_at: Date.now() });
    // The other host: a real process that stops itself inside the claim, after reading the request unserved.
    const other = startWorker('serve-once', dir, 'a', 's1', store.spawnRequests.file('a'));
    expect(await other.nextLine()).toMatchObject({ stalled: true });
    const waits: string[] = [];
    setLockWaitReporter((lockPath) => waits.push(lockPath));
    const launcher = new PtyLauncher(store);
    const events: SpawnServeEvent[] = [];
    const server = serveSpawnRequests(store, launcher, { by: 'this-host', onEvent: (e) => events.push(e) });
    cleanups.push(async () => {
      server.close();
      await launcher.dispose();
      ws.cleanup();
    });
    // This host read the request unserved and now waits in its own claim for the stopped one.
    await waitFor(() => waits.includes(lockPathFor(store.spawnRequests.file('a'))), 'this host to wait for the other host\'s claim');
    other.child.kill('SIGCONT');
    expect(await other.nextLine()).toEqual({ ok: true, served: true });
    await other.done();
    await server.scan();
    expect(events).toEqual([]);
    expect((await store.spawnRequests.read('a'))?.served_by).toBe(`host pid ${other.child.pid}`);
  }, 60_000);
});

