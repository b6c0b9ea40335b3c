import { describe, expect, it } from 'vitest';
import { AckBatcher, FrameBudget } from './write-pacing';

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
});
