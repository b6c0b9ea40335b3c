import { describe, expect, it } from 'vitest';
import type { HostEvent } from '../../shared/api.js';
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
  it('numbers output by sequence, batches it, replays scrollback to a late view without duplicates', async () => {
    const sched = new OutputScheduler();
    const t = new AgentTerminal('alice', sched, 10);
    const a = new View();
    t.attach(a);
    t.push('hello ');
    t.push('world');
    await flush();
    const outs = a.events.filter((e) => e.type === 'output');
    expect(outs).toEqual([{ type: 'output', agent: 'alice', seq: 0, data: 'hello world' }]); // one batch
    const b = new View();
    t.push('!!');
    t.attach(b); // '!!' is pending: b gets it in its replay only
    await flush();
    const replay = b.events[0] as { type: string; seq: number; data: string };
    expect(replay.type).toBe('replay');
    expect(replay.seq + replay.data.length).toBe(13);
    expect(b.text('alice').endsWith('world!!')).toBe(true);
    expect(b.text('alice').split('!!').length).toBe(2);
    expect(a.text('alice')).toBe('hello world!!');
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
    expect(calls).toEqual(['pause', 'resume']);
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
