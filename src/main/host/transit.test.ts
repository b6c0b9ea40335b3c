import { afterEach, describe, expect, it, vi } from 'vitest';
import { OutputScheduler } from './scheduler.js';
import { TransitWindow } from './transit.js';

/** A source holding `total` characters that records each drain request; `interactive` as the person types. */
const source = (name: string, total: number, log: Array<[string, number]>, interactive = false) => {
  const s = {
    left: total,
    interactive,
    get queued() {
      return s.left;
    },
    drain(max: number) {
      log.push([name, max]);
      const n = Math.min(max, s.left);
      s.left -= n;
      return n;
    },
  };
  return s;
};

describe('TransitWindow', () => {
  it('counts a view only once it reports receipt, and holds while one view is over the limit', () => {
    const w = new TransitWindow<string>(100);
    w.sent('v', 500); // never reported: not counted, never held
    expect(w.congested).toBe(false);
    w.received('v', 10); // enrolled, at zero
    w.sent('v', 150);
    expect(w.congested).toBe(true);
    w.received('v', 60);
    expect(w.congested).toBe(false);
    w.received('v', 1e6); // an over-report clamps at zero
    w.sent('v', 100);
    expect(w.congested).toBe(false);
    w.sent('v', 1);
    w.remove('v');
    expect(w.congested).toBe(false);
  });
});

describe('OutputScheduler: an echo goes first', () => {
  afterEach(() => vi.useRealTimers());

  it('sends an interactive source\'s small write at once, outside the batch window; bulk waits for the window', () => {
    vi.useFakeTimers();
    const log: Array<[string, number]> = [];
    const sched = new OutputScheduler(1000, 5, 1000);
    sched.wake(source('flood', 500, log));
    sched.wake(source('echo', 1, log, true));
    expect(log).toEqual([['echo', 4096]]);
    vi.advanceTimersByTime(5);
    expect(log).toEqual([['echo', 4096], ['flood', 1000]]);
  });

  it('holds bulk while a view has too much in transit, lets an interactive source through, and resumes on receipt', () => {
    vi.useFakeTimers();
    const log: Array<[string, number]> = [];
    const sched = new OutputScheduler(1000, 5, 1000);
    const view = {};
    sched.received(view, 1);
    sched.transit.sent(view, sched.transit.max + 1);
    const flood = source('flood', 500, log);
    sched.wake(flood);
    // A big interactive write (not an echo) goes through the window, but is still let out while held.
    const typed = source('typed', 10_000, log, true);
    sched.wake(typed);
    vi.advanceTimersByTime(50);
    expect(log.filter(([n]) => n === 'flood')).toEqual([]);
    expect(typed.left).toBe(0);
    // Nothing spins while held and no interactive source waits: one timer, the stall check.
    expect(vi.getTimerCount()).toBe(1);
    sched.received(view, sched.transit.max);
    vi.advanceTimersByTime(0);
    expect(flood.left).toBe(0);
    sched.dispose();
  });

  it('a view that goes away holds nothing back', () => {
    vi.useFakeTimers();
    const log: Array<[string, number]> = [];
    const sched = new OutputScheduler(1000, 5, 1000);
    const view = {};
    sched.received(view, 1);
    sched.transit.sent(view, sched.transit.max + 1);
    const flood = source('flood', 500, log);
    sched.wake(flood);
    vi.advanceTimersByTime(20);
    expect(flood.left).toBe(500);
    sched.removeView(view);
    vi.advanceTimersByTime(0);
    expect(flood.left).toBe(0);
  });
});
