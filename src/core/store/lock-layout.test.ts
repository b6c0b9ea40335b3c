import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TeamStore } from './index.js';
import { withLock } from './lock.js';
import { legacyLockPathFor, lockPathFor } from './lock-layout.js';

let ws: string;
let store: TeamStore;
beforeEach(async () => {
  ws = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-locklayout-'));
  store = TeamStore.forWorkspace(ws, {});
  store.init();
  await store.config.create({ name: 't', members: [{ name: 'alice' }, { name: 'bob' }] });
});
afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

/** Plants an older version's lease lock for `agent` (beside the file, in the agent's directory). */
function plantOldLease(agent: string, line: string): string {
  fs.mkdirSync(store.paths.agentDir(agent), { recursive: true });
  const p = legacyLockPathFor(store.paths.lease(agent));
  fs.symlinkSync(line, p);
  return p;
}

/** Whether a lock entry exists (a symlink to its holder line, which is no path: existsSync would follow it). */
const present = (p: string) => fs.lstatSync(p, { throwIfNoEntry: false }) !== undefined;

/** A lock line naming this (live) process, as an older version wrote it beside the file. */
const liveHolderLine = () => ['thclaws1', encodeURIComponent(os.hostname()), process.pid, '-', '-', 'old'].join(' ');

async function until(cond: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('lock layout: locks live in .locks/, out of the watched directories', () => {
  it("a held lease's refresh and a status write's lock wake no watcher of the agent's directory", async () => {
    const lease = await store.acquireLease('alice');
    try {
      await store.statuses.write('alice', { status: 'idle' });
      const dir = store.paths.agentDir('alice');
      const leaseLock = lockPathFor(store.paths.lease('alice'));
      const seen: string[] = [];
      const w = fs.watch(dir, (_e, name) => seen.push(String(name)));
      try {
        const before = fs.lstatSync(leaseLock).mtimeMs;
        await until(() => fs.lstatSync(leaseLock).mtimeMs > before, 'the lease refresh');
        await store.statuses.write('alice', { status: 'idle' });
        // Events of one watch arrive in order: once the sentinel's is here, any the lock caused would be too.
        fs.writeFileSync(path.join(dir, 'sentinel'), '');
        await until(() => seen.includes('sentinel'), 'the sentinel event');
      } finally {
        w.close();
      }
      expect(seen.filter((n) => n !== 'status.json' && n !== 'sentinel')).toEqual([]);
      expect(fs.readdirSync(dir).filter((n) => n.endsWith('.lock'))).toEqual([]);
    } finally {
      await lease.release();
    }
  });
});

describe('lock layout: a team still run by an older version (locks beside the files)', () => {
  it('its live lease is honoured, and a store opened beside it takes every lock in both places', async () => {
    plantOldLease('bob', liveHolderLine());
    // A store opened while the older version runs bob.
    const beside = new TeamStore(store.dir);
    await expect(beside.acquireLease('bob')).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining(`pid ${process.pid}`) });
    const inbox = beside.paths.inbox('alice');
    const held = await withLock(inbox, () => [present(lockPathFor(inbox)), present(legacyLockPathFor(inbox))]);
    expect(held).toEqual([true, true]);
    expect(present(legacyLockPathFor(inbox))).toBe(false);
    // An older writer holding the lock beside the file makes this version's writer wait: never two holders.
    fs.symlinkSync(liveHolderLine(), legacyLockPathFor(inbox));
    await expect(withLock(inbox, () => 'mine', { wait: false })).rejects.toMatchObject({ code: 'locked' });
    fs.unlinkSync(legacyLockPathFor(inbox));
    // Its own leases are visible to the older version too, and both go at release.
    const alice = await beside.acquireLease('alice');
    expect([present(lockPathFor(beside.paths.lease('alice'))), present(legacyLockPathFor(beside.paths.lease('alice')))]).toEqual([true, true]);
    await alice.release();
    expect([present(lockPathFor(beside.paths.lease('alice'))), present(legacyLockPathFor(beside.paths.lease('alice')))]).toEqual([false, false]);
  });

  it('a dead older holder is no obstacle: the lease is taken in the new place only', async () => {
    plantOldLease('bob', ['thclaws1', encodeURIComponent(os.hostname()), 999_999, '-', '-', 'gone'].join(' '));
    const fresh = new TeamStore(store.dir);
    const bob = await fresh.acquireLease('bob');
    expect(present(lockPathFor(fresh.paths.lease('bob')))).toBe(true);
    const inbox = fresh.paths.inbox('alice');
    expect(await withLock(inbox, () => present(legacyLockPathFor(inbox)))).toBe(false);
    await bob.release();
  });
});
