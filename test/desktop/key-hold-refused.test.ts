/**
 * `key_hold` (the desktop app's decrypted key handed to the host in memory) is Electron main's own message: a
 * page — of an in-process dashboard, or forwarded to the host by `thclaws dashboard` or by main itself — and any
 * socket client that is not Electron's main is refused, so none can swap the key the agents spend (or get round
 * the refusal to replace the desktop's encrypted key). Real host daemon on a real Unix socket.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectHost, type HostConnection } from '../../src/main/daemon/host-client.js';
import { startHostDaemon, type HostDaemon } from '../../src/main/daemon/host-daemon.js';
import { openHostManager } from '../../src/main/daemon/open-host.js';
import { RemoteViews } from '../../src/main/daemon/remote-views.js';
import { readViewEvent } from '../../src/main/daemon/view-event.js';
import type { HostEvent } from '../../src/contract/api.js';
import { waitFor } from './helpers.js';

const KEY = 'sk-ant-api03-PageInjected0123456789abcdefghij_-PgKy';
const tmp = (p: string) => fs.mkdtempSync(path.join(os.tmpdir(), p));
type Reply = Extract<HostEvent, { type: 'reply' }>;

describe('key_hold is refused from anything but the desktop app', () => {
  const ws = tmp('keyhold-ws-');
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: tmp('keyhold-rt-') };
  const priorKey = process.env.ANTHROPIC_API_KEY;
  const priorToken = process.env.ANTHROPIC_AUTH_TOKEN;
  // No key from this process's environment or the person's config dir: the host starts with none.
  delete process.env.ANTHROPIC_API_KEY;
  delete process.env.ANTHROPIC_AUTH_TOKEN;
  const config = tmp('keyhold-config-');
  let daemon: HostDaemon | null = null;
  const conns: HostConnection[] = [];

  afterAll(async () => {
    for (const c of conns) c.close();
    await daemon?.close('test over');
    // The accepted hold below sets this (the daemon runs in this process).
    delete process.env.ANTHROPIC_API_KEY;
    if (priorKey !== undefined) process.env.ANTHROPIC_API_KEY = priorKey;
    if (priorToken !== undefined) process.env.ANTHROPIC_AUTH_TOKEN = priorToken;
  });

  const ask = async (c: HostConnection, id: number, body: Record<string, unknown>): Promise<Reply> => {
    const replies: Reply[] = [];
    c.onEvent((e) => void (e.type === 'reply' && e.id === id && replies.push(e)));
    c.send({ id, ...body });
    return waitFor(() => replies[0], `the reply to ${String(body.type)}`);
  };

  it("the live demo's host takes no key, not even the desktop app's: its agents run on the scripted provider", async () => {
    const demoWs = tmp('keyhold-demo-');
    const demo = await startHostDaemon({ workspace: demoWs, env, open: (w) => openHostManager(w, { startLead: false, extra: { demo: true, env: { XDG_CONFIG_HOME: config } } }), log: () => {} });
    try {
      const main = await connectHost(demoWs, { client: 'electron', env });
      conns.push(main);
      expect(await ask(main, 9, { type: 'key_hold', key: KEY })).toMatchObject({ ok: true, result: { last4: null } });
      expect(demo.manager.host.setup.view().key).toBeNull();
      expect(process.env.ANTHROPIC_API_KEY).toBeUndefined();
    } finally {
      await demo.close('test over');
    }
  }, 60_000);

  it('a page of the in-process dashboard, a dashboard client, a page forwarded by main: refused; main itself: held', async () => {
    daemon = await startHostDaemon({ workspace: ws, env, open: (w) => openHostManager(w, { startLead: false, extra: { env: { XDG_CONFIG_HOME: config } } }), log: () => {} });

    // In-process: the page's requests go straight to the host's session.
    const inProcess: HostEvent[] = [];
    const view = daemon.manager.connect((e) => inProcess.push(e));
    await view.handle({ id: 1, type: 'key_hold', key: KEY });
    expect(inProcess.find((e) => e.type === 'reply' && e.id === 1)).toMatchObject({ ok: false, error: expect.stringMatching(/desktop app's own message/) });
    view.close();

    // `thclaws dashboard` as a host client: a page's request reaches the host on a 'dashboard' connection.
    const dash = await connectHost(ws, { client: 'dashboard', env });
    conns.push(dash);
    expect(await ask(dash, 2, { type: 'key_hold', key: KEY })).toMatchObject({ ok: false, error: expect.stringMatching(/desktop app's own message/) });

    // A page served by RemoteViews (the web server's, or Electron main's own): refused there, before any host hears it.
    const pageEvents: HostEvent[] = [];
    const page = new RemoteViews({ workspace: ws, argv: ['/bin/false'], env }, { targetFor: () => { throw new Error('no'); }, demo: () => Promise.reject(new Error('no')), client: 'electron' }).connect((e) => pageEvents.push(readViewEvent(e)!));
    await page.handle({ id: 3, type: 'key_hold', key: KEY });
    expect(await waitFor(() => pageEvents.find((e): e is Reply => e.type === 'reply' && e.id === 3), 'the reply to the page')).toMatchObject({ ok: false, error: expect.stringMatching(/desktop app's own message/) });
    page.close();

    // No refusal above held anything: the host still has no key.
    expect(daemon.manager.host.setup.view().key).toBeNull();

    // Electron's main (its hello says so) hands the key over: held, its last 4 only.
    const main = await connectHost(ws, { client: 'electron', env });
    conns.push(main);
    expect(await ask(main, 4, { type: 'key_hold', key: KEY })).toMatchObject({ ok: true, result: { last4: 'PgKy' } });
  }, 60_000);
});
