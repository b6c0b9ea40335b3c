/**
 * A teammate started by hand in a team no lead ever took (no epoch in the config): it starts the session
 * epoch itself, so the person's CLI answers reach it; a lead taking the team later starts a new epoch and
 * answers stamped with the lead-less one become stale.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, scrubbedEnv } from '../agent/helpers.js';
import { TeamStore } from '../../src/core/store/index.js';
import { pendingApprovals } from '../../src/core/teams/approvals.js';
import { currentEpoch, sendFrame } from '../../src/core/teams/protocol.js';
import { cli, exists } from './approval-harness.js';
import { cleanupsAfterEach, leadSession, teamWorkspace, waitFor, writeScript } from './helpers.js';

const cleanups = cleanupsAfterEach();

describe('a teammate without a lead', () => {
  it('starts the epoch itself and gets the person\'s answers; after a lead takes the team, answers of the old epoch are stale', async () => {
    const ws = teamWorkspace({ teammatePermissionMode: 'ask' });
    const complete = { name: 'TeamTaskComplete', input: { task_id: '1', summary: 'done' } };
    const script = writeScript(ws, {
      rules: [{ match: 'Task #1 —', turns: [{ text: 'a', tool_calls: [{ name: 'Bash', input: { command: 'touch first.txt' } }, { name: 'Bash', input: { command: 'touch second.txt' } }, complete] }, { text: 'end' }] }],
      fallback: [{ text: 'ok' }],
    });
    const teamDir = path.join(ws.dir, '.thclaws/state/team');
    const store = new TeamStore(teamDir);
    store.init();
    await store.config.create({ name: 't', members: [{ name: 'alice' }] });
    expect(await currentEpoch(store)).toBeNull();
    const child: ChildProcess = spawn(process.execPath, [BIN, '--team-agent', 'alice', '--script', script], {
      cwd: ws.dir,
      env: scrubbedEnv(ws.home, { THCLAWS_TEAM_DIR: teamDir }),
      stdio: 'ignore',
    });
    cleanups.push(() => {
      child.kill('SIGKILL');
      ws.cleanup();
    });
    const epoch = await waitFor(() => currentEpoch(store), 'the teammate to start an epoch');
    await waitFor(() => fs.existsSync(store.paths.log) && fs.readFileSync(store.paths.log, 'utf8').includes(`no lead has taken the team: alice started session epoch ${epoch}`), 'the epoch journaled');
    expect(cli(ws, 'task', 'add', '--subject', 'Work', '--owner', 'alice').code).toBe(0);
    const first = await waitFor(async () => (await pendingApprovals(store))[0], 'the first request');
    expect(first.epoch).toBe(epoch);
    expect(cli(ws, 'approve', first.request_id).code).toBe(0);
    await waitFor(() => exists(ws, 'first.txt'), 'the first command to run');

    // A lead takes the team: a new epoch. An answer stamped with the lead-less epoch is dropped.
    const second = await waitFor(async () => (await pendingApprovals(store)).find((w) => w.request_id !== first.request_id), 'the second request');
    const lead = leadSession(ws, script);
    cleanups.unshift(() => lead.close());
    await lead.becomeLead();
    expect(await currentEpoch(store)).not.toBe(epoch);
    await sendFrame(store, 'user', 'alice', 'permission_response', { request_id: second.request_id, allow: true, scope: 'once' }, epoch);
    await waitFor(() => fs.readFileSync(store.paths.log, 'utf8').includes('stale permission_response'), 'the stale answer journaled');
    expect(exists(ws, 'second.txt')).toBe(false);
    expect(cli(ws, 'approve', second.request_id).code).toBe(0);
    await waitFor(async () => (await store.tasks.get('1')).status === 'completed', 'task 1 completed');
    expect(exists(ws, 'second.txt')).toBe(true);
  }, 90_000);
});
