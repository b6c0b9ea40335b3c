/** SpawnTeammate's failure paths leave no ghost; the live cap; names checked before anything is written. */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LeadHandler } from '../../src/core/teams/lead-handler.js';
import { shutdownTeam } from '../../src/core/teams/shutdown.js';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import type { TeamSessionOptions } from '../../src/core/teams/session.js';
import { pidAlive } from '../../src/core/store/index.js';
import { bundleForNode } from '../bundle-node.js';
import { cleanupsAfterEach, leadSession, stateOf, teamWorkspace, waitFor, writeScript } from './helpers.js';

const cleanups = cleanupsAfterEach();

async function lead(members: Array<{ name: string; prompt?: string }>, opts: Partial<TeamSessionOptions> = {}) {
  const ws = teamWorkspace();
  const session = leadSession(ws, writeScript(ws, { rules: [{ turns: [{ text: 'ok' }] }] }), opts);
  session.store.init();
  await session.store.config.create({ name: 't', members });
  await session.becomeLead();
  cleanups.push(async () => {
    await shutdownTeam(session, new LeadHandler(session), { graceMs: 500, force: true }).catch(() => {});
    await session.close();
    ws.cleanup();
  });
  return session;
}

describe('SpawnTeammate', () => {
  it('a child that dies at boot: one error with the last 15 lines of its output, and no ghost left', async () => {
    const code = "for (let i = 0; i < 20; i++) console.log('boot line ' + i); process.exit(3)";
    const session = await lead([{ name: 'alice', prompt: 'standing orders' }], { selfArgv: [process.execPath, '-e', code, '--'] });
    const err = await spawnTeammate(session, { name: 'alice', prompt: 'do it' }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    const msg = (err as Error).message;
    expect(msg).toMatch(/teammate 'alice' exited immediately \(code 3\) — never booted/);
    expect(msg).toContain('boot line 19');
    expect(msg).toContain('boot line 5');
    expect(msg).not.toContain('boot line 4\n');
    expect(await stateOf(session, 'alice')).toBe('stopped');
    // The initial prompt of the failed spawn is never delivered to a later one.
    expect(session.store.inboxes.unread('alice')).toEqual([]);
  }, 30_000);

  it('a child that writes `stopped` with its own spawn id and pid during boot (and lives on): the spawn fails and the child is killed', async () => {
    const session = await lead([{ name: 'quitter' }], { selfArgv: [process.execPath, bundleForNode('test/teams/stop-at-boot.ts')] });
    const err = await spawnTeammate(session, { name: 'quitter' }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/^teammate 'quitter' stopped during boot\.\noutput\.log tail:\n/);
    const pid = Number(/boot: gave up \(pid (\d+)\)/.exec((err as Error).message)?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(await stateOf(session, 'quitter')).toBe('stopped');
    // The child that stopped itself is not left running as a ghost.
    await waitFor(() => !pidAlive(pid), 'the stopped child to be killed', 10_000);
    expect((await session.store.config.require()).members.find((m) => m.name === 'quitter')?.is_active).not.toBe(true);
  }, 30_000);

  it('host mode with no host: a clear error after the boot window, the request withdrawn', async () => {
    const session = await lead([{ name: 'bob' }]);
    const err = await spawnTeammate(session, { name: 'bob', teammateMode: 'host' }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/no host picked up the spawn request/);
    expect(fs.existsSync(session.store.spawnRequests.file('bob'))).toBe(false);
    expect(await stateOf(session, 'bob')).toBe('stopped');
  }, 30_000);

  it('the live-teammate cap refuses with a clear error', async () => {
    const session = await lead([{ name: 'a' }, { name: 'b' }], { maxLiveTeammates: 1 });
    await spawnTeammate(session, { name: 'a' });
    await expect(spawnTeammate(session, { name: 'b' })).rejects.toThrow(/1 teammates are already live \(limit 1/);
    expect(await stateOf(session, 'b')).toBe('defined');
  }, 30_000);

  it('invalid and reserved names are refused before anything is written', async () => {
    const session = await lead([{ name: 'a' }]);
    const before = fs.readdirSync(session.store.paths.agentsDir).sort();
    for (const name of ['../evil', 'lead', 'user', '-x', '']) await expect(spawnTeammate(session, { name })).rejects.toThrow(/invalid|reserved/);
    expect(fs.readdirSync(session.store.paths.agentsDir).sort()).toEqual(before);
  });
});

describe('SpawnTeammate races', () => {
  it('four concurrent spawns of one name: exactly one live process, the others refused', async () => {
    const session = await lead([{ name: 'solo1' }]);
    const results = await Promise.allSettled([0, 1, 2, 3].map(() => spawnTeammate(session, { name: 'solo1' })));
    const ok = results.filter((r) => r.status === 'fulfilled');
    expect(ok).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(String(r.reason)).toMatch(/already in progress|already running/);
    expect(await stateOf(session, 'solo1')).toBe('idle');
  }, 60_000);
});
