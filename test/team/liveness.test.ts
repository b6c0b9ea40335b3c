/**
 * What a stall must not cost, with real OS processes: an agent whose heartbeat went stale while its process
 * lives (SIGSTOP, a laptop asleep, a long synchronous call) keeps the task it was acknowledged; a process
 * that lost its lease completes nothing as that agent; a foreign lock whose mtime lies in the future (a clock
 * that jumped back) does not block its file until the clock catches up.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEAM_POLICY, TeamStore } from '../../src/core/store/index.js';
import { lockPathFor } from '../../src/core/store/lock-layout.js';
import { startWorker, tempDir, type Worker, teamFactory } from './helpers.js';

/** Where the store locks `file` (`.locks/` beside it), its directory made so a test can plant a lock there. */
const lockOf = (file: string): string => {
  const p = lockPathFor(file);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  return p;
};

const procs: Worker[] = [];
afterAll(() => {
  for (const p of procs) {
    if (p.child.exitCode === null && p.child.signalCode === null) {
      p.child.kill('SIGCONT');
      p.child.kill('SIGKILL');
    }
  }
});

const { newTeam, track } = teamFactory('liveness');

function start(mode: string, dir: string, ...args: string[]): Worker {
  const w = startWorker(mode, dir, ...args);
  procs.push(w);
  return w;
}

type Ack = { ok: true; owner?: string; status?: string; pid?: number } | { ok: false; code?: string; error: string };
const exited = (w: Worker) => new Promise((r) => (w.child.exitCode !== null || w.child.signalCode !== null ? r(null) : w.child.once('close', r)));

/** The status a process that stalled past staleAfterMs leaves behind: its last beat long ago. */
function ageHeartbeat(store: TeamStore, agent: string): void {
  const file = store.paths.status(agent);
  const st = JSON.parse(fs.readFileSync(file, 'utf8'));
  st.last_heartbeat = Date.now() - TEAM_POLICY.staleAfterMs * 4;
  fs.writeFileSync(file, JSON.stringify(st));
}

describe('a stalled agent keeps its acknowledged claim (real processes)', () => {
  it('reapDeadOwners leaves the task of an agent whose lease holder lives, stopped and silent', async () => {
    const store = await newTeam(['alice', 'bob']);
    const task = await store.tasks.create({ subject: 'one', description: '' });
    const alice = start('lease-claim', store.dir, 'alice', task.id);
    const claimed = (await alice.nextLine()) as Ack;
    expect(claimed).toMatchObject({ ok: true, owner: 'alice' });
    alice.child.kill('SIGSTOP');
    try {
      ageHeartbeat(store, 'alice');
      expect(await store.statuses.read('alice').then((s) => s?.pid)).toBe(alice.child.pid);
      const released = await store.reapDeadOwners();
      expect(released.map((t) => t.id)).toEqual([]);
      // bob finds nothing to take: alice's claim stands.
      expect(await store.tasks.claimNext('bob')).toBeNull();
      expect(await store.tasks.get(task.id)).toMatchObject({ status: 'in_progress', owner: 'alice' });
    } finally {
      alice.child.kill('SIGCONT');
    }
    // Once the holder is really dead, its task goes back.
    alice.child.kill('SIGKILL');
    await exited(alice);
    const released = await store.reapDeadOwners();
    expect(released.map((t) => t.id)).toEqual([task.id]);
  });

  it('a process whose lease was taken over completes nothing as that agent', async () => {
    const store = await newTeam(['alice']);
    const task = await store.tasks.create({ subject: 'one', description: '' });
    const go = path.join(tempDir('thclaws-go-'), 'go');
    track(path.dirname(go));
    const first = start('lease-claim', store.dir, 'alice', task.id, go);
    expect(await first.nextLine()).toMatchObject({ ok: true, owner: 'alice' });
    // The lease is lost (its lock removed by hand) and a second process becomes alice.
    fs.unlinkSync(lockOf(store.paths.lease('alice')));
    const second = start('lease', store.dir, 'alice');
    expect(await second.nextLine()).toMatchObject({ leased: true });
    fs.writeFileSync(go, '');
    const lines: unknown[] = [];
    let done: Ack | undefined;
    while (!done) {
      const l = (await first.nextLine()) as Ack & { lost?: boolean };
      if (l.lost) lines.push(l);
      else done = l;
    }
    expect(done).toMatchObject({ ok: false, code: 'lease_lost' });
    expect(await store.tasks.get(task.id)).toMatchObject({ status: 'in_progress', owner: 'alice' });
  });
});

describe('foreign locks with a clock that jumped', () => {
  it('an abandoned lock whose mtime lies in the future is taken once it stays unrefreshed for the stale bound', async () => {
    const store = await newTeam(['alice']);
    const lock = lockOf(store.paths.inbox('alice'));
    fs.mkdirSync(lock); // a legacy directory lock: no holder to ask, only its mtime
    const future = new Date(Date.now() + 3_600_000);
    fs.utimesSync(lock, future, future);
    const w = start('send-once', store.dir, 'user', 'alice');
    const r = (await w.nextLine()) as Ack & { id?: string };
    expect(r).toMatchObject({ ok: true });
    expect(store.inboxes.list('alice').map((m) => m.id)).toContain(r.ok ? (r as { id: string }).id : '');
    expect(store.journal.read().some((e) => e.event === 'lock_recovered' && e.file === 'inboxes/.locks/alice.json.lock')).toBe(true);
  });
});

describe('pid reuse', () => {
  it('a lock naming a pid that now belongs to another living process is taken over at once, journalled', async () => {
    const store = await newTeam(['alice']);
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const boot = fs.existsSync('/proc/sys/kernel/random/boot_id') ? fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() : '-';
      // Start time 1 tick after boot: the pid's first owner, long gone; the pid now names `other`.
      fs.symlinkSync(['thclaws1', encodeURIComponent(os.hostname()), other.pid, boot, '1', 'old'].join(' '), lockOf(store.paths.inbox('alice')));
      const w = start('send-once', store.dir, 'user', 'alice');
      expect(await w.nextLine()).toMatchObject({ ok: true });
      expect(store.journal.read().filter((e) => e.event === 'lock_recovered')).toMatchObject([{ holder_pid: other.pid, reason: expect.stringContaining('dead') }]);
      expect(other.exitCode).toBeNull(); // the process that has the pid now is untouched
    } finally {
      other.kill('SIGKILL');
    }
  });
});

describe('a writer killed (SIGKILL) between its temp write and its rename', () => {
  it('the next writer proceeds, the inbox is whole with every acknowledged message, and the dead temp is swept', async () => {
    const store = await newTeam(['alice', 'bob']);
    const inbox = store.paths.inbox('alice');
    const first = (await store.send('user', 'alice', 'before'))[0]!.id;
    const victim = start('send-once', store.dir, 'bob', 'alice', inbox);
    expect(await victim.nextLine()).toMatchObject({ stalled: true });
    const tmpDir = path.join(path.dirname(inbox), '.tmp');
    const left = fs.readdirSync(tmpDir).filter((n) => n.includes(`.${victim.child.pid}.`));
    expect(left).toHaveLength(1); // its full copy, written and fsynced, not yet renamed
    victim.child.kill('SIGKILL');
    await exited(victim);
    const old = new Date(Date.now() - 120_000); // as if the crash was a while ago
    fs.utimesSync(path.join(tmpDir, left[0]!), old, old);
    const next = start('send-once', store.dir, 'user', 'alice');
    const ack = (await next.nextLine()) as Ack & { id?: string };
    expect(ack).toMatchObject({ ok: true });
    expect(store.inboxes.list('alice').map((m) => m.id)).toEqual([first, ack.ok ? ack.id : '']);
    expect(fs.readdirSync(tmpDir).filter((n) => n.includes(`.${victim.child.pid}.`))).toEqual([]);
  });

  it('a live writer stopped with its temp file keeps it, however old', async () => {
    const store = await newTeam(['alice', 'bob']);
    const inbox = store.paths.inbox('alice');
    await store.send('user', 'alice', 'before');
    const staller = start('send-once', store.dir, 'bob', 'alice', inbox);
    expect(await staller.nextLine()).toMatchObject({ stalled: true });
    const tmpDir = path.join(path.dirname(inbox), '.tmp');
    const [mine] = fs.readdirSync(tmpDir).filter((n) => n.includes(`.${staller.child.pid}.`));
    const old = new Date(Date.now() - 120_000);
    fs.utimesSync(path.join(tmpDir, mine!), old, old);
    // Another process touches the directory (sweeps) while the staller is stopped inside the lock.
    const reader = start('send-once', store.dir, 'user', 'bob');
    expect(await reader.nextLine()).toMatchObject({ ok: true });
    const other = start('send-once', store.dir, 'user', 'alice');
    staller.child.kill('SIGCONT');
    expect(await staller.nextLine()).toMatchObject({ ok: true });
    expect(await other.nextLine()).toMatchObject({ ok: true });
    expect(store.inboxes.list('alice')).toHaveLength(3);
  });
});

describe("8 processes racing for a dead agent's lease", () => {
  it('exactly one wins each round; the dead holder is journalled once per round', async () => {
    const store = await newTeam(['alice']);
    const lockFile = lockOf(store.paths.lease('alice'));
    const boot = fs.existsSync('/proc/sys/kernel/random/boot_id') ? fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() : '-';
    const rounds = 10;
    for (let r = 0; r < rounds; r++) {
      // Any short-lived process: its pid is then dead. A shell, not a node worker: start-ups are most of this test's CPU.
      const deadPid = Number(spawnSync('/bin/sh', ['-c', 'echo $$'], { encoding: 'utf8' }).stdout.trim());
      fs.rmSync(lockFile, { force: true });
      fs.mkdirSync(path.dirname(lockFile), { recursive: true });
      fs.symlinkSync(['thclaws1', encodeURIComponent(os.hostname()), deadPid, boot, '-', `r${r}`].join(' '), lockFile);
      const go = path.join(store.dir, `go-${r}`);
      process.env.THCLAWS_BENCH_GO = go; // all start together, at the barrier
      const racers = Array.from({ length: 8 }, () => start('lease', store.dir, 'alice'));
      delete process.env.THCLAWS_BENCH_GO;
      for (const w of racers) expect(await w.nextLine()).toEqual({ ready: true });
      fs.writeFileSync(go, '');
      const answers = (await Promise.all(racers.map((w) => w.nextLine()))) as Array<{ leased: boolean }>;
      expect(answers.filter((a) => a.leased)).toHaveLength(1);
      for (const w of racers) w.child.kill('SIGKILL');
      await Promise.all(racers.map(exited));
    }
    expect(store.journal.read().filter((e) => e.event === 'lock_recovered' && e.file === 'agents/alice/.locks/lease.lock')).toHaveLength(rounds);
  }, 180_000);
});
