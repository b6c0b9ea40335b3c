/**
 * Stop (the dashboard's, or the lead's shutdown) of a teammate that cannot act on SIGTERM (its process hung: frozen here with the cgroup v1 freezer, so
 * no handler runs and the SIGKILL stays pending) while its Bash command runs in a process group of its own:
 * the Stop ends by SIGKILL, and the command does not run on — the Stop ends the groups recorded in the status.
 * Root with a writable freezer hierarchy only; elsewhere skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { USER } from '../../src/core/store/index.js';
import { shutdownTeam } from '../../src/core/teams/shutdown.js';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import { stopMember } from '../../src/core/teams/stop-member.js';
import { cleanupsAfterEach, teamWorkspace, waitFor } from './helpers.js';
import { leadTeam, marked } from './lead-team.js';

const FREEZER = '/sys/fs/cgroup/freezer';
const canFreeze = (() => {
  try {
    fs.accessSync(FREEZER, fs.constants.W_OK);
    return fs.existsSync(path.join(FREEZER, 'freezer.state')) || fs.existsSync(path.join(FREEZER, 'tasks'));
  } catch {
    return false;
  }
})();

const cleanups = cleanupsAfterEach();


describe.skipIf(!canFreeze)('Stop of a hung teammate', () => {
  for (const by of ['the dashboard', 'the lead'] as const) {
    it(`by ${by}: ends by SIGKILL, and its running Bash command ends too`, async () => {
      const ws = teamWorkspace();
      const marker = `60.${process.pid}2`;
      const script = { rules: [{ match: 'Task #1 —', turns: [{ text: 'sleeping', tool_calls: [{ name: 'Bash', input: { command: `sleep ${marker}`, timeout: 600000 } }] }, { text: 'end' }] }], fallback: [{ text: 'ok' }] };
      const { session, handler } = await leadTeam(ws, script, [{ name: 'alice' }], cleanups);
      cleanups.push(() => {
        for (const pid of marked(marker)) process.kill(pid, 'SIGKILL');
      });
      await session.store.tasks.create({ subject: 'Sleep', description: 'x', reservedFor: 'alice' });
      await spawnTeammate(session, { name: 'alice' });
      await waitFor(async () => marked(marker).length > 0 && (await session.store.statuses.read('alice'))?.command_groups?.length, 'the command running and recorded', 60_000);
      const alice = (await session.store.statuses.read('alice'))!.pid!;

      const cg = path.join(FREEZER, `thclaws-test-${process.pid}-${by === 'the lead' ? 'lead' : 'dash'}`);
      fs.mkdirSync(cg);
      cleanups.push(async () => {
        fs.writeFileSync(path.join(cg, 'freezer.state'), 'THAWED');
        // Thawed, alice dies of the pending SIGKILL; the group can be removed once she has left it.
        await waitFor(() => {
          for (const pid of fs.readFileSync(path.join(cg, 'tasks'), 'utf8').split('\n').filter(Boolean)) {
            try {
              fs.writeFileSync(path.join(FREEZER, 'tasks'), pid);
            } catch {
              // gone meanwhile
            }
          }
          try {
            fs.rmdirSync(cg);
            return true;
          } catch {
            return false;
          }
        }, 'the test cgroup to be removed', 10_000);
      });
      fs.writeFileSync(path.join(cg, 'tasks'), String(alice));
      fs.writeFileSync(path.join(cg, 'freezer.state'), 'FROZEN');
      await waitFor(() => fs.readFileSync(path.join(cg, 'freezer.state'), 'utf8').trim() === 'FROZEN', 'alice to be frozen');

      if (by === 'the dashboard') expect(await stopMember(session.store, 'alice', { from: USER, graceMs: 300 })).toBe('killed');
      else expect((await shutdownTeam(session, handler, { graceMs: 300, force: true })).killed).toEqual(['alice']);
      expect((await session.store.statuses.read('alice'))?.status).toBe('stopped');
      await waitFor(() => marked(marker).length === 0, `the command alice ran to end with the Stop (left: ${marked(marker).join(', ')})`, 5000);
    }, 90_000);
  }
});
