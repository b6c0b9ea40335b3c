/**
 * "Try the demo team here (no key)" from a dashboard starts a host for a throw-away demo workspace. Real
 * processes: `thclaws dashboard` (a client), its page's request over the WebSocket, the demo's host with its
 * scripted lead. Once the dashboard is gone no view is left and no one can come back to that folder: the demo's
 * host exits by itself (its agents with it) instead of running on.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { LEAD, TeamStore } from '../../src/core/store/index.js';
import { connectHost } from '../../src/main/daemon/host-client.js';
import { hostPaths } from '../../src/main/daemon/runtime-dir.js';
import { dashboardReady, THCLAWS, waitFor } from './helpers.js';
import { TermView } from './term-view.js';
import { pidAlive } from '../../src/core/store/holder.js';

const execFileP = promisify(execFile);
describe('a demo opened from a dashboard does not outlive it', () => {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-demohost-ws-'));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-demohost-home-'));
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-demohost-rt-')) };
  for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];
  let dash: ChildProcess | undefined;
  const pids: number[] = [];
  let demoWs: string | undefined;

  afterAll(async () => {
    if (dash?.exitCode === null) dash.kill('SIGKILL');
    for (const d of [ws, demoWs]) if (d) await execFileP(THCLAWS, ['host', '--stop', '--dir', d], { env }).catch(() => undefined);
    for (const pid of pids) if (pidAlive(pid)) process.kill(pid, 'SIGKILL');
  }, 60_000);

  it("the demo's host exits once the dashboard that opened it is closed; its lead with it", async () => {
    dash = spawn(THCLAWS, ['dashboard', '--dir', ws, '--port', '0'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    const { url, hostPid } = await dashboardReady(dash, { hostPid: true });
    pids.push(hostPid);
    const view = await TermView.overWebSocket(url);
    const started = await view.request({ type: 'demo_start' });
    expect(started).toMatchObject({ ok: true });
    demoWs = started.result as string;
    expect(demoWs).not.toBe(fs.realpathSync(ws));
    // The demo's host runs, with the scripted lead.
    const probe = await connectHost(demoWs, { client: 'test', env });
    const demoHost = probe.pid;
    probe.close();
    pids.push(demoHost);
    const lead = await waitFor(async () => (await TeamStore.forWorkspace(demoWs!).statuses.read(LEAD).catch(() => null))?.pid, 'the demo lead running', 90_000);
    expect(pidAlive(demoHost)).toBe(true);

    view.close();
    dash.kill('SIGTERM');
    await new Promise((r) => dash!.once('exit', r));
    await waitFor(() => !pidAlive(demoHost), "the demo's host gone", 120_000);
    expect(pidAlive(lead)).toBe(false);
    // It said why; its socket is gone.
    expect(fs.existsSync(hostPaths(demoWs, env).socket)).toBe(false);
    // The workspace the person opened keeps its host: only the throw-away demo ends.
    expect(pidAlive(pids[0]!)).toBe(true);
  }, 300_000);
});
