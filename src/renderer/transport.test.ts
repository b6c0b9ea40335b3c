import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HostEvent } from '../contract/api';
import { HostClient, type Bridge } from './transport';

/** A HostClient over a fake preload bridge: `deliver` hands it a message as Electron main or the WebSocket would. */
function client() {
  let listener: (m: unknown) => void = () => {};
  const bridge: Bridge = { send: () => {}, onMessage: (l) => ((listener = l), () => {}) };
  vi.stubGlobal('window', { thclaws: bridge });
  const c = new HostClient();
  const events: HostEvent[] = [];
  c.onEvent((e) => events.push(e));
  return { deliver: (m: unknown) => listener(m), events };
}

describe('HostClient: a message of several events, one per line', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('hands on every valid event in order; a malformed line or an invalid event is dropped alone', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { deliver, events } = client();
    const out = (seq: number, data: string): HostEvent => ({ type: 'output', agent: 'alice', seq, data });
    deliver([out(0, 'a'), '{"type":"output",', out(1, 'b'), { type: 'output', agent: 'alice', seq: -1, data: 'x' }, out(2, 'c\nd')].map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('\n'));
    expect(events).toEqual([out(0, 'a'), out(1, 'b'), out(2, 'c\nd')]);
    // The invalid event was refused by the contract (the malformed line never parsed as JSON).
    expect(warn).toHaveBeenCalledTimes(1);
    deliver(JSON.stringify(out(3, 'e')));
    expect(events.at(-1)).toEqual(out(3, 'e'));
  });
});
