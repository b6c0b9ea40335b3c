import { describe, expect, it } from 'vitest';
import { FramePlanner } from './frame-plan';
import { FrameBudget, TypingYield } from './write-pacing';

const K = 1024;
const M = 1024 * K;

function planner(idleWhileYielding = true, bulk = false, echoWaitMs = 0): FramePlanner {
  const budget = new FrameBudget({ targetMs: 30, min: 16 * K, max: M, start: 256 * K, ...(bulk ? { bulkChars: 16 * K, bulkGapMs: 30 } : {}) });
  const typing = new TypingYield({ holdMs: 2000, otherGapMs: 100, otherChars: 32 * K, echoWaitMs });
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

  it('the other panes yield to the typed pane: one small write per gap, after an echo, one pane at a time', () => {
    const p = planner();
    p.typed(1000);
    const panes = [{ typedAt: 1000, queued: 1 }, { typedAt: -Infinity, queued: M }, { typedAt: -Infinity, queued: M }];
    // The echo first, then one other pane gets at most 32 K (not the 256 K budget a flood gets otherwise).
    const first = p.plan(1010, panes, 0);
    expect(first.writes[0]).toEqual([0, 1]);
    expect(per(first.writes, 3)).toEqual([1, 32 * K, 0]);
    // Within the gap the others get nothing, frame after frame.
    expect(per(p.plan(1026, [{ typedAt: 1000, queued: 0 }, ...panes.slice(1)], 0).writes, 3)).toEqual([0, 0, 0]);
    // After the gap, the next pane's turn comes with the next echo (TypingYield's phase lock).
    expect(per(p.plan(1111, [{ typedAt: 1000, queued: 0 }, ...panes.slice(1)], 0).writes, 3)).toEqual([0, 0, 0]);
    p.echoed(1200);
    expect(per(p.plan(1205, [{ typedAt: 1000, queued: 0 }, ...panes.slice(1)], 0).writes, 3)).toEqual([0, 0, 0]); // the echo's frame
    expect(per(p.plan(1221, [{ typedAt: 1000, queued: 0 }, ...panes.slice(1)], 0).writes, 3)).toEqual([0, 0, 32 * K]);
  });

  it('while only the yielding panes have output, the pump sleeps until their next turn instead of ticking every frame', () => {
    const p = planner();
    p.typed(1000);
    const others = [{ typedAt: 1000, queued: 0 }, { typedAt: -Infinity, queued: M }, { typedAt: -Infinity, queued: M }];
    // One pane wrote at 1010; with no echo to lock to, the next turn is at the fourth gap (1410).
    expect(p.plan(1010, others, 0).next).toBe(400);
    expect(p.plan(1050, others, 0).next).toBe(360);
    // After an echo the turn is due (the gap is over): the pump runs again just after its frame, by a timer.
    p.echoed(1120);
    expect(p.plan(1121, others, 0)).toEqual({ writes: [], next: 1 });
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

  it('the others\' turn waits for the echo of the last keystroke and never shares the frame that draws it', () => {
    const p = planner(true, false, 100);
    const others = (typedAt: number, queued = 0) => [{ typedAt, queued }, { typedAt: -Infinity, queued: M }];
    p.typed(1000);
    expect(per(p.plan(1005, others(1000), 0).writes, 2)).toEqual([0, 32 * K]); // the first turn: nothing held yet
    // The next key: the others' turn is due (gap over) but waits for its echo, sleeping until the wait ends.
    p.typed(1150);
    expect(p.plan(1160, others(1150), 0)).toEqual({ writes: [], next: 245 }); // no echo by then: the fourth gap
    // The echo, written on arrival outside a plan: its frame draws it alone; the others go in the frame after.
    p.echoed(1165);
    expect(p.plan(1170, others(1150), 0)).toEqual({ writes: [], next: 1 });
    expect(per(p.plan(1186, others(1150), 0).writes, 2)).toEqual([0, 32 * K]);
    // An echo written by the plan itself: the same.
    p.typed(1300);
    expect(p.plan(1310, others(1300, 1), 0).writes).toEqual([[0, 1]]);
    expect(per(p.plan(1326, others(1300), 0).writes, 2)).toEqual([0, 32 * K]);
    // A key with no echo: the turn comes at the fourth gap after the last one.
    p.typed(1500);
    expect(p.plan(1725, others(1500), 0).writes).toEqual([]);
    expect(per(p.plan(1726, others(1500), 0).writes, 2)).toEqual([0, 32 * K]);
  });

  it('a held turn comes after 4 gaps at the latest, keys or not (the others are never starved)', () => {
    const p = planner(true, false, 100);
    const others = (typedAt: number) => [{ typedAt, queued: 0 }, { typedAt: -Infinity, queued: M }];
    p.typed(1000);
    expect(per(p.plan(1005, others(1000), 0).writes, 2)).toEqual([0, 32 * K]);
    // Keys every 50 ms, no echo ever: each key would hold the turn again.
    for (let t = 1050; t < 1400; t += 50) {
      p.typed(t);
      expect(p.plan(t + 1, others(t), 0).writes).toEqual([]);
    }
    p.typed(1400);
    expect(per(p.plan(1405, others(1400), 0).writes, 2)).toEqual([0, 32 * K]);
  });

  it('with echo-first off, the others\' turn ignores the echo (the bench\'s comparison)', () => {
    const p = planner(true, false, 100);
    p.echoFirst = false;
    p.typed(1000);
    p.plan(1005, [{ typedAt: 1000, queued: 0 }, { typedAt: -Infinity, queued: M }], 0);
    p.typed(1150);
    expect(per(p.plan(1160, [{ typedAt: 1150, queued: 1 }, { typedAt: -Infinity, queued: M }], 0).writes, 2)).toEqual([1, 32 * K]);
  });

  it('nothing queued: idle', () => {
    const p = planner();
    expect(p.plan(1000, [{ typedAt: -Infinity, queued: 0 }], 0)).toEqual({ writes: [], next: 'idle' });
  });
});
