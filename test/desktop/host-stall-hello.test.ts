/**
 * A view saying hello to a host that is stopped (SIGSTOP), when that host does not simply run again: killed
 * while stopped, and the next host started in its place. The view must not say the killed pid "runs again"
 * (a person would `kill -CONT` or look for it); it says that pid is gone and which serves now.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectOrStartHost } from '../../src/main/daemon/host-client.js';
import { RemoteViews } from '../../src/main/daemon/remote-views.js';
import { hostReplacedText, hostRunsAgainText, hostStoppedText, leasePid } from '../../src/main/daemon/host-stall.js';
import { readViewEvent } from '../../src/main/daemon/view-event.js';
import type { HostEvent } from '../../src/contract/api.js';
import { pidAlive } from '../../src/core/store/holder.js';
import { THCLAWS, waitFor } from './helpers.js';

const tmp = (p: string) => fs.mkdtempSync(path.join(os.tmpdir(), p));
const kills: number[] = [];
afterAll(() => {
  for (const pid of kills) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
});

describe.runIf(process.platform === 'linux')('a host stopped during a view’s hello', () => {
  it('killed while stopped, the next host serves: the view never says the killed pid runs again, and says which serves now', async () => {
    const ws = tmp('stall-hello-');
    const env = { ...process.env, XDG_RUNTIME_DIR: tmp('stall-rt-') };
    const argv = [THCLAWS, 'host', '--dir', ws, '--no-lead', '--idle-ms', '0'];
    const c = await connectOrStartHost(ws, argv, { client: 'test', env });
    kills.push(c.pid);
    c.close();
    const views = new RemoteViews({ workspace: ws, argv, env }, { targetFor: () => ({ workspace: ws, argv, env }), demo: () => Promise.reject(new Error('no demo')) });
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
      kills.push(next);
      expect(next).not.toBe(c.pid);
      // The "stopped" is answered with what happened (the page closes its notice on it: src/renderer/store/notices.test.ts).
      await waitFor(() => notices().includes(hostReplacedText(c.pid, next)) || null, 'the notice that another host serves now', 5_000);
      expect(notices()).not.toContain(hostRunsAgainText(c.pid));
    } finally {
      view.close();
    }
  }, 60_000);

  it('continued (SIGCONT) before the hello times out: the view says it runs again once, and the view is served', async () => {
    const ws = tmp('stall-cont-');
    const env = { ...process.env, XDG_RUNTIME_DIR: tmp('stall-rt-') };
    const argv = [THCLAWS, 'host', '--dir', ws, '--no-lead', '--idle-ms', '0'];
    const c = await connectOrStartHost(ws, argv, { client: 'test', env });
    kills.push(c.pid);
    c.close();
    const views = new RemoteViews({ workspace: ws, argv, env }, { targetFor: () => ({ workspace: ws, argv, env }), demo: () => Promise.reject(new Error('no demo')) });
    const events: HostEvent[] = [];
    const notices = () => events.flatMap((e) => (e.type === 'notice' ? [e.text] : []));
    process.kill(c.pid, 'SIGSTOP');
    const view = views.connect((e) => events.push(readViewEvent(e)!));
    try {
      await view.handle({ id: 1, type: 'subscribe' });
      await waitFor(() => notices().includes(hostStoppedText(c.pid)) || null, 'the notice that the host is stopped', 5_000);
      process.kill(c.pid, 'SIGCONT');
      await waitFor(() => events.some((e) => e.type === 'workspace') || null, 'the workspace from the continued host', 10_000);
      await waitFor(() => notices().includes(hostRunsAgainText(c.pid)) || null, 'the notice that it runs again', 5_000);
      // Said once: the lease watch and the answered hello do not both say it.
      expect(notices().filter((t) => t === hostRunsAgainText(c.pid))).toHaveLength(1);
      expect(notices().some((t) => /did not answer/.test(t))).toBe(false);
    } finally {
      view.close();
    }
  }, 60_000);
});
