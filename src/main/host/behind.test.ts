/**
 * A view that stops acknowledging (a frozen phone tab, a half-open link, a SIGSTOPped dashboard) must not
 * stall the agent or the other views for good: after FLOW.stallMs it is behind, sent nothing, held for
 * nothing; once it catches up it gets the screen again.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FLOW, type HostEvent } from '../../contract/api.js';
import { FlowGate } from './flow.js';
import { OutputScheduler, type OutputSource } from './scheduler.js';
import { AgentTerminal } from './terminal.js';

class View {
  events: HostEvent[] = [];
  send(e: HostEvent) {
    this.events.push(e);
  }
  chars(agent: string) {
    return this.events.filter((e) => (e.type === 'output' || e.type === 'replay') && e.agent === agent).reduce((n, e) => n + (e as { data: string }).data.length, 0);
  }
}
const until = async (cond: () => boolean, what: string, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

afterEach(() => vi.useRealTimers());

describe('a view that falls behind', () => {
  it('FlowGate: only a view over the mark that has acknowledged nothing for the stall time is stalled', () => {
    vi.useFakeTimers();
    const g = new FlowGate<string>(() => {}, () => {}, 100, 20);
    g.attach('slow');
    g.attach('frozen');
    g.attach('idle');
    g.sent('slow', 150);
    g.sent('frozen', 150);
    vi.advanceTimersByTime(1500);
    g.ack('slow', 10); // slow, but alive
    vi.advanceTimersByTime(600);
    expect(g.stalled(2000)).toEqual(['frozen']);
    expect(g.stalled(3000)).toEqual([]);
  });

  it('AgentTerminal: a frozen view stops holding the agent and the other view, and gets the screen again once it catches up', async () => {
    const sched = new OutputScheduler();
    const t = new AgentTerminal('lead', sched);
    const calls: string[] = [];
    t.setInput({ mode: { kind: 'pty', pid: 1 }, pause: () => calls.push('pause'), resume: () => calls.push('resume') });
    const healthy = new View();
    const frozen = new View();
    t.attach(healthy);
    t.attach(frozen);
    let acked = 0;
    const ackHealthy = setInterval(() => {
      const n = healthy.chars('lead');
      if (n > acked) t.ack(healthy, n - acked);
      acked = n;
    }, 10);
    try {
      for (let i = 0; i < 12; i++) t.push('x'.repeat(64 * 1024));
      expect(calls).toEqual(['pause']);
      // The healthy view acks everything; the frozen one nothing: after the stall time the agent runs again.
      await until(() => calls.includes('resume'), 'the agent resumed', FLOW.stallMs * 5);
      const frozenHad = frozen.chars('lead');
      t.push('y'.repeat(1000));
      await until(() => healthy.chars('lead') === t.seq, 'the healthy view to get the new output');
      expect(frozen.chars('lead')).toBe(frozenHad);
      expect(t.paused).toBe(false);
      // The frozen view wakes and acknowledges what it was sent: it gets today's screen, from today's seq.
      t.ack(frozen, frozenHad);
      const replay = [...frozen.events].reverse().find((e) => e.type === 'replay');
      expect(replay).toMatchObject({ type: 'replay', agent: 'lead' });
      expect(replay && 'seq' in replay && replay.seq).toBeGreaterThan(0);
      t.push('z');
      await until(() => frozen.events.some((e) => e.type === 'output' && e.data === 'z'), 'live output to the view that caught up');
    } finally {
      clearInterval(ackHealthy);
      t.dispose();
      sched.dispose();
    }
  }, 30_000);

  it('OutputScheduler: a view that stops reporting receipt holds bulk output for every pane only until the stall time', () => {
    vi.useFakeTimers();
    const sched = new OutputScheduler(1000, 5, 1000);
    const view = {};
    sched.received(view, 1);
    sched.transit.sent(view, sched.transit.max + 1);
    let left = 500;
    const flood: OutputSource = {
      get queued() {
        return left;
      },
      drain(max: number) {
        const n = Math.min(max, left);
        left -= n;
        return n;
      },
    };
    sched.wake(flood);
    vi.advanceTimersByTime(FLOW.stallMs - 100);
    expect(left).toBe(500);
    vi.advanceTimersByTime(200);
    expect(left).toBe(0);
    sched.dispose();
  });
});
