/**
 * "Stop the team" asked twice (two pages, or a page reloaded during the grace that offers the button again):
 * one round of shutdown requests, one grace, one exit. Real host daemon on a Unix socket, a real pty teammate
 * that does not stop by itself (so the grace runs out while the second request comes).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectHost, type HostConnection } from '../../src/main/daemon/host-client.js';
import { startHostDaemon, type HostDaemon } from '../../src/main/daemon/host-daemon.js';
import { openHostManager } from '../../src/main/daemon/open-host.js';
import type { HostEvent } from '../../src/contract/api.js';
import { TeamStore } from '../../src/core/store/index.js';
import { makeTeamWorkspace, waitFor } from './helpers.js';

type Reply = Extract<HostEvent, { type: 'reply' }>;

describe('Stop the team asked twice', () => {
  const ws = fs.realpathSync(makeTeamWorkspace(['alice']));
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'stop2-rt-')) };
  let daemon: HostDaemon | null = null;
  const conns: HostConnection[] = [];
  afterAll(async () => {
    for (const c of conns) c.close();
    await daemon?.close('test over');
  });

  it('the second request is answered, and no second round of shutdown requests goes out', async () => {
    const lines: string[] = [];
    let closedWith: string | null = null;
    daemon = await startHostDaemon({
      workspace: ws,
      env,
      stopGraceMs: 3_000,
      open: (w) => openHostManager(w, { startLead: false }),
      log: (l) => void lines.push(l),
      onClosed: (reason) => void (closedWith = reason),
    });
    // A teammate that never reads its inbox: still live when the second page asks.
    await daemon.manager.host.spawn('alice', ['sleep', '600']);
    await waitFor(() => daemon!.manager.host.launcher.live().some((t) => t.agent === 'alice'), 'alice running in a pty');

    // Both pages are connected before the first stop: once a stop has begun, a new client is refused (stopping).
    const first = await connectHost(ws, { client: 'dashboard', env });
    const second = await connectHost(ws, { client: 'dashboard', env });
    conns.push(first, second);
    const ask = async (c: HostConnection, id: number): Promise<Reply> => {
      const replies: Reply[] = [];
      c.onEvent((e) => void (e.type === 'reply' && e.id === id && replies.push(e)));
      c.send({ id, type: 'host_stop' });
      return waitFor(() => replies[0], `page ${id}'s reply`);
    };
    expect(await ask(first, 1)).toMatchObject({ ok: true });
    expect(await ask(second, 2)).toMatchObject({ ok: true });
    await waitFor(() => closedWith, 'the host closed', 60_000);

    const store = TeamStore.forWorkspace(ws);
    const shutdowns = store.inboxes.list('alice').filter((m) => m.type === 'shutdown_request');
    expect(shutdowns).toHaveLength(1);
    expect(lines.filter((l) => l.includes('asked by a client'))).toHaveLength(1);
    expect(closedWith).toMatch(/the team was stopped from a dashboard; 0 of 1 teammates stopped by themselves/);
  }, 90_000);
});
