import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HostEvent } from '../../contract/api.js';
import { FlowGate } from './flow.js';
import { OutputScheduler, type OutputSource } from './scheduler.js';
import { AgentTerminal, type TerminalInput } from './terminal.js';

describe('FlowGate', () => {
  it('pauses above the high-water mark and resumes only below the low one', () => {
    const log: string[] = [];
    const g = new FlowGate<string>(() => log.push('pause'), () => log.push('resume'), 100, 20);
    g.attach('v');
    g.sent('v', 90);
    expect(log).toEqual([]);
    g.sent('v', 20);
    expect(log).toEqual(['pause']);
    g.ack('v', 50); // 60 outstanding: between the marks, stays paused
    expect(log).toEqual(['pause']);
    g.ack('v', 45);
    expect(log).toEqual(['pause', 'resume']);
  });

  it('follows the slowest view, and a detached view no longer holds the source', () => {
    const log: string[] = [];
    const g = new FlowGate<string>(() => log.push('pause'), () => log.push('resume'), 100, 20);
    g.attach('fast');
    g.attach('slow');
    g.sent('fast', 150);
    g.sent('slow', 150);
    g.ack('fast', 150);
    expect(g.isPaused).toBe(true);
    g.detach('slow');
    expect(log).toEqual(['pause', 'resume']);
  });

  it("counts the host's own parser like one more view: its backlog alone can hold the source, never added to a view's", () => {
    let backlog = 0;
    const g = new FlowGate<string>(() => {}, () => {}, 100, 20, () => backlog);
    g.attach('v');
    g.sent('v', 80);
    backlog = 80; // the same 80 characters, not parsed yet: 80 held, not 160
    g.check(0);
    expect(g.isPaused).toBe(false);
    backlog = 150;
    g.check(0);
    expect(g.isPaused).toBe(true);
    g.ack('v', 80);
    expect(g.isPaused).toBe(true);
    backlog = 10;
    g.check(0);
    expect(g.isPaused).toBe(false);
  });

  it('counts host-queued output and clamps over-acks', () => {
    const g = new FlowGate<string>(() => {}, () => {}, 100, 20);
    g.attach('v');
    g.check(500);
    expect(g.isPaused).toBe(true);
    g.ack('v', 1_000_000, 0);
    expect(g.outstanding('v')).toBe(0);
    expect(g.isPaused).toBe(false);
  });
});

describe('FlowGate edges', () => {
  const gate = () => {
    const log: string[] = [];
    const g = new FlowGate<string>(() => log.push('pause'), () => log.push('resume'), 100, 20);
    return { g, log };
  };

  it('pauses only above the high mark and resumes only below the low one (the marks themselves change nothing)', () => {
    const { g, log } = gate();
    g.attach('v');
    g.sent('v', 100);
    expect(g.isPaused).toBe(false);
    g.sent('v', 1);
    expect(log).toEqual(['pause']);
    g.sent('v', 50); // already paused: no second pause
    g.ack('v', 131); // exactly at the low mark
    expect([g.outstanding('v'), g.isPaused]).toEqual([20, true]);
    g.ack('v', 1);
    expect(log).toEqual(['pause', 'resume']);
    g.ack('v', 5); // already running: no second resume
    expect(log).toEqual(['pause', 'resume']);
  });

  it('adds what the host still queues to the slowest view', () => {
    const { g, log } = gate();
    g.attach('v');
    g.sent('v', 60, 41);
    expect(log).toEqual(['pause']);
    g.ack('v', 60, 19);
    expect(log).toEqual(['pause', 'resume']);
    g.sent('v', 90, 0);
    g.ack('v', 0, 11); // an ack with a longer host queue can pause as well
    expect(log).toEqual(['pause', 'resume', 'pause']);
  });

  it('attaching again keeps what the view owes; a new view starts at zero', () => {
    const { g } = gate();
    g.attach('v');
    g.sent('v', 70);
    g.attach('v');
    expect(g.outstanding('v')).toBe(70);
    g.attach('w');
    expect(g.outstanding('w')).toBe(0);
  });

  it('ignores sends and acks for views it does not know', () => {
    const { g, log } = gate();
    g.sent('ghost', 1000);
    g.ack('ghost', 5);
    expect(g.outstanding('ghost')).toBeUndefined();
    expect([g.isPaused, log]).toEqual([false, []]);
    g.attach('v');
    g.sent('v', 150);
    g.ack('ghost', 1000);
    expect(g.isPaused).toBe(true);
  });

  it('the only slow view detaching resumes the source at once', () => {
    const { g, log } = gate();
    g.attach('v');
    g.sent('v', 500);
    g.detach('v');
    expect(log).toEqual(['pause', 'resume']);
    expect(g.outstanding('v')).toBeUndefined();
    g.attach('w');
    g.sent('w', 500);
    g.detach('w', 150); // the host's own queue still holds it back
    expect(g.isPaused).toBe(true);
  });
});

class View {
  events: HostEvent[] = [];
  send(e: HostEvent) {
    this.events.push(e);
  }
  text(agent: string) {
    return this.events.filter((e) => (e.type === 'output' || e.type === 'replay') && e.agent === agent).map((e) => (e as { data: string }).data).join('');
  }
}

const flush = () => new Promise((r) => setTimeout(r, 30));

describe('AgentTerminal', () => {
  it('numbers output by sequence, batches it, sends a late view the screen then every later character once', async () => {
    const sched = new OutputScheduler();
    const t = new AgentTerminal('alice', sched);
    const a = new View();
    t.attach(a);
    t.push('hello ');
    t.push('world');
    await flush();
    const outs = a.events.filter((e) => e.type === 'output');
    expect(outs).toEqual([{ type: 'output', agent: 'alice', seq: 0, data: 'hello world' }]); // one batch
    const b = new View();
    t.push('!!');
    t.attach(b); // '!!' is pending: b gets it once, after the screen
    await flush();
    // The screen's size first (the view shows the screen at the size it was drawn at), then the screen.
    const [size, replay, ...rest] = b.events as Array<{ type: string; seq: number; data: string; cols?: number; rows?: number }>;
    expect(size).toEqual({ type: 'pty_size', agent: 'alice', cols: 120, rows: 32 });
    expect(replay!.type).toBe('replay');
    expect(b.text('alice')).toContain('hello world');
    // From the screen's offset on, contiguous to the end of the stream.
    let at = replay!.seq;
    for (const e of rest) {
      expect([e.type, e.seq]).toEqual(['output', at]);
      at += e.data.length;
    }
    expect(at).toBe(13);
    expect(b.text('alice').split('!!').length).toBe(2);
    expect(a.text('alice')).toBe('hello world!!');
    t.dispose();
    sched.dispose();
  });

  it('pauses its input when a view does not ack, resumes when it does', async () => {
    const sched = new OutputScheduler();
    const t = new AgentTerminal('bob', sched);
    const calls: string[] = [];
    const input: TerminalInput = { mode: { kind: 'pty', pid: 1 }, pause: () => calls.push('pause'), resume: () => calls.push('resume') };
    t.setInput(input);
    const v = new View();
    t.attach(v);
    for (let i = 0; i < 20; i++) t.push('x'.repeat(64 * 1024));
    expect(calls).toEqual(['pause']);
    await new Promise((r) => setTimeout(r, 60));
    const sent = v.text('bob').length;
    expect(sent).toBe(20 * 64 * 1024);
    t.ack(v, sent);
    // The host's own screen parser may still be behind: the source resumes once both have caught up.
    for (let i = 0; i < 200 && calls.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(calls).toEqual(['pause', 'resume']);
    t.dispose();
    sched.dispose();
  });

  it('a new input (a respawn) attached while the views are behind starts paused', () => {
    const sched = new OutputScheduler();
    const t = new AgentTerminal('r', sched);
    const first: string[] = [];
    t.setInput({ mode: { kind: 'pty', pid: 1 }, pause: () => first.push('pause'), resume: () => first.push('resume') });
    t.attach(new View());
    t.push('z'.repeat(600 * 1024));
    expect(first).toEqual(['pause']);
    const second: string[] = [];
    t.setInput({ mode: { kind: 'pty', pid: 2 }, pause: () => second.push('pause'), resume: () => second.push('resume') });
    expect(second).toEqual(['pause']);
    sched.dispose();
  });

  it('never sends an output event larger than the chunk limit', async () => {
    const sched = new OutputScheduler();
    const t = new AgentTerminal('c', sched);
    const v = new View();
    t.attach(v);
    t.push('y'.repeat(300_000));
    await new Promise((r) => setTimeout(r, 60));
    const sizes = v.events.filter((e) => e.type === 'output').map((e) => (e as { data: string }).data.length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(64 * 1024);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(300_000);
    sched.dispose();
  });
});

describe('AgentTerminal size with several views', () => {
  it('follows the view used last (tmux window-size latest): attaching or re-laying out never takes it over', () => {
    const sched = new OutputScheduler();
    const t = new AgentTerminal('d', sched);
    const sizes: string[] = [];
    t.setInput({ mode: { kind: 'pty', pid: 1 }, pause: () => {}, resume: () => {}, resize: (c, r) => sizes.push(`${c}x${r}`) });
    const desk = new View();
    const phone = new View();
    t.attach(desk);
    t.resize(desk, 200, 50);
    expect(t.size).toEqual({ cols: 200, rows: 50 }); // the first view to show it
    t.attach(phone);
    t.resize(phone, 40, 20); // a phone attaching does not reflow the desktop
    expect(t.size).toEqual({ cols: 200, rows: 50 });
    expect(phone.events.filter((e) => e.type === 'pty_size').at(-1)).toMatchObject({ cols: 200, rows: 50 });
    t.use(phone); // the person types on the phone
    expect(t.size).toEqual({ cols: 40, rows: 20 });
    expect(desk.events.filter((e) => e.type === 'pty_size').at(-1)).toMatchObject({ cols: 40, rows: 20 });
    t.resize(desk, 210, 50); // the desktop's layout changes: still the phone's size
    expect(t.size).toEqual({ cols: 40, rows: 20 });
    t.resize(desk, 220, 50, true); // the person resizes the desktop window (or focuses its terminal)
    expect(t.size).toEqual({ cols: 220, rows: 50 });
    t.resize(phone, 42, 20); // re-layout of the phone
    expect(t.size).toEqual({ cols: 220, rows: 50 });
    t.unsize(new View()); // a view that never showed it changes nothing
    t.use(phone);
    expect(t.size).toEqual({ cols: 42, rows: 20 });
    t.unsize(phone); // the phone hides its pane: the desktop, used before, sizes it again
    expect(t.size).toEqual({ cols: 220, rows: 50 });
    t.resize(phone, 42, 20); // shown again: it is still the view used last
    expect(t.size).toEqual({ cols: 42, rows: 20 });
    t.detach(phone); // gone: back to the desktop
    expect(t.size).toEqual({ cols: 220, rows: 50 });
    t.resize(new View(), 10, 5); // a view that is not attached does not size the pty
    t.use(new View());
    expect(t.size).toEqual({ cols: 220, rows: 50 });
    expect(sizes).toEqual(['200x50', '40x20', '220x50', '42x20', '220x50', '42x20', '220x50']);
    // A respawned process starts at the views' size.
    const again: string[] = [];
    t.setInput({ mode: { kind: 'pty', pid: 2 }, pause: () => {}, resume: () => {}, resize: (c, r) => again.push(`${c}x${r}`) });
    expect(again).toEqual(['220x50']);
    sched.dispose();
  });
});

describe('OutputScheduler', () => {
  it('shares one budget fairly: a flooding source cannot starve a quiet one', async () => {
    const drained: string[] = [];
    const mk = (name: string, total: number): OutputSource & { left: number } => {
      const s = {
        left: total,
        get queued() {
          return s.left;
        },
        drain(max: number) {
          const n = Math.min(max, s.left);
          s.left -= n;
          if (n) drained.push(name);
          return n;
        },
      };
      return s;
    };
    const sched = new OutputScheduler(100_000, 1, 64 * 1024);
    const flood = mk('flood', 10_000_000);
    const quiet = mk('quiet', 1000);
    sched.wake(flood);
    sched.wake(quiet);
    await new Promise((r) => setTimeout(r, 20));
    expect(quiet.left).toBe(0);
    expect(drained.indexOf('quiet')).toBeLessThan(3); // served in the first tick
    expect(flood.left).toBeGreaterThan(0); // the budget, not the flood, set the pace
    sched.dispose();
  });
});

describe('OutputScheduler with a fake clock', () => {
  afterEach(() => vi.useRealTimers());

  /** A source holding `total` characters that records each drain request. */
  const source = (name: string, total: number, log: Array<[string, number]>) => {
    const s = {
      left: total,
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

  it('one batch per window however often it is woken, never more than the budget per window', () => {
    vi.useFakeTimers();
    const log: Array<[string, number]> = [];
    const sched = new OutputScheduler(100, 5, 1000);
    const a = source('a', 1000, log);
    for (let i = 0; i < 5; i++) sched.wake(a);
    vi.advanceTimersByTime(4);
    expect(log).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(a.left).toBe(900);
    vi.advanceTimersByTime(5);
    expect(a.left).toBe(800);
    sched.dispose();
  });

  it('splits the budget evenly, asks for no more than it has left and never for nothing', () => {
    vi.useFakeTimers();
    const log: Array<[string, number]> = [];
    const sched = new OutputScheduler(100, 5, 1000);
    const srcs = ['a', 'b', 'c'].map((n) => source(n, 1000, log));
    for (const s of srcs) sched.wake(s);
    vi.advanceTimersByTime(5);
    expect(srcs.map((s) => 1000 - s.left).reduce((x, y) => x + y)).toBe(100);
    expect(log.slice(0, 3).map(([, m]) => m)).toEqual([33, 33, 33]);
    expect(log.every(([, m]) => m > 0)).toBe(true);
    sched.dispose();
  });

  it('never asks a source with nothing queued', () => {
    vi.useFakeTimers();
    const log: Array<[string, number]> = [];
    const sched = new OutputScheduler(100, 5, 1000);
    const empty = source('empty', 0, log);
    const full = source('full', 1000, log);
    sched.wake(empty);
    sched.wake(full);
    vi.advanceTimersByTime(5);
    expect(log).toEqual([['full', 100]]);
    sched.dispose();
  });

  it('caps each request at the chunk limit', () => {
    vi.useFakeTimers();
    const log: Array<[string, number]> = [];
    const sched = new OutputScheduler(1000, 5, 64);
    sched.wake(source('a', 10_000, log));
    vi.advanceTimersByTime(5);
    expect(Math.max(...log.map(([, m]) => m))).toBe(64);
    expect(log.reduce((n, [, m]) => n + m, 0)).toBe(1000);
    sched.dispose();
  });

  it('takes turns who goes first when the budget is too small for everyone', () => {
    vi.useFakeTimers();
    const log: Array<[string, number]> = [];
    const sched = new OutputScheduler(1, 5, 1000);
    sched.wake(source('a', 10, log));
    sched.wake(source('b', 10, log));
    for (let i = 0; i < 4; i++) vi.advanceTimersByTime(5);
    expect(log.map(([n]) => n)).toEqual(['b', 'a', 'b', 'a']);
    sched.dispose();
  });

  it('keeps going over several windows until the output is sent, then stops its timer; wakes again later', () => {
    vi.useFakeTimers();
    const log: Array<[string, number]> = [];
    const sched = new OutputScheduler(100, 5, 1000);
    const a = source('a', 250, log);
    sched.wake(a);
    vi.advanceTimersByTime(15);
    expect(a.left).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    a.left = 10;
    sched.wake(a);
    vi.advanceTimersByTime(5);
    expect(a.left).toBe(0);
    sched.dispose();
  });

  it('a source that cannot send does not spin the window; a forgotten one is not asked', () => {
    vi.useFakeTimers();
    const log: Array<[string, number]> = [];
    const sched = new OutputScheduler(100, 5, 1000);
    const stuck = { queued: 10, drain: (max: number) => (log.push(['stuck', max]), 0) };
    sched.wake(stuck);
    vi.advanceTimersByTime(5);
    expect(log).toEqual([['stuck', 100]]);
    const b = source('b', 10, log);
    sched.wake(b);
    sched.forget(b);
    sched.forget(stuck);
    vi.advanceTimersByTime(20);
    expect(log).toEqual([['stuck', 100]]);
    expect(vi.getTimerCount()).toBe(0);
    sched.dispose();
  });

  it('dispose stops it', () => {
    vi.useFakeTimers();
    const log: Array<[string, number]> = [];
    const sched = new OutputScheduler(100, 5, 1000);
    sched.wake(source('a', 10, log));
    sched.dispose();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(20);
    expect(log).toEqual([]);
  });
});

