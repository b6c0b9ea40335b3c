/** The waiter of one request: a very long timeout (past a timer's range) still waits for the answer. */
import { describe, expect, it } from 'vitest';
import { ResponseWaiters } from './approvals.js';

describe('ResponseWaiters', () => {
  it('a timeout past 2^31-1 ms waits instead of timing out at once', async () => {
    const w = new ResponseWaiters();
    const p = w.wait('r1', 3_000_000_000, new AbortController().signal);
    await new Promise((r) => setTimeout(r, 50));
    expect(w.deliver({ id: 1, from: 'user', to: 'alice', text: '', timestamp: '', request_id: 'r1', allow: true } as never)).toBe(true);
    expect(await p).toMatchObject({ allow: true, from: 'user' });
  });
});
