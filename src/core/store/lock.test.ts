import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './fsio.js';
import { TEAM_POLICY, TeamStore } from './index.js';
import { withLock } from './lock.js';
import { lockPathFor, makeLockDir } from './lock-layout.js';

/** Where the store locks `file` (`.locks/` beside it), its directory made so a test can plant a lock there. */
const lockOf = (file: string): string => (makeLockDir(lockPathFor(file)), lockPathFor(file));

let ws: string;
let store: TeamStore;
beforeEach(async () => {
  ws = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-lock-'));
  store = TeamStore.forWorkspace(ws, {});
  store.init();
  await store.config.create({ name: 't', members: [{ name: 'alice' }] });
});
afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

const holderLine = (host: string, pid: number, token: string) => ['thclaws1', encodeURIComponent(host), pid, '-', '-', token].join(' ');
const tmpLeft = (dir: string) => (fs.existsSync(path.join(dir, '.tmp')) ? fs.readdirSync(path.join(dir, '.tmp')) : []);

describe('lock', () => {
  it('a holder whose lock was taken over aborts its commit with nothing written, temp removed, and leaves the new lock', async () => {
    const file = path.join(store.dir, 'x.json');
    fs.writeFileSync(file, 'old');
    await expect(
      withLock(file, (guard) => {
        fs.unlinkSync(lockOf(file)); // taken over meanwhile (e.g. from another host after a long stall)
        fs.symlinkSync(holderLine('elsewhere', 4242, 'theirs'), lockOf(file));
        writeFileAtomic(file, 'new', { guard });
      }),
    ).rejects.toMatchObject({ code: 'lock_lost', message: expect.stringContaining('pid 4242 on elsewhere') });
    expect(fs.readFileSync(file, 'utf8')).toBe('old');
    expect(tmpLeft(store.dir)).toEqual([]);
    expect(fs.readlinkSync(lockOf(file))).toBe(holderLine('elsewhere', 4242, 'theirs')); // release left it alone
  });

  it('a lock from another host is stale only once not refreshed for lockStaleMs; the takeover is journalled', async () => {
    const file = path.join(store.dir, 'y.json');
    fs.symlinkSync(holderLine('otherhost', 77, 'tok'), lockOf(file));
    await expect(withLock(file, () => 'mine', { wait: false })).rejects.toMatchObject({ code: 'locked' });
    const old = new Date(Date.now() - TEAM_POLICY.lockStaleMs - 1000);
    fs.lutimesSync(lockOf(file), old, old);
    expect(await withLock(file, () => 'mine', { wait: false, journal: store.journal })).toBe('mine');
    expect(store.journal.read().filter((e) => e.event === 'lock_recovered')).toMatchObject([{ holder_pid: 77, holder_host: 'otherhost', file: '.locks/y.json.lock' }]);
  });

  it('a breaker killed inside its takeover leaves nothing that blocks the next one', async () => {
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    const file = path.join(store.dir, 'b.json');
    fs.symlinkSync(holderLine(os.hostname(), dead, 'held'), lockOf(file));
    fs.symlinkSync(holderLine(os.hostname(), dead, 'breaking'), `${lockOf(file)}.break`);
    expect(await withLock(file, () => 'mine', { journal: store.journal })).toBe('mine');
    expect(fs.readdirSync(path.join(store.dir, '.locks')).filter((n) => n.startsWith('b.json'))).toEqual([]);
    expect(store.journal.read().filter((e) => e.event === 'lock_recovered')).toMatchObject([{ holder_pid: dead }]);
  });

  it('a living holder on this host is never broken, however old its lock', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const file = path.join(store.dir, 'z.json');
      fs.symlinkSync(holderLine(os.hostname(), child.pid!, 'tok'), lockOf(file));
      const old = new Date(Date.now() - 3_600_000);
      fs.lutimesSync(lockOf(file), old, old);
      await expect(withLock(file, () => 'mine', { wait: false })).rejects.toMatchObject({ code: 'locked', message: expect.stringContaining(`pid ${child.pid}`) });
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('lock holders in another pid namespace (containers sharing a host name and a volume)', () => {
  it.runIf(fs.existsSync('/proc/self/ns/pid'))('are judged by mtime like another host, not by a pid that means nothing here', async () => {
    const file = path.join(store.dir, 'n.json');
    const deadHere = 999_999; // no such pid in this namespace
    const line = (ns: string) => `${holderLine(os.hostname(), deadHere, 'tok')} ${encodeURIComponent(ns)}`;
    fs.symlinkSync(line('pid:[1]'), lockOf(file));
    await expect(withLock(file, () => 'mine', { wait: false })).rejects.toMatchObject({ code: 'locked' });
    fs.unlinkSync(lockOf(file));
    fs.symlinkSync(line(fs.readlinkSync('/proc/self/ns/pid')), lockOf(file)); // our namespace: that pid is dead
    expect(await withLock(file, () => 'mine', { wait: false })).toBe('mine');
  });
});

describe('atomic writes', () => {
  it('a write whose rename fails leaves no temp file and the target untouched', () => {
    const target = path.join(store.dir, 'occupied');
    fs.mkdirSync(path.join(target, 'inside'), { recursive: true }); // a non-empty directory: rename refuses
    expect(() => writeFileAtomic(target, 'data')).toThrow();
    expect(tmpLeft(store.dir)).toEqual([]);
    expect(fs.readdirSync(target)).toEqual(['inside']);
  });
});

describe('lease', () => {
  it('a lost lease is reported once, refuses assertHeld, and the holder claims nothing more as the agent', async () => {
    const t = await store.tasks.create({ subject: 's', description: '' });
    const lease = await store.acquireLease('alice');
    const reasons: string[] = [];
    lease.onLost((r) => reasons.push(r));
    expect(lease.lost).toBe(false);
    fs.unlinkSync(lockOf(store.paths.lease('alice')));
    expect(() => lease.assertHeld()).toThrow(expect.objectContaining({ code: 'lease_lost' }));
    expect(lease.lost).toBe(true);
    await expect(store.tasks.claim(t.id, 'alice')).rejects.toMatchObject({ code: 'lease_lost' });
    expect((await store.tasks.get(t.id)).status).toBe('pending');
    expect(() => lease.assertHeld()).toThrow();
    expect(reasons).toHaveLength(1);
    expect(store.journal.read().filter((e) => e.event === 'lease_lost')).toHaveLength(1);
    await lease.release();
  });

  it('a lease lost between the busy check and the write: the claim aborts before its rename', async () => {
    const t = await store.tasks.create({ subject: 's', description: '' });
    const lease = await store.acquireLease('alice');
    // Lose the lease right when the claim takes the task's lock (after the gate's own lease check).
    const taskLock = lockOf(store.paths.task(t.id));
    const realSymlink = fs.symlinkSync;
    fs.symlinkSync = ((target: string, p: fs.PathLike) => {
      realSymlink(target, p);
      if (String(p) === taskLock) fs.unlinkSync(lockOf(store.paths.lease('alice')));
    }) as typeof fs.symlinkSync;
    try {
      await expect(store.tasks.claim(t.id, 'alice')).rejects.toMatchObject({ code: 'lease_lost' });
    } finally {
      fs.symlinkSync = realSymlink;
    }
    expect((await store.tasks.get(t.id)).status).toBe('pending');
    await lease.release();
  });
});
