/**
 * Whose processes an agent's cost counts (its tree, its recorded groups, never another agent's tree), CPU %
 * over the interval between two readings, and disk use measured no more often than asked.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiskCache, diskUsage, readProcs, ResourceSampler, treeOf } from './resources.js';

const p = (ppid: number, pgrp: number, ticks = 0, rssPages = 0) => ({ ppid, pgrp, ticks, rssPages });

describe('an agent process tree', () => {
  // 10 the lead; 11 its tool; 20 a teammate the lead started (its child) with 21 its tool; 30 a leaderless
  // leftover in the lead's recorded group 40 (its shell gone, reparented to 1) with 31 below it; 50 a stranger.
  const procs = new Map([
    [10, p(1, 10)],
    [11, p(10, 11)],
    [20, p(10, 20)],
    [21, p(20, 21)],
    [30, p(1, 40)],
    [31, p(30, 40)],
    [50, p(1, 50)],
  ]);

  it('is the agent, what is below it and its recorded groups, without another agent and its tree', () => {
    expect(treeOf(procs, 10, [40], new Set([10, 20])).sort()).toEqual([10, 11, 30, 31]);
    expect(treeOf(procs, 20, [], new Set([10, 20])).sort()).toEqual([20, 21]);
    expect(treeOf(procs, 10, [], new Set()).sort()).toEqual([10, 11, 20, 21]);
    expect(treeOf(procs, 99, [])).toEqual([]);
  });

  it('CPU is the ticks used between two readings over the time between them; a process new since counts whole', () => {
    const s = new ResourceSampler();
    const first = s.sample('a', new Map([[10, p(1, 10, 100, 3)], [11, p(10, 11, 50, 2)]]), 10, [], new Set(), 1000);
    expect(first.cpu_percent).toBe(0);
    expect(first.rss_bytes! % 5).toBe(0);
    // 2 s later: 10 used 100 ticks (1 s of CPU), 11 ended, 12 started and used 50: 1.5 s over 2 s = 75 %.
    const second = s.sample('a', new Map([[10, p(1, 10, 200, 3)], [12, p(10, 12, 50, 1)]]), 10, [], new Set(), 3000);
    expect(second.cpu_percent).toBe(75);
    expect(s.sample('a', new Map(), 10, [], new Set(), 4000)).toEqual({ cpu_percent: null, rss_bytes: null });
  });

  it('reads this machine: this process is in its own tree with its memory', () => {
    const procs = readProcs();
    if (!procs.size) return; // not Linux
    const me = new ResourceSampler().sample('me', procs, process.pid, []);
    expect(me.rss_bytes).toBeGreaterThan(process.memoryUsage().rss / 2);
    expect(me.rss_bytes).toBeLessThan(process.memoryUsage().rss * 2);
  });
});

describe('disk use', () => {
  it('is measured again only after the interval; meanwhile the last figure', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'disk-'));
    try {
      fs.writeFileSync(path.join(dir, 'a'), Buffer.alloc(256 * 1024, 1));
      expect(await diskUsage(dir)).toBeGreaterThanOrEqual(256 * 1024);
      let changes = 0;
      const cache = new DiskCache(60_000, () => changes++);
      expect(cache.get(dir)).toBeNull();
      await new Promise<void>((r) => {
        const t = setInterval(() => changes && (clearInterval(t), r()), 10);
      });
      const first = cache.get(dir)!;
      expect(first).toBeGreaterThanOrEqual(256 * 1024);
      fs.writeFileSync(path.join(dir, 'b'), Buffer.alloc(1024 * 1024, 1));
      expect(cache.get(dir)).toBe(first); // within the interval: not walked again
      await cache.measure(dir);
      expect(cache.get(dir)).toBeGreaterThanOrEqual(first + 1024 * 1024);
      expect(await diskUsage(path.join(dir, 'missing'))).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
