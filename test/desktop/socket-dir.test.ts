/**
 * The host listens again when its socket file is removed (checked every `socketCheckMs`). A directory made at
 * that path meanwhile must not end the host (an exception in its timer would, and every agent with it): it says
 * what to do once, and listens again once the directory is gone. Real host daemon and Unix socket.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectHost } from '../../src/main/daemon/host-client.js';
import { startHostDaemon, type HostDaemon } from '../../src/main/daemon/host-daemon.js';
import { openHostManager } from '../../src/main/daemon/open-host.js';
import { waitFor } from './helpers.js';

describe("a directory at the host's socket path", () => {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'sockdir-ws-'));
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'sockdir-rt-')) };
  let daemon: HostDaemon | null = null;
  afterAll(async () => {
    await daemon?.close('test over');
  });

  it('is reported once; the host keeps running and listens again once it is removed', async () => {
    const lines: string[] = [];
    daemon = await startHostDaemon({ workspace: ws, env, socketCheckMs: 50, open: (w) => openHostManager(w, { startLead: false }), log: (l) => void lines.push(l) });
    const sock = daemon.paths.socket;
    fs.rmSync(sock);
    fs.mkdirSync(sock);
    await waitFor(() => lines.find((l) => l.includes('is a directory where the host')), 'the host saying so');
    // Several more checks with the directory there: still one line, still running.
    await new Promise((r) => setTimeout(r, 500)); // about ten more checks
    fs.rmdirSync(sock);
    await waitFor(() => fs.lstatSync(sock, { throwIfNoEntry: false })?.isSocket(), 'the socket made again');
    const c = await connectHost(ws, { client: 'test', env });
    expect(c.pid).toBe(process.pid);
    c.close();
    expect(lines.filter((l) => l.includes('is a directory where the host'))).toHaveLength(1);
  }, 60_000);
});
