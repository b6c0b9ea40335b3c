/**
 * Nothing a teammate ran keeps running after the teammate is gone. A Bash command that writes into the
 * worktree every 200 ms is running when the teammate is told to end — SIGHUP (its terminal closed), SIGTERM,
 * its host SIGKILLed (the pty hung up), or with the command inside the OS sandbox (bubblewrap): every process
 * of the command is gone, the file stops growing, and the status reads `stopped`, not `working`. A teammate
 * that could not catch its end (SIGKILL) leaves its command running; its next process ends it before working.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { userSettingsPath } from '../../src/core/agent/settings.js';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import type { TeamSession } from '../../src/core/teams/session.js';
import { pidAlive } from '../../src/core/store/index.js';
import { BIN, scrubbedEnv } from '../agent/helpers.js';
import { leadTeam, marked } from './lead-team.js';
import { cleanupsAfterEach, teamWorkspace, waitFor, writeScript, type Ws } from './helpers.js';

const cleanups = cleanupsAfterEach();
const hasBwrap = fs.existsSync('/usr/bin/bwrap');
let n = 0;


interface Ghost {
  ws: Ws;
  session: TeamSession;
  marker: string;
  ticks: string;
  /** The teammate process (its pid from its status). */
  pid: number;
}

/** alice (worktree) runs a loop that appends to ticks.txt every 200 ms; resolves once it is writing. */
async function ghostTeam(opts: { sandbox: 'off' | 'required'; mode?: 'background' | 'host'; beforeSpawn?: (ws: Ws) => Promise<void> }): Promise<Ghost> {
  const ws = teamWorkspace(opts.mode === 'host' ? { teammateMode: 'host' } : {});
  // The teammate reads its user settings under the XDG_CONFIG_HOME it is given (else this process's, not ws.home's).
  const env = { HOME: ws.home, XDG_CONFIG_HOME: path.join(ws.home, '.config'), THCLAWS_TEST: '1' };
  const user = userSettingsPath(env);
  fs.mkdirSync(path.dirname(user), { recursive: true });
  fs.writeFileSync(user, JSON.stringify({ sandbox: opts.sandbox }));
  // The marker is the sleep's argument: unique per test, so the processes found are this test's only.
  const marker = `0.2${process.pid}${++n}`;
  const loop = `while :; do echo tick >> ticks.txt; sleep ${marker}; done`;
  const script = { rules: [{ match: 'Task #1 —', turns: [{ text: 'looping', tool_calls: [{ name: 'Bash', input: { command: loop, timeout: 600000 } }] }, { text: 'end' }] }], fallback: [{ text: 'ok' }] };
  const { session } = await leadTeam(ws, script, [{ name: 'alice', isolation: 'worktree' }], cleanups, { childEnv: env, ...(opts.mode === 'host' ? { teammateMode: 'host' } : {}) });
  cleanups.push(() => {
    for (const pid of marked(marker)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
  });
  await opts.beforeSpawn?.(ws);
  await session.store.tasks.create({ subject: 'Loop', description: 'x', reservedFor: 'alice' });
  await spawnTeammate(session, { name: 'alice' });
  const ticks = path.join(ws.dir, '.worktrees', 'alice', 'ticks.txt');
  await waitFor(() => fs.existsSync(ticks) && marked(marker).length > 0, 'the command to write ticks.txt', 60_000);
  const st = await session.store.statuses.read('alice');
  expect(st?.status).toBe('working');
  return { ws, session, marker, ticks, pid: st!.pid! };
}

/** The outcome a person relies on: the command's processes gone, the file no longer written, the status not `working`. */
async function expectNoGhost(g: Ghost): Promise<void> {
  await waitFor(() => !pidAlive(g.pid), 'the teammate to exit', 30_000);
  await waitFor(() => marked(g.marker).length === 0, `every process of the command to be gone (left: ${marked(g.marker).join(', ')})`, 10_000);
  const size = fs.statSync(g.ticks).size;
  // An observation window, not a synchronisation: the loop wrote every 200 ms; nothing may write now.
  await new Promise((r) => setTimeout(r, 1000));
  expect(fs.statSync(g.ticks).size).toBe(size);
  expect((await g.session.store.statuses.read('alice'))?.status).not.toBe('working');
}

describe('a teammate ends, and so does every command it ran', () => {
  for (const sig of ['SIGHUP', 'SIGTERM'] as const) {
    it(`${sig} to the teammate: the running command's processes are gone, the file stops, the status is stopped`, async () => {
      const g = await ghostTeam({ sandbox: 'off' });
      // Outside the OS sandbox, as the setting says: no bwrap among the command's processes.
      expect(marked('bwrap').filter((pid) => marked(g.marker).includes(pid))).toEqual([]);
      process.kill(g.pid, sig);
      await expectNoGhost(g);
      expect((await g.session.store.statuses.read('alice'))?.status).toBe('stopped');
    }, 90_000);
  }

  it.runIf(hasBwrap)('SIGHUP with the command inside the OS sandbox (bubblewrap): the tree under bwrap dies too', async () => {
    const g = await ghostTeam({ sandbox: 'required' });
    expect(marked('bwrap').some((pid) => marked(g.marker).includes(pid))).toBe(true);
    process.kill(g.pid, 'SIGHUP');
    await expectNoGhost(g);
  }, 90_000);

  it('the host SIGKILLed (its ptys hang up): the teammate and its command are gone', async () => {
    let host!: ChildProcess;
    const g = await ghostTeam({
      sandbox: 'off',
      mode: 'host',
      beforeSpawn: async (ws) => {
        host = spawn(process.execPath, [BIN, 'host', '--no-lead', '--idle-ms', '0', '--dir', ws.dir], { cwd: ws.dir, env: scrubbedEnv(ws.home), stdio: ['ignore', 'pipe', 'ignore'] });
        cleanups.push(() => void host.kill('SIGKILL'));
        let out = '';
        host.stdout!.on('data', (b) => (out += b));
        await waitFor(() => out.includes('thclaws host ready'), 'the host ready');
      },
    });
    host.kill('SIGKILL');
    await expectNoGhost(g);
  }, 90_000);

  it('SIGKILL (nothing to catch) leaves the command running; the next process of alice ends it before it works', async () => {
    const g = await ghostTeam({ sandbox: 'off' });
    // What the next process relies on: the running command's group is in alice's status (written as the
    // command starts; a SIGKILL before that write leaves nothing to find, a limit docs/teams.md names).
    await waitFor(async () => ((await g.session.store.statuses.read('alice'))?.command_groups?.length ?? 0) > 0, 'the command group recorded in alice\'s status', 30_000);
    process.kill(g.pid, 'SIGKILL');
    await waitFor(() => !pidAlive(g.pid), 'the teammate to die', 30_000);
    expect(marked(g.marker).length).toBeGreaterThan(0);
    await waitFor(async () => (await g.session.store.tasks.get('1')).status === 'pending', 'task 1 back to pending', 30_000);
    // The respawn runs no command that could end the leftover (it commits what the leftover wrote — "done" means
    // committed — and completes): the leftover must end because the new process starts.
    g.session.opts.childFlags = ['--script', writeScript(g.ws, { rules: [{ match: 'Task #1 —', turns: [
      { text: 'commit', tool_calls: [{ name: 'Bash', input: { command: 'git add -A && git commit -qm ticks' } }] },
      { text: 'done', tool_calls: [{ name: 'TeamTaskComplete', input: { task_id: '1', summary: 'done' } }] },
      { text: 'end' },
    ] }] }, 'respawn.json')];
    await spawnTeammate(g.session, { name: 'alice' });
    await waitFor(() => marked(g.marker).length === 0, 'the leftover command to be ended by the new process', 30_000);
    await waitFor(async () => (await g.session.store.tasks.get('1')).status === 'completed', 'the respawn to complete task 1', 30_000);
    const size = fs.statSync(g.ticks).size;
    await new Promise((r) => setTimeout(r, 1000));
    expect(fs.statSync(g.ticks).size).toBe(size);
  }, 90_000);
});
