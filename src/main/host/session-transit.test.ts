/**
 * What a view is sent counts toward its output in transit, screen restores included: a view that restores
 * big screens and has not received them holds the other panes' bulk output (flow.ts), so a keystroke's echo
 * is not queued behind megabytes. The view protocol's own counting, through HostSession.send.
 */
import { describe, expect, it } from 'vitest';
import { HostSession } from './session.js';
import { TransitWindow } from './transit.js';

describe('a view session counts what it is sent', () => {
  const viewOf = () => {
    const transit = new TransitWindow<HostSession>(1000);
    const sent: string[] = [];
    const host = { addView: () => undefined, scheduler: { transit } };
    const view = new HostSession(host as never, (e) => sent.push(e.type));
    transit.received(view, 0); // the view reports receipts: it is counted
    return { transit, view, sent };
  };

  it('a screen restore (replay) it has not received holds bulk output, as output does', () => {
    const { transit, view, sent } = viewOf();
    view.send({ type: 'replay', agent: 'alice', seq: 1, data: 'x'.repeat(1500) });
    expect(sent).toEqual(['replay']);
    expect(transit.congested).toBe(true);
    transit.received(view, 1500);
    expect(transit.congested).toBe(false);
    view.send({ type: 'output', agent: 'alice', seq: 2, data: 'y'.repeat(1200) });
    expect(transit.congested).toBe(true);
  });

  it('events that carry no terminal bytes are not counted', () => {
    const { transit, view } = viewOf();
    view.send({ type: 'notice', level: 'info', text: 'z'.repeat(1500) });
    expect(transit.congested).toBe(false);
  });
});
