/**
 * Store integrity with real OS processes: stale locks raced by 8 processes, holders stopped (SIGSTOP) inside a
 * lock or holding a lease for longer than any stale bound, holders killed. What was acknowledged stays; no
 * task is owned twice; no agent runs twice.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEAM_POLICY, TeamStore } from '../../src/core/store/index.js';
import { lockPathFor } from '../../src/core/store/lock-layout.js';
import { startWorker, tempDir, type Worker, teamFactory } from './helpers.js';

/** Where the store locks `file` (`.locks/` beside it), its directory made so a test can plant a lock there. */
const lockOf = (file: string): string => {
  const p = lockPathFor(file);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  return p;
};

const { newTeam, track } = teamFactory('integrity');

type Ack = { ok: true; id?: string; owner?: string; status?: string } | { ok: false; code?: string; error: string };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ids = (store: TeamStore, agent: string) => new Set(store.inboxes.list(agent).map((m) => m.id));
/** Ids in the live inbox and in its archive (read messages beyond the keep limit move there). */
const withArchive = (store: TeamStore, agent: string): Set<string> => {
  const archive = store.paths.archive(agent);
  const archived = fs.existsSync(archive) ? fs.readFileSync(archive, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { id: string }).id) : [];
  return new Set([...ids(store, agent), ...archived]);
};
const exited = (w: Worker) => new Promise((r) => (w.child.exitCode !== null ? r(null) : w.child.once('close', r)));
/** Longer than every stale bound the store has ever used, so a bound-based takeover would happen. */
const STALL_MS = TEAM_POLICY.lockStaleMs + 1500;

/** A lock left behind with no readable holder and an old mtime: what a crashed older version leaves. */
function plantAbandonedLock(file: string): void {
  const lock = lockOf(file);
  fs.mkdirSync(lock);
  const old = new Date(Date.now() - 60_000);
  fs.utimesSync(lock, old, old);
}

/** The pid of a process that has exited: a shell, not node, whose start-up under load cost seconds a round. */
function deadPid(): number {
  return Number(spawnSync('/bin/sh', ['-c', 'echo $$'], { encoding: 'utf8' }).stdout.trim());
}

describe('stale lock takeover (real processes)', () => {
  // 180 s like the lease race in liveness.test.ts: the eight processes need about 32 s of CPU in all
  // (scripts/cpu-of.py), more than half of the suite's 60 s on two cores shared with another test file.
  it('8 processes x 150 rounds appending past an abandoned lock: no acknowledged append is missing', async () => {
    const writers = Array.from({ length: 8 }, (_, i) => `w${i}`);
    const store = await newTeam(['reader', ...writers]);
    const inbox = store.paths.inbox('reader');
    await store.send('user', 'reader', 'first');
    const goDir = tempDir('thclaws-go-');
    track(goDir);
    const rounds = 150;
    const procs = writers.map((w) => startWorker('append-rounds', store.dir, w, 'reader', String(rounds), goDir));
    const acked: string[] = [];
    let refused = 0;
    for (let r = 0; r < rounds; r++) {
      plantAbandonedLock(inbox);
      fs.writeFileSync(path.join(goDir, String(r)), '');
      const results = (await Promise.all(procs.map((p) => p.nextLine()))) as Array<Ack & { round: number }>;
      for (const res of results) {
        expect(res.round).toBe(r);
        if (res.ok) acked.push(res.id!);
        else refused++;
      }
      // Between rounds (no writer is racing), the reader reads the round's messages, as a teammate would:
      // the inbox stays small. Left unread, 1,200 messages made every append parse and validate the whole
      // growing file, most of this test's CPU (O(rounds²)) and nothing to do with the takeover race.
      await store.inboxes.markRead('reader', results.flatMap((res) => (res.ok ? [res.id!] : [])));
    }
    await Promise.all(procs.map((p) => p.done()));
    const onDisk = withArchive(store, 'reader');
    const missing = acked.filter((id) => !onDisk.has(id));
    expect(missing).toEqual([]);
    expect(acked.length).toBeGreaterThan(rounds * 8 * 0.9); // the takeover works, not just refuses
    expect(refused).toBe(0);
    // Every takeover is journalled, exactly once per planted lock.
    const recovered = store.journal.read().filter((e) => e.event === 'lock_recovered' && e.file === 'inboxes/.locks/reader.json.lock');
    expect(recovered).toHaveLength(rounds);
  }, 180_000);

  it("a dead holder's lock on this host is taken over and journalled with the holder's pid and host", async () => {
    const writers = Array.from({ length: 8 }, (_, i) => `w${i}`);
    const store = await newTeam(['reader', ...writers]);
    const inbox = store.paths.inbox('reader');
    await store.send('user', 'reader', 'first');
    const goDir = tempDir('thclaws-go-');
    track(goDir);
    const rounds = 20;
    const bootId = fs.existsSync('/proc/sys/kernel/random/boot_id') ? fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() : '-';
    const procs = writers.map((w) => startWorker('append-rounds', store.dir, w, 'reader', String(rounds), goDir));
    const acked: string[] = [];
    const dead: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const pid = deadPid();
      dead.push(pid);
      fs.symlinkSync(['thclaws1', encodeURIComponent(os.hostname()), pid, bootId, '-', `t${r}`].join(' '), lockOf(inbox));
      fs.writeFileSync(path.join(goDir, String(r)), '');
      for (const res of (await Promise.all(procs.map((p) => p.nextLine()))) as Ack[]) if (res.ok) acked.push(res.id!);
    }
    await Promise.all(procs.map((p) => p.done()));
    const onDisk = ids(store, 'reader');
    expect(acked.filter((id) => !onDisk.has(id))).toEqual([]);
    expect(acked).toHaveLength(rounds * 8);
    const recovered = store.journal.read().filter((e) => e.event === 'lock_recovered');
    expect(recovered.map((e) => e.holder_pid)).toEqual(dead);
    expect(recovered.every((e) => e.holder_host === os.hostname() && /dead/.test(e.reason))).toBe(true);
  });
});

describe('a holder stopped (SIGSTOP) longer than the stale bound, then resumed', () => {
  it('inside an inbox lock: every acknowledged message survives; waiters say which pid they wait for', async () => {
    const store = await newTeam(['alice', 'bob', 'carol', 'dave']);
    const inbox = store.paths.inbox('alice');
    await store.send('user', 'alice', 'before');
    const staller = startWorker('send-once', store.dir, 'bob', 'alice', inbox);
    expect(await staller.nextLine()).toMatchObject({ stalled: true });
    const stalledAt = Date.now();
    const others = ['carol', 'dave', 'user'].map((from) => startWorker('send-once', store.dir, from, 'alice'));
    // Resumed only once every waiter has said it waits (a fixed sleep let a slow start on a loaded machine miss
    // the whole stall) and the stall has outlasted the stale bound.
    const waiting = `waiting for pid ${staller.child.pid}`;
    while (!others.every((o) => o.stderr().includes(waiting)) && others.every((o) => o.child.exitCode === null)) await sleep(50);
    await sleep(Math.max(0, STALL_MS - (Date.now() - stalledAt)));
    staller.child.kill('SIGCONT');
    const acks = [(await staller.nextLine()) as Ack, ...((await Promise.all(others.map((o) => o.nextLine()))) as Ack[])];
    await Promise.all([staller, ...others].map((w) => w.done()));
    const onDisk = ids(store, 'alice');
    const acked = acks.filter((a): a is Ack & { ok: true } => a.ok).map((a) => a.id!);
    expect(acked.filter((id) => !onDisk.has(id))).toEqual([]);
    expect(acked).toHaveLength(4); // the waiters waited rather than failing
    expect(onDisk.size).toBe(5);
    expect(others.filter((o) => o.stderr().includes(waiting))).toHaveLength(3);
  });

  it('inside a task claim: the claim acknowledged to one agent is the one on disk; no task owned by two', async () => {
    const store = await newTeam(['c0', 'c1']);
    for (let i = 0; i < 3; i++) await store.tasks.create({ subject: `t${i}`, description: '' });
    const staller = startWorker('claim-once', store.dir, 'c1', '1', store.paths.task('1'), 'complete');
    expect(await staller.nextLine()).toMatchObject({ stalled: true });
    const rival = startWorker('claim', store.dir, 'c0'); // holds c0's lease, claims and completes until all done
    await sleep(STALL_MS);
    staller.child.kill('SIGCONT');
    const claimAck = (await staller.nextLine()) as Ack;
    const [rivalLog] = (await rival.done()) as Array<{ log: Array<{ id: string }> }>;
    await staller.done();
    const claimedBy = new Map<string, string[]>();
    const note = (id: string, who: string) => claimedBy.set(id, [...(claimedBy.get(id) ?? []), who]);
    if (claimAck.ok) note('1', 'c1');
    for (const e of rivalLog!.log) note(e.id, 'c0');
    for (const [id, owners] of claimedBy) {
      expect(owners, `task ${id} acknowledged to ${owners.join(' and ')}`).toHaveLength(1);
      const t = await store.tasks.get(id);
      expect(t.owner).toBe(owners[0]);
      expect(t.attempts).toBe(1);
    }
    expect(claimedBy.size).toBe(3);
  });

  it('holding the lease: a one-shot claimer as that agent is refused and no second process gets the lease', async () => {
    const store = await newTeam(['alice']);
    await store.tasks.create({ subject: 't', description: '' });
    const holder = startWorker('lease', store.dir, 'alice');
    expect(await holder.nextLine()).toMatchObject({ leased: true });
    holder.child.kill('SIGSTOP');
    await sleep(STALL_MS);
    const oneShot = startWorker('claim-once', store.dir, 'alice', '1');
    const claim = (await oneShot.nextLine()) as Ack;
    const second = startWorker('lease', store.dir, 'alice');
    const lease = (await second.nextLine()) as { leased: boolean; error?: string };
    holder.child.kill('SIGCONT');
    expect(claim.ok).toBe(false);
    expect(claim.ok ? '' : claim.error).toContain(`pid ${holder.child.pid}`);
    expect(lease.leased).toBe(false);
    expect(lease.error).toContain(`pid ${holder.child.pid}`);
    expect((await store.tasks.get('1')).status).toBe('pending');
    second.child.kill();
    holder.child.kill('SIGKILL');
    await Promise.all([exited(holder), exited(second), oneShot.done()]);
  });
});

describe('a holder killed (SIGKILL)', () => {
  it('a waiting process gets the lock within the documented bound of the death', async () => {
    const store = await newTeam(['alice', 'bob']);
    const inbox = store.paths.inbox('alice');
    await store.send('user', 'alice', 'before the crash');
    const holder = startWorker('hold-lock', store.dir, inbox);
    expect(await holder.nextLine()).toMatchObject({ locked: true });
    const waiter = startWorker('lock-wait', store.dir, inbox);
    expect(await waiter.nextLine()).toMatchObject({ waiting: true });
    const killedAt = process.hrtime.bigint();
    holder.child.kill('SIGKILL');
    const { acquired_ns } = (await waiter.nextLine()) as { acquired_ns: string };
    await waiter.done();
    const waitedMs = Number(BigInt(acquired_ns) - killedAt) / 1e6;
    expect(waitedMs).toBeLessThan(TEAM_POLICY.lockDeadHolderBoundMs);
    await store.send('bob', 'alice', 'after');
    expect(store.inboxes.list('alice').map((m) => m.text)).toEqual(['before the crash', 'after']);
    expect(fs.readdirSync(store.paths.inboxesDir).filter((n) => n.includes('corrupt'))).toEqual([]);
    const [entry] = store.journal.read().filter((e) => e.event === 'lock_recovered');
    expect(entry).toMatchObject({ holder_pid: holder.child.pid, holder_host: os.hostname() });
  });

  it("the lease of a killed agent is free at once; the lost lease of a living one is reported to it", async () => {
    const store = await newTeam(['alice']);
    const first = startWorker('lease', store.dir, 'alice');
    expect(await first.nextLine()).toMatchObject({ leased: true });
    first.child.kill('SIGKILL');
    await exited(first);
    const next = startWorker('lease', store.dir, 'alice');
    expect(await next.nextLine()).toMatchObject({ leased: true });
    // Someone removes the lease lock under the living holder: it must learn it is no longer the agent.
    fs.rmSync(lockOf(store.paths.lease('alice')));
    expect(await next.nextLine()).toMatchObject({ lost: true });
    expect(next.stderr()).toContain('lease of agent "alice" lost');
    next.child.kill();
    const lost = store.journal.read().filter((e) => e.event === 'lease_lost');
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({ holder_pid: next.child.pid, holder_host: os.hostname() });
  });
});

describe('the per-agent claim gate across processes', () => {
  it('6 one-shot claimers as one agent started together: exactly one claim, one in-progress task', async () => {
    const store = await newTeam(['alice']);
    for (let round = 0; round < 3; round++) {
      const base = (await store.tasks.list()).length;
      for (let i = 0; i < 6; i++) await store.tasks.create({ subject: `r${round} t${i}`, description: '' });
      const go = path.join(path.dirname(store.dir), `go-${round}`);
      process.env.THCLAWS_BENCH_GO = go;
      const procs = Array.from({ length: 6 }, (_, i) => startWorker('claim-once', store.dir, 'alice', String(base + i + 1)));
      delete process.env.THCLAWS_BENCH_GO;
      for (const p of procs) expect(await p.nextLine()).toMatchObject({ ready: true });
      fs.writeFileSync(go, '');
      const acks = (await Promise.all(procs.map((p) => p.nextLine()))) as Ack[];
      await Promise.all(procs.map((p) => p.done()));
      expect(acks.filter((a) => a.ok)).toHaveLength(1);
      const busy = await store.tasks.list({ status: 'in_progress' });
      expect(busy.map((t) => t.owner)).toEqual(['alice']);
      // A later one-shot claimer, alone (no race to lose): refused because alice is busy, not by the lease.
      const pending = (await store.tasks.list({ status: 'pending' }))[0]!;
      const late = startWorker('claim-once', store.dir, 'alice', pending.id);
      expect(await late.nextLine()).toMatchObject({ ok: false, code: 'busy' });
      await late.done();
      await store.tasks.complete(busy[0]!.id, 'alice');
    }
  });
});
