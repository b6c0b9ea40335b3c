/**
 * A dead teammate's pid reused by an unrelated process: liveness says dead, and the lead's shutdown never
 * signals the stranger. The pid is forced through /proc/sys/kernel/ns_last_pid (root, Linux); elsewhere the
 * test skips.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deriveState, pidAlive } from '../../src/core/store/index.js';
import { LeadHandler } from '../../src/core/teams/lead-handler.js';
import { shutdownTeam } from '../../src/core/teams/shutdown.js';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import { cleanupsAfterEach, leadSession, teamWorkspace, writeScript } from './helpers.js';

const NS_LAST_PID = '/proc/sys/kernel/ns_last_pid';
const canForce = (() => {
  try {
    fs.accessSync(NS_LAST_PID, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
})();

const cleanups = cleanupsAfterEach();

/**
 * Starts `sleep` in its own session and process group at exactly `pid`: a shell loop sets the last pid and
 * forks until it lands (other processes on the machine race for pids). The stranger's pid, or null.
 */
function strangerAt(pid: number): number | null {
  const loop = `t=$1; i=0; while [ $i -lt 3000 ]; do i=$((i+1)); echo $((t-1)) > ${NS_LAST_PID}; setsid sleep 120 </dev/null >/dev/null 2>&1 & p=$!; if [ "$p" = "$t" ]; then echo "$p"; exit 0; fi; kill -9 "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; echo none`;
  const out = execFileSync('bash', ['-c', loop, 'place', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  return out === String(pid) ? pid : null;
}

/** Fields of /proc/<pid>/stat after the command name, read here independently of the code under test. */
function statFields(pid: number): string[] {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return [];
  }
}
/** Start time in clock ticks since boot (field 22). */
const processStart = (pid: number): string => statFields(pid)[19] ?? '';

/**
 * The stranger still runs: its pid alive with the start time it had, and not a zombie (it is reparented to
 * pid 1, which may be slow to reap it).
 */
const strangerAlive = (pid: number, start: string) => {
  const f = statFields(pid);
  return f[19] === start && f[0] !== 'Z' && f[0] !== 'X';
};

describe.skipIf(!canForce)('a recycled pid', () => {
  it('a stranger at the dead teammate\'s pid: alice reads dead, shutdown leaves the stranger alone and records no pid', async (ctx) => {
    const ws = teamWorkspace();
    const session = leadSession(ws, writeScript(ws, { rules: [{ turns: [{ text: 'ok' }] }] }));
    session.store.init();
    await session.store.config.create({ name: 't', members: [{ name: 'alice', role: '', prompt: '' }] });
    await session.becomeLead();
    const handler = new LeadHandler(session);
    let stranger: { pid: number; start: string } | null = null;
    cleanups.push(async () => {
      if (stranger && strangerAlive(stranger.pid, stranger.start)) process.kill(stranger.pid, 'SIGKILL');
      handler.stop();
      await session.close();
      ws.cleanup();
    });
    const o = await spawnTeammate(session, { name: 'alice' });
    const alicePid = o.pid!;
    expect((await session.store.statuses.read('alice'))?.pid).toBe(alicePid);
    process.kill(-alicePid, 'SIGKILL');
    await session.children.get('alice')!.exited;
    expect(pidAlive(alicePid)).toBe(false);

    const at = strangerAt(alicePid);
    if (!at) return ctx.skip(`could not place a process at pid ${alicePid} (other processes took it first)`);
    stranger = { pid: at, start: processStart(at) };

    const before = await session.store.statuses.read('alice');
    expect(Date.now() - before!.last_heartbeat).toBeLessThan(10_000);
    await shutdownTeam(session, handler, { graceMs: 500, force: true });
    await new Promise((r) => setTimeout(r, 300));
    expect(strangerAlive(stranger.pid, stranger.start)).toBe(true);
    // The heartbeat was fresh and the pid alive, but it is not alice's process: alice reads dead.
    expect(deriveState(before)).toBe('dead');
    const st = await session.store.statuses.read('alice');
    expect(deriveState(st)).not.toMatch(/idle|working|spawning|error/);
    // What the status names is alice's process (by its start time), never the stranger.
    if (st?.pid === stranger.pid) expect(st.pid_start).not.toBe(stranger.start);
    // Signalling the launcher's handle of the dead child reaches no one either.
    session.children.get('alice')!.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    expect(strangerAlive(stranger.pid, stranger.start)).toBe(true);
  }, 60_000);
});
