import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { waitForWake } from './wake-wait.js';

describe('waitForWake (the lead waiting for its team)', () => {
  it('leaves no abort listener on the run signal however each wait ends (woken, timed out)', async () => {
    const run = new AbortController();
    for (let i = 0; i < 12; i++) await waitForWake(run.signal, 60_000, (wake) => setImmediate(wake));
    for (let i = 0; i < 12; i++) await waitForWake(run.signal, 1, () => {});
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('ends at once when the run is aborted, before or during the wait', async () => {
    const run = new AbortController();
    const waiting = waitForWake(run.signal, 60_000, () => {});
    run.abort();
    await waiting;
    await waitForWake(run.signal, 60_000, () => {});
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });
});
