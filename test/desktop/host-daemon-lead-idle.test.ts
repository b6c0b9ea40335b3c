/**
 * A workspace host whose only live agent is its lead, with no dashboard attached, is not idle: the person closed
 * the window, not the team. It stays up past its idle timeout with the lead running; once the lead is gone, the
 * same timeout ends it. (With --no-lead, host-daemon.test.ts: no agent, it exits.) Real `thclaws host`, a real
 * lead on the scripted provider in the host's pty.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LEAD } from '../../src/core/store/names.js';
import { pidAlive } from '../../src/core/store/holder.js';
import { connectOrStartHost } from '../../src/main/daemon/host-client.js';
import type { HostEvent } from '../../src/contract/api.js';
import { makeTeamWorkspace, shownMember, THCLAWS, waitFor } from './helpers.js';

const tmp = (p: string) => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), p)));
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const c of cleanups) await Promise.resolve().then(c).catch(() => {});
});

describe.runIf(process.platform === 'linux')('the host with only its lead and no client', () => {
  it('stays up past its idle timeout with the lead alive; once the lead is gone it exits by itself', async () => {
    const ws = fs.realpathSync(makeTeamWorkspace(['alice']));
    cleanups.push(() => fs.rmSync(ws, { recursive: true, force: true }));
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init'], { cwd: ws });
    fs.writeFileSync(path.join(ws, '.thclaws', 'settings.json'), JSON.stringify({ provider: 'scripted', teamEnabled: true }));
    const home = tmp('lead-idle-home-');
    const runtime = tmp('lead-idle-rt-');
    cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }), () => fs.rmSync(runtime, { recursive: true, force: true }));
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: runtime, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
    for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];
    const script = path.join(home, 'lead.json');
    fs.writeFileSync(script, JSON.stringify({ rules: [{ match: 'never said', turns: [{ text: 'OK' }] }], fallback: [{ text: 'OK' }] }));
    const idleMs = 300;
    const c = await connectOrStartHost(ws, [THCLAWS, 'host', '--dir', ws, '--lead-script', script, '--idle-ms', String(idleMs)], { client: 'test', env, timeoutMs: 60_000 });
    cleanups.push(() => pidAlive(c.pid) && process.kill(c.pid, 'SIGKILL'));
    const events: HostEvent[] = [];
    c.onEvent((e) => events.push(e));
    const lead = await waitFor(() => {
      const t = shownMember(events, LEAD)?.terminal;
      return t?.kind === 'pty' ? t.pid : null;
    }, 'the lead running in a pty of the host', 60_000);
    cleanups.push(() => pidAlive(lead) && process.kill(lead, 'SIGKILL'));
    c.close();

    // Ten idle timeouts with no client: the host and its lead live through every check of the idle timer.
    const until = Date.now() + 10 * idleMs;
    while (Date.now() < until) {
      expect({ host: pidAlive(c.pid), lead: pidAlive(lead) }).toEqual({ host: true, lead: true });
      await new Promise((r) => setTimeout(r, 50));
    }

    // The timer was armed all along: with the lead gone and still no client, the host ends itself.
    process.kill(lead, 'SIGKILL');
    await waitFor(() => !pidAlive(c.pid), 'the host to exit once its lead is gone', 20_000);
  }, 120_000);
});
