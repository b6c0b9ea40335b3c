import { describe, expect, it } from 'vitest';
import { FramePlanner } from './frame-plan';
import { FrameBudget, TypingYield } from './write-pacing';

const K = 1024;
const M = 1024 * K;

function planner(idleWhileYielding = true, bulk = false): FramePlanner {
  const budget = new FrameBudget({ targetMs: 30, min: 16 * K, max: M, start: 256 * K, ...(bulk ? { bulkChars: 16 * K, bulkGapMs: 30 } : {}) });
  const typing = new TypingYield({ holdMs: 2000, otherGapMs: 100, otherChars: 32 * K });
  return new FramePlanner(budget, typing, { echoMs: 1000, echoChars: 4 * K, panesPerFrame: 2, idleWhileYielding });
}

/** Characters each pane gets in a plan. */
const per = (writes: Array<[number, number]>, n: number) => {
  const out = Array.from({ length: n }, () => 0);
  for (const [i, c] of writes) out[i]! += c;
  return out;
};

describe('FramePlanner: the pump while the person types', () => {
  it('outside typing, the budget goes to two flooding panes per frame, in turn', () => {
    const p = planner();
    const floods = [{ typedAt: -Infinity, queued: M }, { typedAt: -Infinity, queued: M }, { typedAt: -Infinity, queued: M }];
    expect(per(p.plan(1000, floods, 0).writes, 3)).toEqual([256 * K, 0, 0]);
    // The first pane took the whole room; the next frame starts at the next pane.
    expect(per(p.plan(1016, floods, 0).writes, 3)).toEqual([0, 256 * K, 0]);
    const small = [{ typedAt: -Infinity, queued: 10 * K }, { typedAt: -Infinity, queued: M }, { typedAt: -Infinity, queued: M }];
    expect(per(p.plan(1032, small, 0).writes, 3)).toEqual([0, 0, 256 * K]);
    expect(per(p.plan(1048, small, 0).writes, 3)).toEqual([10 * K, 246 * K, 0]);
  });

  it('the other panes yield to the typed pane: one small write per gap, one pane at a time', () => {
    const p = planner();
    p.typed(1000);
    const panes = [{ typedAt: 1000, queued: 1 }, { typedAt: -Infinity, queued: M }, { typedAt: -Infinity, queued: M }];
    // The echo first, then one other pane gets at most 32 K (not the 256 K budget a flood gets otherwise).
    const first = p.plan(1010, panes, 0);
    expect(first.writes[0]).toEqual([0, 1]);
    expect(per(first.writes, 3)).toEqual([1, 32 * K, 0]);
    // Within the gap the others get nothing, frame after frame.
    expect(per(p.plan(1026, [{ typedAt: 1000, queued: 0 }, ...panes.slice(1)], 0).writes, 3)).toEqual([0, 0, 0]);
    // After the gap, the next pane's turn.
    expect(per(p.plan(1111, [{ typedAt: 1000, queued: 0 }, ...panes.slice(1)], 0).writes, 3)).toEqual([0, 0, 32 * K]);
  });

  it('while only the yielding panes have output, the pump sleeps until their next turn instead of ticking every frame', () => {
    const p = planner();
    p.typed(1000);
    const others = [{ typedAt: 1000, queued: 0 }, { typedAt: -Infinity, queued: M }, { typedAt: -Infinity, queued: M }];
    expect(p.plan(1010, others, 0).next).toBe(100); // one pane wrote at 1010: the next turn is at 1110
    expect(p.plan(1050, others, 0).next).toBe(60);
    // The hold ends before the next turn: the others run at full speed from then on.
    const late = planner();
    late.typed(1000);
    late.plan(2950, others, 0);
    expect(late.plan(2960, others, 0).next).toBe(40);
    // Typing over: every frame again.
    expect(late.plan(3000, others, 0).next).toBe('frame');
  });

  it('the typed pane with output left (a command\'s) keeps the frames coming', () => {
    const p = planner();
    p.typed(1000);
    const plan = p.plan(1010, [{ typedAt: 1000, queued: 2 * M }, { typedAt: -Infinity, queued: M }], 0);
    expect(per(plan.writes, 2)).toEqual([256 * K, 0]);
    expect(plan.next).toBe('frame');
  });

  it('with idle-while-yielding off, the pump asks for every frame (the bench\'s comparison)', () => {
    const p = planner(false);
    p.typed(1000);
    const others = [{ typedAt: 1000, queued: 0 }, { typedAt: -Infinity, queued: M }];
    expect(p.plan(1010, others, 0).next).toBe('frame');
    expect(p.plan(1026, others, 0).next).toBe('frame');
  });

  it('after a bulk write, waits out the gap: by a timer while the others yield, by frames otherwise', () => {
    const quiet = planner(true, true);
    quiet.typed(1000);
    const others = [{ typedAt: 1000, queued: 0 }, { typedAt: -Infinity, queued: M }];
    expect(per(quiet.plan(1010, others, 0).writes, 2)).toEqual([0, 32 * K]); // a bulk write (≥ 16 K)
    expect(quiet.plan(1020, others, 0)).toEqual({ writes: [], next: 20 });
    const flood = planner(true, true);
    flood.plan(1010, [{ typedAt: -Infinity, queued: M }], 0);
    expect(flood.plan(1020, [{ typedAt: -Infinity, queued: M }], 0)).toEqual({ writes: [], next: 'frame' });
  });

  it('the echo goes out past a bulk gap and a full budget; nothing else does', () => {
    const p = planner(true, true);
    p.plan(1000, [{ typedAt: -Infinity, queued: M }], 0); // bulk at 1000
    p.typed(1005);
    const gap = p.plan(1010, [{ typedAt: 1005, queued: 5 }, { typedAt: -Infinity, queued: M }], 0);
    expect(gap.writes).toEqual([[0, 5]]);
    const full = p.plan(1100, [{ typedAt: 1005, queued: 10 * K }, { typedAt: -Infinity, queued: M }], 300 * K);
    expect(full).toEqual({ writes: [[0, 4 * K]], next: 'idle' }); // xterm still parsing: its callbacks ask again
  });

  it('nothing queued: idle', () => {
    const p = planner();
    expect(p.plan(1000, [{ typedAt: -Infinity, queued: 0 }], 0)).toEqual({ writes: [], next: 'idle' });
  });
});
