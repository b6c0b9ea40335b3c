import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createInboxConsumer, TEAM_POLICY } from '../../src/core/store/index.js';
import { startWorker, teamFactory } from './helpers.js';

const { newTeam } = teamFactory('torture');

describe('multi-process torture (real OS processes)', () => {
  it('8 writers x 250 messages into one inbox while a reader marks read: every message seen exactly once', async () => {
    const writers = Array.from({ length: 8 }, (_, i) => `w${i}`);
    const store = await newTeam(['reader', ...writers]);
    const consumer = createInboxConsumer(store, 'reader');
    const handedOut: string[] = [];
    let draining = Promise.resolve();
    const drain = () => {
      draining = draining.then(async () => {
        const batch = consumer.take();
        for (const m of batch) handedOut.push(m.id);
        await consumer.ack(batch.map((m) => m.id));
      });
      return draining;
    };
    const watcher = store.watch();
    watcher.onChange((e) => {
      if (e.kind === 'inbox' && e.agent === 'reader') void drain();
    });

    const procs = writers.map((w) => startWorker('write', store.dir, w, 'reader', '250'));
    const results = (await Promise.all(procs.map((p) => p.done()))).map((lines) => lines[0] as { ids: string[] });
    await drain();
    watcher.close();

    const written = results.flatMap((r) => r.ids);
    expect(written).toHaveLength(2000);
    expect(new Set(written).size).toBe(2000);
    // Exactly once at the consumer, nothing lost.
    expect(handedOut).toHaveLength(2000);
    expect(new Set(handedOut)).toEqual(new Set(written));
    // On disk every message is present exactly once across the live inbox and its archive, all read.
    const live = store.inboxes.list('reader');
    const archived = fs
      .readFileSync(store.paths.archive('reader'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string; read: boolean });
    const onDisk = [...live, ...archived];
    expect(onDisk.map((m) => m.id).sort()).toEqual([...written].sort());
    expect(onDisk.every((m) => m.read)).toBe(true);
    expect(live.length).toBeLessThanOrEqual(TEAM_POLICY.inboxKeepRead);
  });

  it('8 claimers racing over 500 tasks with random acyclic dependencies: each claimed once, never before its blockers', async () => {
    const claimers = Array.from({ length: 8 }, (_, i) => `c${i}`);
    const store = await newTeam(claimers);
    // Deterministic pseudo-random DAG: edges only point to lower ids, so it is acyclic by construction.
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 1; i <= 500; i++) {
      const deps = new Set<string>();
      const n = i > 1 ? Math.floor(rand() * 3) : 0;
      for (let k = 0; k < n; k++) deps.add(String(1 + Math.floor(rand() * (i - 1))));
      await store.tasks.create({ subject: `task ${i}`, description: '', blockedBy: [...deps] });
    }
    const procs = claimers.map((c) => startWorker('claim', store.dir, c));
    const logs = (await Promise.all(procs.map((p) => p.done()))).map((l) => l[0] as { agent: string; log: Array<{ id: string; claimedAt: number }> });

    const claims = logs.flatMap((l) => l.log.map((e) => ({ ...e, agent: l.agent })));
    expect(claims).toHaveLength(500);
    expect(new Set(claims.map((c) => c.id)).size).toBe(500);
    expect(logs.filter((l) => l.log.length > 0).length).toBeGreaterThan(1); // there really was contention

    const tasks = new Map((await store.tasks.list()).map((t) => [t.id, t]));
    for (const c of claims) {
      const t = tasks.get(c.id)!;
      expect(t.status).toBe('completed');
      expect(t.attempts).toBe(1);
      expect(t.owner).toBe(c.agent);
      for (const dep of t.blocked_by) {
        // the blocker was completed (on disk) before this task was claimed
        expect(tasks.get(dep)!.completed_at!).toBeLessThanOrEqual(c.claimedAt);
      }
    }
  });

  it('two processes can never run as the same agent (lease)', async () => {
    const store = await newTeam(['alice']);
    const first = startWorker('lease', store.dir, 'alice');
    expect(await first.nextLine()).toMatchObject({ leased: true });
    const second = startWorker('lease', store.dir, 'alice');
    const refused = (await second.nextLine()) as { leased: boolean; error: string };
    expect(refused.leased).toBe(false);
    expect(refused.error).toContain(`pid ${first.child.pid}`);
    second.child.kill();
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('close', r));
    // A killed holder's lease is free at once: its pid is dead, no stale period to wait out.
    const taken = startWorker('lease', store.dir, 'alice');
    expect(await taken.nextLine()).toMatchObject({ leased: true });
    taken.child.kill();
  });

  it("8 processes x 40 model calls accounted into one agent's status, between status writes: the sums are exact", async () => {
    const store = await newTeam(['alice']);
    await store.statuses.write('alice', { status: 'idle' });
    const procs = Array.from({ length: 8 }, () => startWorker('account', store.dir, 'alice', '40'));
    await Promise.all(procs.map((p) => p.done()));
    const st = await store.statuses.read('alice');
    expect(st?.usage).toEqual({ input_tokens: 320, output_tokens: 640, cache_creation_input_tokens: 960, cache_read_input_tokens: 1280 });
    expect(st?.cost_usd).toBeCloseTo(0.32, 6);
    expect(st?.status).toBe('working');
  }, 120_000);
});
