import { describe, expect, it } from 'vitest';
import { AckBatcher, FrameBudget, TypingYield } from './write-pacing';

describe('FrameBudget', () => {
  it('shrinks in proportion to a late frame and grows back while frames are on time', () => {
    const b = new FrameBudget({ targetMs: 30, min: 1000, max: 100_000, start: 60_000 });
    expect(b.frame(60, true)).toBe(30_000); // twice as late: half the characters
    expect(b.frame(400, true)).toBe(7_500); // a stall shrinks at most to a quarter per frame
    expect(b.frame(16, true)).toBeGreaterThan(7_500);
    for (let i = 0; i < 50; i++) b.frame(16, true);
    expect(b.chars).toBe(100_000);
    for (let i = 0; i < 50; i++) b.frame(500, true);
    expect(b.chars).toBe(1000);
  });

  it('learns nothing from frames that wrote nothing', () => {
    const b = new FrameBudget({ targetMs: 30, min: 1000, max: 100_000, start: 50_000 });
    expect(b.frame(900, false)).toBe(50_000);
    expect(b.frame(0, true)).toBe(50_000);
    expect(b.frame(25, true)).toBe(50_000); // on time but not early: unchanged
  });

  it('after a bulk write, holds the next write back for the gap; small writes are never held', () => {
    const b = new FrameBudget({ targetMs: 30, min: 1000, max: 100_000, bulkChars: 16_000, bulkGapMs: 30 });
    expect(b.ready(1000)).toBe(true);
    b.wrote(1000, 500); // a keystroke's echo
    expect(b.ready(1001)).toBe(true);
    b.wrote(1001, 20_000);
    expect(b.ready(1017)).toBe(false);
    expect(b.ready(1031)).toBe(true);
  });
});

describe('FrameBudget edges', () => {
  it('starts at the minimum unless told otherwise', () => {
    expect(new FrameBudget({ targetMs: 30, min: 1234, max: 100_000 }).chars).toBe(1234);
  });

  it('a frame exactly on target, or exactly at three quarters of it, changes nothing', () => {
    const b = new FrameBudget({ targetMs: 40, min: 1000, max: 100_000, start: 10_000 });
    expect(b.frame(40, true)).toBe(10_000);
    expect(b.frame(30, true)).toBe(10_000);
    expect(b.frame(29.9, true)).toBe(12_500);
    expect(b.frame(Number.NaN, true)).toBe(12_500);
    expect(b.frame(-5, true)).toBe(12_500);
  });

  it('rounds a shrinking budget down and a growing one up', () => {
    const b = new FrameBudget({ targetMs: 30, min: 10, max: 100_000, start: 1001 });
    expect(b.frame(60, true)).toBe(500);
    expect(b.frame(10, true)).toBe(625);
    expect(b.frame(10, true)).toBe(782);
  });

  it('never leaves its bounds', () => {
    const b = new FrameBudget({ targetMs: 30, min: 1000, max: 1200, start: 1100 });
    expect(b.frame(10, true)).toBe(1200);
    expect(b.frame(31, true)).toBe(1161);
    expect(b.frame(10_000, true)).toBe(1000);
  });

  it('a write of exactly the bulk size holds the next one back for exactly the gap', () => {
    const b = new FrameBudget({ targetMs: 30, min: 1000, max: 100_000, bulkChars: 16_000, bulkGapMs: 30 });
    b.wrote(1000, 16_000);
    expect(b.ready(1029)).toBe(false);
    expect(b.ready(1030)).toBe(true);
  });

  it('without a bulk size nothing is held back; without a gap a bulk write holds nothing back', () => {
    const noBulk = new FrameBudget({ targetMs: 30, min: 1000, max: 100_000, bulkGapMs: 30 });
    noBulk.wrote(1000, 10_000_000);
    expect(noBulk.ready(1000)).toBe(true);
    const noGap = new FrameBudget({ targetMs: 30, min: 1000, max: 100_000, bulkChars: 10 });
    noGap.wrote(1000, 100);
    expect(noGap.ready(1000)).toBe(true);
  });
});

describe('AckBatcher', () => {
  it('sends one ack per agent per task, with the sum', async () => {
    const sent: Array<[string, number]> = [];
    const acks = new AckBatcher((a, n) => sent.push([a, n]));
    acks.add('a', 100);
    acks.add('b', 5);
    acks.add('a', 23);
    expect(sent).toEqual([]);
    await Promise.resolve();
    expect(sent).toEqual([['a', 123], ['b', 5]]);
    acks.add('a', 0); // an empty write still acknowledges (the host counts at least one)
    await Promise.resolve();
    expect(sent.at(-1)).toEqual(['a', 1]);
  });

  it('a flush with nothing pending sends nothing; a flush by hand empties the batch', async () => {
    const sent: Array<[string, number]> = [];
    const acks = new AckBatcher((a, n) => sent.push([a, n]));
    acks.flush();
    expect(sent).toEqual([]);
    acks.add('a', 7);
    acks.flush();
    await Promise.resolve();
    expect(sent).toEqual([['a', 7]]);
  });
});

describe('TypingYield', () => {
  const opts = { holdMs: 2000, otherGapMs: 100, otherChars: 32_000 };
  const idle = -Infinity;

  it('is inactive until the person types, and for holdMs after the last keystroke', () => {
    const y = new TypingYield(opts);
    expect(y.active(0)).toBe(false);
    y.typed(1000);
    expect(y.active(1000)).toBe(true);
    expect(y.active(2999)).toBe(true);
    expect(y.active(3000)).toBe(false);
    y.typed(500); // an older keystroke (another pane) does not shorten the hold
    expect(y.active(2999)).toBe(true);
  });

  it('the typed pane takes the room first; then one other pane gets a small write', () => {
    const y = new TypingYield(opts);
    y.typed(1000);
    const panes = [{ typedAt: idle, queued: 500_000 }, { typedAt: 1000, queued: 3 }, { typedAt: idle, queued: 500_000 }];
    expect(y.plan(1010, panes, 100_000)).toEqual([[1, 3], [0, 32_000]]);
  });

  it('the other panes get one write per gap, in turn, never more than the room leaves (each turn just after an echo)', () => {
    const y = new TypingYield(opts);
    y.typed(1000);
    const panes = [{ typedAt: 1000, queued: 0 }, { typedAt: idle, queued: 500_000 }, { typedAt: idle, queued: 10 }, { typedAt: idle, queued: 500_000 }];
    expect(y.plan(1010, panes, 100_000)).toEqual([[1, 32_000]]);
    y.echoed(1040);
    expect(y.plan(1050, panes, 100_000)).toEqual([]); // within the gap: the frame draws only the typed pane
    y.echoed(1100);
    expect(y.plan(1109, panes, 100_000)).toEqual([]);
    expect(y.plan(1110, panes, 100_000)).toEqual([[2, 10]]);
    y.echoed(1200);
    expect(y.plan(1210, panes, 5000)).toEqual([[3, 5000]]);
    y.echoed(1300);
    expect(y.plan(1310, panes, 100_000)).toEqual([[1, 32_000]]);
  });

  it('phase lock: while the person types, the others\' turn comes right after an echo, or at the fourth gap', () => {
    const y = new TypingYield(opts);
    const panes = [{ typedAt: 1000, queued: 0 }, { typedAt: idle, queued: 500_000 }, { typedAt: idle, queued: 500_000 }];
    y.typed(1000);
    expect(y.plan(1010, panes, 100_000)).toEqual([[1, 32_000]]); // the first turn: nothing to lock to yet
    y.echoed(1030);
    // The gap is over, but the echo was 50 ms ago or more: the turn waits for the next echo.
    expect(y.plan(1110, panes, 100_000)).toEqual([]);
    expect(y.nextOtherIn(1110)).toBe(300); // or for the fourth gap after the last turn (1410)
    y.typed(1140);
    y.echoed(1150);
    expect(y.nextOtherIn(1151)).toBe(0); // due: the pump runs just after the echo's frame
    expect(y.plan(1199, panes, 100_000)).toEqual([[2, 32_000]]); // within 50 ms of the echo
    // A second echo within the gap: no turn (one per gap), and none after its window closed.
    y.echoed(1250);
    expect(y.plan(1260, panes, 100_000)).toEqual([]);
    expect(y.plan(1300, panes, 100_000)).toEqual([]);
    // An echo 50 ms ago is past its window.
    y.echoed(1320);
    expect(y.plan(1370, panes, 100_000)).toEqual([]);
    // No echo (the keys echo nothing): the fourth gap after the last turn, never later.
    expect(y.plan(1598, panes, 100_000)).toEqual([]);
    expect(y.plan(1599, panes, 100_000)).toEqual([[1, 32_000]]);
  });

  it('phase lock: a turn found past the echo\'s window (its frame came late) sleeps until the fourth gap, as plan holds it', () => {
    const y = new TypingYield(opts);
    const panes = [{ typedAt: 1150, queued: 0 }, { typedAt: idle, queued: 500_000 }];
    y.typed(1000);
    expect(y.plan(1005, panes, 100_000)).toEqual([[1, 32_000]]);
    y.typed(1150);
    y.echoed(1151); // the gap is over (1105): the turn is due with this echo's frame
    // That frame came 60 ms late: the window after the echo has closed, so plan holds the turn...
    expect(y.plan(1211, panes, 100_000)).toEqual([]);
    // ...and the pump sleeps until the fourth gap (1405), not polling a turn plan will not give.
    expect(y.nextOtherIn(1211)).toBe(194);
    expect(y.plan(1405, panes, 100_000)).toEqual([[1, 32_000]]);
    // Exactly 50 ms after an echo its window has closed (as for plan): a gap ending then, or a pump running then.
    y.echoed(1455);
    expect(y.nextOtherIn(1460)).toBe(345);
    expect(y.nextOtherIn(1505)).toBe(300);
  });

  it('a typed pane with a lot queued (a command\'s output) keeps the whole room; nothing is left for the others', () => {
    const y = new TypingYield(opts);
    y.typed(1000);
    const panes = [{ typedAt: idle, queued: 500_000 }, { typedAt: 1000, queued: 900_000 }];
    expect(y.plan(1500, panes, 200_000)).toEqual([[1, 200_000]]);
    expect(y.plan(1600, [panes[0]!, { typedAt: 1000, queued: 0 }], 200_000)).toEqual([[0, 32_000]]);
  });

  it('a pane typed into longer ago than the hold is one of the others', () => {
    const y = new TypingYield(opts);
    y.typed(1000);
    y.typed(2500);
    const panes = [{ typedAt: 1000, queued: 50_000 }, { typedAt: 2500, queued: 0 }];
    expect(y.plan(3000, panes, 100_000)).toEqual([[0, 32_000]]);
    expect(y.plan(3050, panes, 100_000)).toEqual([]);
  });
});
