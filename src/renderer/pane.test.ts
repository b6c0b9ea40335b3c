import { describe, expect, it } from 'vitest';
import { FLOW } from '../contract/api';
import { addHistory, dropQueue, markResize, newPane, paneText, requeueHistory, takeChunk, WRITE_SLICE } from './pane';

describe('pane bookkeeping', () => {
  it('never hands out a chunk across a pending size mark, and counts the mark down', () => {
    const p = newPane('bob');
    p.queue = ['a'.repeat(10)];
    markResize(p, { cols: 80, rows: 24 }); // after the 10 queued
    p.queue = ['a'.repeat(10) + 'b'.repeat(10)]; // more output joined to the same chunk
    markResize(p, { cols: 90, rows: 30 }); // after the next 10
    expect(p.resizes.map((r) => r.ahead)).toEqual([10, 10]);
    expect(takeChunk(p, 100)?.chunk).toBe('a'.repeat(10));
    expect(p.resizes.map((r) => r.ahead)).toEqual([0, 10]);
    // No terminal: the due mark stays until one is mounted; nothing crosses it.
    expect(takeChunk(p, 100)).toBeNull();
    expect(p.queue).toEqual(['b'.repeat(10)]);
  });

  it('a pane with no terminal (not shown) reads as its history, exactly as it came', () => {
    const p = newPane('bob');
    addHistory(p, 'row 1\r\nro');
    addHistory(p, 'w 2\r\n');
    expect(paneText(p)).toBe('row 1\r\nrow 2\r\n');
  });

  it('splits at the frame budget and at WRITE_SLICE', () => {
    const p = newPane('bob');
    p.queue = ['x'.repeat(WRITE_SLICE + 5)];
    expect(takeChunk(p, 3)?.chunk).toBe('xxx');
    expect(takeChunk(p, Infinity)?.chunk.length).toBe(WRITE_SLICE);
    expect(takeChunk(p, Infinity)?.chunk.length).toBe(2);
    expect(takeChunk(p, Infinity)).toBeNull();
  });

  it('a rewritten history is acknowledged already: neither its write nor its drop acknowledges it again', () => {
    const p = newPane('bob');
    addHistory(p, 'hello');
    expect(requeueHistory(p)).toBe(true);
    p.queue.push('new');
    expect(takeChunk(p, 3)).toEqual({ chunk: 'hel', preacked: 3 });
    expect(dropQueue(p)).toBe(3); // 'lo' acknowledged before, 'new' not
    expect(p.queue).toEqual([]);
    expect(p.preacked).toBe(0);
  });

  it('keeps at most the host scrollback in the history, always the newest chunk', () => {
    const p = newPane('bob');
    const chunk = 'y'.repeat(Math.ceil(FLOW.scrollback / 3));
    for (let i = 0; i < 10; i++) addHistory(p, chunk);
    expect(p.historyChars).toBeLessThan(FLOW.scrollback + chunk.length);
    expect(p.historyChars).toBe(p.history.reduce((n, h) => n + h.length, 0));
    addHistory(p, 'z'.repeat(FLOW.scrollback * 2));
    expect(p.history.length).toBe(1);
  });
});
