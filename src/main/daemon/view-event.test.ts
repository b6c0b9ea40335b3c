import { afterEach, describe, expect, it, vi } from 'vitest';
import { FLOW, type HostEvent } from '../../contract/api.js';
import { eventMessages, MAIN_REQUEST_ID, SMALL_EVENT_CHARS, viewReplyId } from './view-event.js';

const turn = () => new Promise((r) => setImmediate(r));
/** An output event's JSON text, `n` characters of data (bulk when n > SMALL_EVENT_CHARS). */
const out = (agent: string, n: number, ch = 'x') => JSON.stringify({ type: 'output', agent, seq: 0, data: ch.repeat(n) } satisfies HostEvent);
const BULK = SMALL_EVENT_CHARS + 1000;

describe('eventMessages: the events of one turn of the event loop as one message of lines', () => {
  it("sends one turn's bulk as one message, in order, one event per line; the next turn starts a new message", async () => {
    const sent: string[] = [];
    const send = eventMessages((t) => sent.push(t));
    const notice: HostEvent = { type: 'notice', level: 'info', text: 'y'.repeat(BULK) };
    send(out('a', BULK));
    send(notice);
    send(out('b', BULK, 'z'));
    expect(sent).toEqual([]);
    await turn();
    expect(sent).toEqual([[out('a', BULK), JSON.stringify(notice), out('b', BULK, 'z')].join('\n')]);
    send(out('c', BULK));
    await turn();
    expect(sent.slice(1)).toEqual([out('c', BULK)]);
  });

  it('a small event (an echo) goes at once and ends its message: nothing after it is in the message that carries it', async () => {
    const sent: string[] = [];
    const send = eventMessages((t) => sent.push(t));
    send(out('b', BULK));
    send(out('a', 1, 'k'));
    expect(sent).toEqual([`${out('b', BULK)}\n${out('a', 1, 'k')}`]);
    send(out('c', BULK));
    send(out('d', BULK));
    expect(sent).toHaveLength(1);
    await turn();
    expect(sent.slice(1)).toEqual([`${out('c', BULK)}\n${out('d', BULK)}`]);
  });

  it('by default a message holds a tick of four panes at their largest write (FLOW.maxChunk each)', async () => {
    const sent: string[] = [];
    const send = eventMessages((t) => sent.push(t));
    const full = (agent: string) => out(agent, FLOW.maxChunk - 100);
    for (const a of ['a', 'b', 'c', 'd']) send(full(a));
    send(full('e'));
    await turn();
    expect(sent).toEqual([['a', 'b', 'c', 'd'].map(full).join('\n'), full('e')]);
  });

  it('never makes a message longer than maxChars: a line that would pass it starts the next; a longer event goes alone', async () => {
    const sent: string[] = [];
    const send = eventMessages((t) => sent.push(t), 15_000);
    const [a, b, c, d, e, f] = ['a', 'b', 'c', 'd', 'e', 'f'].map((ch, i) => ch.repeat([5000, 5000, 5000, 16_000, 5000, 9999][i]!));
    for (const t of [a, b, c, d, e, f]) send(t!);
    await turn();
    // a\nb is 10,001 characters; with \nc it would be 15,002; e\nf is exactly 15,000.
    expect(sent).toEqual([`${a}\n${b}`, c, d, `${e}\n${f}`]);
  });
});

describe("viewReplyId: a reply's id, for Electron main to tell its own reply from the page's", () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads it from the head of the line as the host writes it, without parsing the line', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const result = { big: 'x'.repeat(10_000) };
    expect(viewReplyId(JSON.stringify({ type: 'reply', id: MAIN_REQUEST_ID, ok: true, result }))).toBe(MAIN_REQUEST_ID);
    expect(viewReplyId(JSON.stringify({ type: 'reply', id: 1234, ok: false, error: 'no' }))).toBe(1234);
    expect(viewReplyId(JSON.stringify({ type: 'reply', id: -1, ok: false, error: 'no' }))).toBe(-1);
    expect(viewReplyId(JSON.stringify({ type: 'output', agent: 'a', seq: 0, data: 'x' }))).toBeNull();
    expect(parse).not.toHaveBeenCalled();
  });

  it('parses a reply written otherwise (keys in another order); an event made in this process is read as it is', () => {
    expect(viewReplyId(`{"type":"reply","ok":true,"id":${MAIN_REQUEST_ID}}`)).toBe(MAIN_REQUEST_ID);
    expect(viewReplyId('{"type":"reply","ok":true}')).toBeNull();
    expect(viewReplyId({ type: 'reply', id: 7, ok: true })).toBe(7);
    expect(viewReplyId({ type: 'notice', level: 'info', text: 'x' })).toBeNull();
  });
});
