/**
 * The leftover sweep of a new process of an agent ends only that agent's own command groups. alice's Bash
 * command group is recorded in her status; alice is SIGKILLed (nothing caught) and the command then ends, so
 * the record names a group that no longer exists. A stranger daemon (a shell that put `sleep` in the
 * background and exited: its group has no leader) is forced onto the recorded group number through
 * /proc/sys/kernel/ns_last_pid (root, Linux; elsewhere the test skips). alice's respawn works and completes
 * her task — and the stranger's process still runs. Her own leaderless leftover (a command that put a
 * process in the background and exited) is still ended by the respawn.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { userSettingsPath } from '../../src/core/agent/settings.js';
import { pidAlive } from '../../src/core/store/index.js';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import { cleanupsAfterEach, teamWorkspace, waitFor, writeScript } from './helpers.js';
import { leadTeam } from './lead-team.js';
import { canForcePid, forkAt, groupMembers, statFields, stillRuns } from './stranger.js';

const cleanups = cleanupsAfterEach();

function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!canForcePid)('a recorded command group whose number a stranger now holds', () => {
  it("alice's respawn leaves a stranger's leaderless group alone", async (ctx) => {
    const ws = teamWorkspace();
    const marker = `3.${process.pid}7`;
    const script = { rules: [{ match: 'Task #1 —', turns: [{ text: 'sleeping', tool_calls: [{ name: 'Bash', input: { command: `sleep ${marker}`, timeout: 600000 } }] }, { text: 'end' }] }], fallback: [{ text: 'ok' }] };
    const { session } = await leadTeam(ws, script, [{ name: 'alice' }], cleanups);
    let stranger: number | null = null;
    cleanups.push(() => {
      if (stranger && pidAlive(stranger)) process.kill(stranger, 'SIGKILL');
    });
    await session.store.tasks.create({ subject: 'Sleep', description: 'x', reservedFor: 'alice' });
    await spawnTeammate(session, { name: 'alice' });
    const recorded = await waitFor(async () => (await session.store.statuses.read('alice'))?.command_groups?.[0], 'the command group recorded in the status', 60_000);
    const pgid = recorded.pgid;
    const alice = (await session.store.statuses.read('alice'))!.pid!;
    process.kill(alice, 'SIGKILL');
    await waitFor(() => !pidAlive(alice), 'alice to die');
    // The command ends by itself (as a person would end it): the record now names a group that is gone.
    process.kill(-pgid, 'SIGKILL');
    await waitFor(() => !groupExists(pgid), 'the command group to be gone');
    expect((await session.store.statuses.read('alice'))?.command_groups?.map((g) => g.pgid)).toContain(pgid);

    // A daemon-like stranger: the shell leading group `pgid` backgrounds `sleep` and exits.
    if (!forkAt(pgid, `sleep 120.${process.pid}9 & exit 0`)) return ctx.skip();
    stranger = groupMembers(pgid)[0] ?? null;
    expect(stranger).not.toBeNull();
    const strangerStart = statFields(stranger!)[19]!;
    await waitFor(async () => (await session.store.tasks.get('1')).status === 'pending', 'task 1 back to pending', 30_000);
    session.opts.childFlags = ['--script', writeScript(ws, { rules: [{ match: 'Task #1 —', turns: [{ text: 'done', tool_calls: [{ name: 'TeamTaskComplete', input: { task_id: '1', summary: 'done' } }] }, { text: 'end' }] }] }, 'respawn.json')];
    await spawnTeammate(session, { name: 'alice' });
    await waitFor(async () => (await session.store.tasks.get('1')).status === 'completed', 'the respawn to complete task 1', 30_000);
    // The sweep ran before the respawn worked: the stranger's process is still the one placed, not killed.
    expect(stillRuns(stranger!, strangerStart), `stranger ${stranger} (group ${pgid}) killed by alice's leftover sweep`).toBe(true);
  }, 120_000);

  it("alice's own leaderless leftover (backgrounded by a command that exited) is ended by her respawn", async () => {
    const ws = teamWorkspace();
    const marker = `300.${process.pid}8`;
    // Outside the OS sandbox: there the command's pid namespace ends with its shell, backgrounded children too.
    // (The teammate reads its user settings under the XDG_CONFIG_HOME it is given, not under HOME.)
    const env = { HOME: ws.home, XDG_CONFIG_HOME: path.join(ws.home, '.config'), THCLAWS_TEST: '1' };
    const user = userSettingsPath(env);
    fs.mkdirSync(path.dirname(user), { recursive: true });
    fs.writeFileSync(user, JSON.stringify({ sandbox: 'off' }));
    const script = { rules: [{ match: 'Task #1 —', turns: [{ text: 'daemon', tool_calls: [{ name: 'Bash', input: { command: `sleep ${marker} >/dev/null 2>&1 & exit 0` } }] }, { text: 'end' }] }], fallback: [{ text: 'ok' }] };
    const { session } = await leadTeam(ws, script, [{ name: 'alice' }], cleanups, { childEnv: env });
    let left: number[] = [];
    cleanups.push(() => {
      for (const pid of left) if (pidAlive(pid)) process.kill(pid, 'SIGKILL');
    });
    await session.store.tasks.create({ subject: 'Daemon', description: 'x', reservedFor: 'alice' });
    await spawnTeammate(session, { name: 'alice' });
    // Seen once timing out in a loaded run (CI51, cause unknown): what alice had then is said with the failure.
    const recorded = await waitFor(async () => (await session.store.statuses.read('alice'))?.command_groups?.[0], 'the command group recorded in the status', 60_000).catch(async (e: Error) => {
      throw new Error(`${e.message}; alice's status: ${JSON.stringify(await session.store.statuses.read('alice'))}; her pane: ${session.store.outputs.tail('alice', 30)}`);
    });
    // The shell that led the group exits; its backgrounded sleep stays in the group.
    await waitFor(() => !pidAlive(recorded.pgid) && groupMembers(recorded.pgid).length > 0, 'the leader gone, the sleep left in its group');
    left = groupMembers(recorded.pgid);
    const alice = (await session.store.statuses.read('alice'))!.pid!;
    process.kill(alice, 'SIGKILL');
    await waitFor(() => !pidAlive(alice), 'alice to die');
    expect(left.every((p) => pidAlive(p))).toBe(true);
    await waitFor(async () => (await session.store.tasks.get('1')).status === 'pending', 'task 1 back to pending', 30_000);
    session.opts.childFlags = ['--script', writeScript(ws, { rules: [{ match: 'Task #1 —', turns: [{ text: 'done', tool_calls: [{ name: 'TeamTaskComplete', input: { task_id: '1', summary: 'done' } }] }, { text: 'end' }] }] }, 'respawn.json')];
    await spawnTeammate(session, { name: 'alice' });
    await waitFor(() => left.every((p) => !pidAlive(p)), `alice's leftover ${left.join(', ')} to be ended by her respawn`, 30_000);
  }, 120_000);
});
