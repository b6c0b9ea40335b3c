import { describe, expect, it } from 'vitest';
import type { HostEvent } from '../../contract/api.js';
import { eventMessages } from './view-event.js';

const turn = () => new Promise((r) => setImmediate(r));

describe('eventMessages: the events of one turn of the event loop as one message of lines', () => {
  it('sends one turn\'s events as one message, in order, one per line; the next turn starts a new message', async () => {
    const sent: string[] = [];
    const send = eventMessages((t) => sent.push(t));
    const notice: HostEvent = { type: 'notice', level: 'info', text: 'made here' };
    send('{"type":"output","agent":"a","seq":0,"data":"x"}');
    send(notice);
    send('{"type":"output","agent":"b","seq":0,"data":"y\\nz"}');
    expect(sent).toEqual([]);
    await turn();
    expect(sent).toEqual([`{"type":"output","agent":"a","seq":0,"data":"x"}\n${JSON.stringify(notice)}\n{"type":"output","agent":"b","seq":0,"data":"y\\nz"}`]);
    send('{"type":"reply","id":1,"ok":true}');
    await turn();
    expect(sent.slice(1)).toEqual(['{"type":"reply","id":1,"ok":true}']);
  });

  it('never makes a message longer than maxChars: a line that would pass it starts the next; a longer event goes alone', async () => {
    const sent: string[] = [];
    const send = eventMessages((t) => sent.push(t), 10);
    for (const t of ['aaa', 'bbb', 'ccc', 'dddddddddddd', 'ee', 'fffffff']) send(t);
    await turn();
    // aaa\nbbb is 7 characters; with \nccc it would be 11.
    expect(sent).toEqual(['aaa\nbbb', 'ccc', 'dddddddddddd', 'ee\nfffffff']);
    expect(sent.every((m) => m.length <= 10 || !m.includes('\n'))).toBe(true);
  });
});
