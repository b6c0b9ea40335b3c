/**
 * A stopped workspace host (SIGSTOP) that never runs again: killed, and no new host can start. The view says the
 * stopped pid is gone (the page closes its "is stopped … kill -CONT" notice on it: src/renderer/store/notices.test.ts),
 * never that it runs again; and a view whose first link failed watches no lease any more.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectOrStartHost } from '../../src/main/daemon/host-client.js';
import { hostGoneText, hostRunsAgainText, hostStoppedText, isStopped } from '../../src/main/daemon/host-stall.js';
import { readViewEvent } from '../../src/main/daemon/view-event.js';
import type { HostEvent } from '../../src/contract/api.js';
import { pidAlive } from '../../src/core/store/holder.js';
import { THCLAWS, waitFor } from './helpers.js';
import { hostAndViews, tmp, viewsOf } from './host-views.js';

const stops: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const s of stops) await s().catch(() => {});
});

/** A view's events, and the texts of its notices. */
function viewLog() {
  const events: HostEvent[] = [];
  return { events, push: (e: unknown) => void events.push(readViewEvent(e as string)!), notices: () => events.flatMap((e) => (e.type === 'notice' ? [e.text] : [])) };
}

/** What the page closes its "is stopped" notice on (src/renderer/store/ui-slice.ts, endsCause), for this pid. */
const closesStopped = (pid: number) => new RegExp(`^the workspace host \\(pid ${pid}\\) is gone`);

describe.runIf(process.platform === 'linux')('a stopped host that never runs again', () => {
  it('killed while it served the view: the view says the stopped pid is gone (not "stopped", not "runs again") and is ended', async () => {
    const { c, views } = await hostAndViews('gone-bound-', stops);
    const log = viewLog();
    let ended = false;
    const view = views.connect(log.push, () => (ended = true));
    try {
      await view.handle({ id: 1, type: 'subscribe' });
      await waitFor(() => log.events.some((e) => e.type === 'workspace') || null, 'the workspace from the host');
      process.kill(c.pid, 'SIGSTOP');
      await waitFor(() => log.notices().includes(hostStoppedText(c.pid)) || null, 'the notice that the host is stopped', 5_000);
      process.kill(c.pid, 'SIGKILL');
      await waitFor(() => log.notices().includes(hostGoneText(c.pid)) || null, 'the notice that the stopped host is gone', 10_000);
      await waitFor(() => ended || null, 'the view ended (the page reconnects)', 5_000);
      expect(log.notices()).not.toContain(hostRunsAgainText(c.pid));
      // The notice the page closes "stopped" (kill -CONT of a dead pid) on; never "the connection closed" beside it.
      expect(log.notices().filter((t) => /workspace host/.test(t))).toEqual([hostStoppedText(c.pid), expect.stringMatching(closesStopped(c.pid))]);
    } finally {
      view.close();
    }
  }, 60_000);

  it('killed while the view said hello, and no new host can start: the view says the stopped pid is gone beside "cannot reach"', async () => {
    const { c, ws, env } = await hostAndViews('gone-hello-', stops);
    // Every host this view starts exits at once (as one that cannot start does); the first one runs, stopped.
    const views = viewsOf(ws, ['/bin/false'], env);
    const log = viewLog();
    process.kill(c.pid, 'SIGSTOP');
    const view = views.connect(log.push);
    try {
      await waitFor(() => log.notices().includes(hostStoppedText(c.pid)) || null, 'the notice that the host is stopped', 5_000);
      process.kill(c.pid, 'SIGKILL');
      await waitFor(() => !pidAlive(c.pid) || null, 'the stopped host gone');
      // The hello's retries start hosts until their deadline (30 s from the hello), then give up.
      await waitFor(() => log.notices().some((t) => t.startsWith('cannot reach the workspace host: the host exited (code 1)')) || null, '"cannot reach"', 40_000);
      expect(log.notices()).toContain(hostGoneText(c.pid));
      expect(log.notices()).not.toContain(hostRunsAgainText(c.pid));
      expect(log.notices()).toEqual(expect.arrayContaining([expect.stringMatching(closesStopped(c.pid))]));
    } finally {
      view.close();
    }
  }, 60_000);

  it('a view whose first link failed (the folder is not there) watches no lease: a host started there later and stopped is not said to it', async () => {
    const ws = path.join(tmp('gone-late-'), 'ws');
    const env = { ...process.env, XDG_RUNTIME_DIR: tmp('hard-rt-') };
    const argv = [THCLAWS, 'host', '--dir', ws, '--no-lead', '--idle-ms', '0'];
    const views = viewsOf(ws, argv, env);
    const failed = viewLog();
    const view = views.connect(failed.push);
    await waitFor(() => failed.notices().some((t) => t.startsWith('cannot reach the workspace host: ENOENT')) || null, '"cannot reach" for a missing folder');
    fs.mkdirSync(ws);
    const c = await connectOrStartHost(ws, argv, { client: 'test', env });
    stops.push(async () => process.kill(c.pid, 'SIGKILL'));
    c.close();
    process.kill(c.pid, 'SIGSTOP');
    const control = viewLog();
    let watching;
    try {
      await waitFor(() => isStopped(c.pid) || null, 'the host stopped');
      // A view saying hello now watches the lease: it says the stop at its first tick (1 s). A watch started
      // earlier with the same period ticks (in order of due time) before that, so it would have said it by then.
      watching = views.connect(control.push);
      await waitFor(() => control.notices().includes(hostStoppedText(c.pid)) || null, 'the stop said to a view saying hello', 5_000);
      expect(failed.notices().filter((t) => /is stopped|runs again|is gone/.test(t))).toEqual([]);
    } finally {
      process.kill(c.pid, 'SIGCONT');
      watching?.close();
      view.close();
    }
  }, 60_000);
});
