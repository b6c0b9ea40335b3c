/**
 * A teammate whose store is the lead's host (`THCLAWS_TEAM_VIA=host:<socket>`) and whose hello that host
 * refuses (the team is stopping): a real teammate process gives up, exits non-zero, and says the host's reason.
 * The host here is a socket that answers every hello as a stopping `thclaws host` does (host-daemon.ts `refuse`).
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { trustFolder } from '../../src/core/agent/trust.js';
import { ensureBuilt, runCli, scrubbedEnv, tempDir } from '../agent/helpers.js';

const REFUSAL = 'the team is stopping: "Stop the team and quit" from a dashboard';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A host socket that refuses every hello with REFUSAL and closes; counts the hellos it refused. */
async function stoppingHost(socket: string): Promise<{ hellos: () => number }> {
  let hellos = 0;
  const server = net.createServer((c) => {
    c.on('error', () => undefined);
    c.once('data', () => {
      hellos++;
      c.end(`${JSON.stringify({ type: 'refused', error: REFUSAL, code: 'stopping' })}\n`);
    });
  });
  await new Promise<void>((r) => server.listen(socket, r));
  cleanups.push(() => server.close());
  return { hellos: () => hellos };
}

describe("a teammate through the lead's host, refused at its hello", () => {
  it('exits non-zero and says why (the host is stopping), having backed off between tries', async () => {
    await ensureBuilt();
    const t = tempDir('thclaws-link-refused-');
    cleanups.push(t.cleanup);
    const home = path.join(t.dir, 'home');
    const proj = path.join(t.dir, 'proj');
    fs.mkdirSync(path.join(proj, '.thclaws'), { recursive: true });
    fs.mkdirSync(home);
    fs.writeFileSync(path.join(proj, '.thclaws', 'settings.json'), JSON.stringify({ teamEnabled: true, teammatePermissionMode: 'auto' }));
    fs.writeFileSync(path.join(t.dir, 'script.json'), JSON.stringify({ fallback: [{ text: 'ok' }] }));
    const env = scrubbedEnv(home, { XDG_CONFIG_HOME: path.join(home, '.config') });
    trustFolder(proj, env);
    const host = await stoppingHost(path.join(t.dir, 'host.sock'));

    // It gives up after the link's 15 s bound; one still trying at 45 s is a hang (code null).
    const r = await runCli(['--team-agent', 'alice', '--script', path.join(t.dir, 'script.json')], { cwd: proj, env: { ...env, THCLAWS_TEAM_VIA: `host:${path.join(t.dir, 'host.sock')}` }, timeoutMs: 45_000 });
    expect(r.code, `still running after 45 s; ${host.hellos()} hellos refused`).not.toBeNull();
    expect(r.code, r.stdout + r.stderr).not.toBe(0);
    // The host's own words reach the person, not only "could not be reached".
    expect(r.stdout + r.stderr).toContain(REFUSAL);
    // Retried with a backoff (50 ms doubling to 2 s over the 15 s bound): a handful of hellos, not a busy loop.
    expect(host.hellos()).toBeGreaterThan(1);
    expect(host.hellos()).toBeLessThan(30);
  }, 60_000);
});
