/**
 * Every "exactly once" path of the store, raced deterministically with real OS processes. The first process
 * stops itself (SIGSTOP) inside the operation: it has read the file under the lock and is about to rename its
 * result onto it. The second process then runs the same operation. With the lock it waits for the stopped
 * holder (and says so on stderr); without it, it reads the same old state and finishes, and the first one's
 * rename then commits a second "success" over it. So a missing lock fails these tests on every run, not
 * only when the scheduler happens to interleave the two.
 */
import { lockPathFor } from '../../src/core/store/lock-layout.js';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { setLockWaitReporter } from '../../src/core/store/lock.js';
import { startWorker, teamFactory, type Worker } from './helpers.js';

const { newTeam } = teamFactory('exactly-once');

type Ack = { ok: true; [k: string]: unknown } | { ok: false; code?: string; error: string };

/**
 * Polls until `cond` holds (true) or `stop()` says the wait no longer matters (false). No deadline of its own:
 * the second process either finishes or, held by the lock, reports its wait after lockReportAfterMs, however
 * slowly a loaded machine starts it (the test's timeout is the bound).
 */
async function until(cond: () => boolean, stop: () => boolean): Promise<boolean> {
  while (!stop()) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

/**
 * Runs `first` (which stalls inside its lock) and then `second`; resumes `first` once `second` has either
 * finished (no lock kept it out) or reported that it waits for `first`'s pid (the lock did).
 */
async function race(first: Worker, second: () => Worker): Promise<{ a: Ack; b: Ack; secondWaited: boolean; firstPid: number }> {
  expect(await first.nextLine()).toMatchObject({ stalled: true });
  const w = second();
  let finished = false;
  const bLine = w.nextLine().then((v) => ((finished = true), v as Ack));
  const secondWaited = await until(() => w.stderr().includes(`waiting for pid ${first.child.pid} `), () => finished);
  first.child.kill('SIGCONT');
  const a = (await first.nextLine()) as Ack;
  const b = await bLine;
  await Promise.all([first.done(), w.done()]);
  return { a, b, secondWaited, firstPid: first.child.pid! };
}

const oks = (...acks: Ack[]) => acks.filter((x) => x.ok).length;

describe('exactly once under a holder stopped inside its lock (real processes)', () => {
  it('answering an approval: one answer is sent and recorded, the second answerer is told who answered first', async () => {
    const store = await newTeam(['alice']);
    // A live teammate waiting for an answer (this test process stands in for it: its pid is alive).
    await store.statuses.write('alice', {
      status: 'working',
      pid: process.pid,
      waiting: { request_id: 'req-1', kind: 'permission', agent: 'alice', tool: 'Bash', summary: 'echo hi', cwd: '/', epoch: null, since: Date.now(), deadline: Date.now() + 600_000 },
    } as never);
    const answers = store.paths.answers('alice');
    const { a, b, secondWaited } = await race(startWorker('answer-once', store.dir, 'user', 'req-1', 'allow', answers), () => startWorker('answer-once', store.dir, 'lead', 'req-1', 'deny'));
    expect(oks(a, b)).toBe(1);
    expect(a.ok).toBe(true);
    expect(b.ok ? '' : b.error).toBe('approval request "req-1" was already approved by the person');
    const frames = store.inboxes.list('alice').filter((m) => m.type === 'permission_response');
    expect(frames.map((m) => [m.from, (m as Record<string, unknown>).allow])).toEqual([['user', true]]);
    expect(JSON.parse(fs.readFileSync(answers, 'utf8'))['req-1']).toMatchObject({ from: 'user', allow: true });
    // The second process waited for the stopped holder: the lock, not luck, kept them apart.
    expect(secondWaited).toBe(true);
  });

  it('claiming a task: one owner, one attempt', async () => {
    const store = await newTeam(['c0', 'c1']);
    await store.tasks.create({ subject: 't', description: '' });
    const { a, b, secondWaited } = await race(startWorker('claim-once', store.dir, 'c1', '1', store.paths.task('1')), () => startWorker('claim-once', store.dir, 'c0', '1'));
    expect(oks(a, b)).toBe(1);
    expect(b.ok ? '' : b.error).toBe('task 1 is in_progress, not pending');
    const t = await store.tasks.get('1');
    expect([t.owner, t.attempts]).toEqual(['c1', 1]);
    // The second process waited for the stopped holder: the lock, not luck, kept them apart.
    expect(secondWaited).toBe(true);
  });

  it('completing a task: the second completion is refused', async () => {
    const store = await newTeam(['c1']);
    await store.tasks.create({ subject: 't', description: '' });
    await store.tasks.claim('1', 'c1');
    const { a, b, secondWaited, firstPid } = await race(startWorker('complete-once', store.dir, 'c1', '1', store.paths.task('1')), () => startWorker('complete-once', store.dir, 'c1', '1'));
    expect(oks(a, b)).toBe(1);
    expect(b.ok ? '' : b.error).toBe('task 1 is completed, not in_progress');
    expect((await store.tasks.get('1')).result).toBe(`done by pid ${firstPid}`);
    // The second process waited for the stopped holder: the lock, not luck, kept them apart.
    expect(secondWaited).toBe(true);
  });

  it('consuming a message: it is marked read by exactly one consumer', async () => {
    const store = await newTeam(['alice']);
    const [m] = await store.send('user', 'alice', 'hello');
    const { a, b, secondWaited } = await race(startWorker('mark-read-once', store.dir, 'alice', m!.id, store.paths.inbox('alice')), () => startWorker('mark-read-once', store.dir, 'alice', m!.id));
    expect([a, b]).toEqual([{ ok: true, marked: 1 }, { ok: true, marked: 0 }]);
    expect(store.inboxes.unread('alice')).toEqual([]);
    // The second process waited for the stopped holder: the lock, not luck, kept them apart.
    expect(secondWaited).toBe(true);
  });

  it('sending: a message sent while another sender is stopped inside the inbox lock is not lost', async () => {
    const store = await newTeam(['alice', 'bob', 'carol']);
    const inbox = store.paths.inbox('alice');
    await store.send('user', 'alice', 'before');
    const { a, b, secondWaited } = await race(startWorker('send-once', store.dir, 'bob', 'alice', inbox), () => startWorker('send-once', store.dir, 'carol', 'alice'));
    expect(oks(a, b)).toBe(2);
    expect(store.inboxes.list('alice').map((m) => m.from).sort()).toEqual(['bob', 'carol', 'user']);
    // The second process waited for the stopped holder: the lock, not luck, kept them apart.
    expect(secondWaited).toBe(true);
  });

  it('serving a spawn request: one host launches it', async () => {
    const store = await newTeam(['alice']);
    await store.spawnRequests.write({ spawn_id: 's1', agent: 'alice', argv: ['true'], cwd: '/', env: {}, team_dir: store.dir, requested_at: Date.now() });
    const file = store.spawnRequests.file('alice');
    const { a, b, secondWaited, firstPid } = await race(startWorker('serve-once', store.dir, 'alice', 's1', file), () => startWorker('serve-once', store.dir, 'alice', 's1'));
    expect([a, b]).toEqual([{ ok: true, served: true }, { ok: true, served: false }]);
    expect((await store.spawnRequests.read('alice'))?.served_by).toBe(`host pid ${firstPid}`);
    // The second process waited for the stopped holder: the lock, not luck, kept them apart.
    expect(secondWaited).toBe(true);
  });

  it('creating tasks: distinct ids, and the high-water mark never goes back', async () => {
    const store = await newTeam(['alice']);
    const { a, b, secondWaited } = await race(startWorker('create-once', store.dir, 'first', store.paths.hwm), () => startWorker('create-once', store.dir, 'second'));
    expect([a, b]).toEqual([{ ok: true, id: '1' }, { ok: true, id: '2' }]);
    // The mark is what keeps a deleted task's id from being handed out again.
    expect(fs.readFileSync(store.paths.hwm, 'utf8').trim()).toBe('2');
    // The second process waited for the stopped holder: the lock, not luck, kept them apart.
    expect(secondWaited).toBe(true);
  });

  it('accounting usage: no call is lost', async () => {
    const store = await newTeam(['alice']);
    await store.statuses.write('alice', { status: 'idle', pid: process.pid });
    const { a, b, secondWaited } = await race(startWorker('account-once', store.dir, 'alice', store.paths.status('alice')), () => startWorker('account-once', store.dir, 'alice'));
    expect(oks(a, b)).toBe(2);
    const st = await store.statuses.read('alice');
    expect([st?.usage?.input_tokens, st?.cost_usd]).toEqual([2, 0.002]);
    // The second process waited for the stopped holder: the lock, not luck, kept them apart.
    expect(secondWaited).toBe(true);
  });

  it('adding members: no member is lost', async () => {
    const store = await newTeam(['alice']);
    const { a, b, secondWaited } = await race(startWorker('add-member-once', store.dir, 'bob', store.paths.config), () => startWorker('add-member-once', store.dir, 'carol'));
    expect(oks(a, b)).toBe(2);
    expect((await store.config.require()).members.map((m) => m.name).sort()).toEqual(['alice', 'bob', 'carol']);
    // The second process waited for the stopped holder: the lock, not luck, kept them apart.
    expect(secondWaited).toBe(true);
  });

  it("a failed spawn's clean-up does not mark stopped the teammate of a concurrent spawn that booted meanwhile", async () => {
    const store = await newTeam(['solo']);
    await store.statuses.write('solo', { status: 'spawning', spawn_id: 'loser', pid: null } as never);
    // The winner's teammate writes its first status and stops inside the status lock, before the rename.
    const boot = JSON.stringify({ status: 'idle', spawn_id: 'winner', pid: process.pid });
    const winner = startWorker('status-once', store.dir, 'solo', boot, store.paths.status('solo'));
    expect(await winner.nextLine()).toMatchObject({ stalled: true });
    // The losing spawn cleans up: it may mark only a status that is still its own.
    const waits: string[] = [];
    setLockWaitReporter((lockPath) => waits.push(lockPath));
    const cleanup = store.statuses.writeIfSpawn('solo', 'loser', { status: 'stopped', pid: null, last_error: 'lost the race' } as never);
    // Resumed only once the clean-up waits for the lock (it reports that after lockReportAfterMs).
    await until(() => waits.includes(lockPathFor(store.paths.status('solo'))), () => false);
    winner.child.kill('SIGCONT');
    expect(await winner.nextLine()).toEqual({ ok: true, status: 'idle' });
    await winner.done();
    expect(await cleanup).toBe(false);
    expect((await store.statuses.read('solo'))?.status).toBe('idle');
  });
});

