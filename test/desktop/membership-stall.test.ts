/**
 * Membership against a stalled teammate: a process stopped (SIGSTOP, a long pause) stops beating, so its
 * status reads "dead", yet it still holds its lease and resumes as that member. Edit and removal must see it.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeamStore } from '../../src/core/store/index.js';
import { acquireLease, type Lease } from '../../src/core/store/lease.js';
import { Membership } from '../../src/main/host/membership.js';
import { teamWorkspace, type Ws } from '../teams/helpers.js';

let ws: Ws;
let store: TeamStore;
let lease: Lease;

beforeAll(async () => {
  ws = teamWorkspace();
  store = TeamStore.forWorkspace(ws.dir);
  store.init();
  await store.config.create({ name: 't', members: [{ name: 'bob' }, { name: 'carol' }] });
  // bob's process: holds its lease (this test process stands for it, alive) and last beat a minute ago.
  lease = await acquireLease(store.paths, 'bob', store.journal);
  await store.statuses.write('bob', { status: 'idle', pid: process.pid });
  const file = store.paths.status('bob');
  const st = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(file, JSON.stringify({ ...st, last_heartbeat: Date.now() - 60_000 }));
});
afterAll(async () => {
  await lease.release();
  ws.cleanup();
});

describe('a stalled teammate', () => {
  it('reads dead by its heartbeat, but holding its lease it cannot be edited or removed', async () => {
    const m = new Membership({ workspace: ws.dir, store, leadArgv: ['thclaws'], maxLiveTeammates: () => 4 });
    await expect(m.remove('bob')).rejects.toThrow(/bob .*stop it before you remove it/);
    await expect(m.edit('bob', { role: 'x' })).rejects.toThrow(/stop it before you edit it/);
    expect((await store.config.load())!.members.map((x) => x.name)).toEqual(['bob', 'carol']);
  });
});

describe('a teammate that wrote "stopped" and is exiting', () => {
  it('is removed once its process lets go of its lease, not refused while the badge already says stopped', async () => {
    // carol's process wrote its last status and still holds the lease for the moments its exit takes.
    const carol = await acquireLease(store.paths, 'carol', store.journal);
    await store.statuses.write('carol', { status: 'stopped', pid: process.pid });
    const m = new Membership({ workspace: ws.dir, store, leadArgv: ['thclaws'], maxLiveTeammates: () => 4 });
    const removing = m.remove('carol');
    await new Promise((r) => setTimeout(r, 300));
    await carol.release(); // the process exits
    await removing;
    expect((await store.config.load())!.members.map((x) => x.name)).toEqual(['bob']);
  });
});
