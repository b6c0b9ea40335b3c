/**
 * A host started with `exitUnusedMs` (a demo a dashboard opened) exits that long after its last client LEFT:
 * a page reloaded within the grace finds it. Real host daemon and Unix socket; the daemon's checks run on a
 * fake clock (setInterval and Date only), so when the last client leaves relative to a check is chosen, not hoped for.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { connectHost } from '../../src/main/daemon/host-client.js';
import { startHostDaemon, type HostDaemon } from '../../src/main/daemon/host-daemon.js';
import { openHostManager } from '../../src/main/daemon/open-host.js';
import { waitFor } from './helpers.js';

const UNUSED = 4_000; // the daemon checks every UNUSED / 4

describe('exit when unused', () => {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'unused-ws-'));
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'unused-rt-')) };
  let daemon: HostDaemon | null = null;
  afterAll(async () => {
    vi.useRealTimers();
    await daemon?.close('test over');
  });

  it('counts the grace from the moment the last client left, not from the last check that saw it', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const lines: string[] = [];
    let closed = false;
    daemon = await startHostDaemon({ workspace: ws, env, exitUnusedMs: UNUSED, open: (w) => openHostManager(w, { startLead: false }), log: (l) => void lines.push(l), onClosed: () => void (closed = true) });
    const exiting = () => lines.some((l) => l.startsWith('exiting'));

    const c = await connectHost(ws, { client: 'test', env });
    await waitFor(() => daemon!.clients() === 1, 'the client counted');
    vi.advanceTimersByTime(1_000); // a check sees the client
    vi.advanceTimersByTime(900); // no check in between: the next is at 2 000
    c.close();
    await waitFor(() => daemon!.clients() === 0, 'the client gone');
    // 3 900 ms after it left (4 900 after the check that last saw it): within the grace.
    vi.advanceTimersByTime(UNUSED - 100);
    expect(exiting(), lines.join('\n')).toBe(false);
    // Past the grace: the next check ends the host.
    vi.advanceTimersByTime(1_000);
    expect(lines.filter((l) => l.startsWith('exiting'))).toEqual(['exiting: no client for 4 s (a throw-away demo)']);
    await waitFor(() => closed, 'the host closed');
  }, 60_000);
});
