import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_SPEND_CALLS, TeamStore } from './index.js';

const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-spend-'));
afterAll(() => fs.rmSync(ws, { recursive: true, force: true }));
const call = (n: number) => ({ input_tokens: n, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });

describe('spend history', () => {
  it('each accounted call is kept per agent with its time, tokens and cost (unknown stays unknown), and a new store reads it back', async () => {
    const store = TeamStore.forWorkspace(ws, {});
    store.init();
    const before = Date.now();
    await store.statuses.account('alice', call(99), 0.5);
    await store.statuses.account('alice', call(9), null);
    await store.statuses.account('bob', call(4), 0);
    // Another process's store (a restarted host): the same calls.
    const again = TeamStore.forWorkspace(ws, {});
    const calls = await again.spend.read('alice');
    expect(calls.map(({ tokens, usd }) => [tokens, usd])).toEqual([[100, 0.5], [10, null]]);
    expect(calls[0]!.at).toBeGreaterThanOrEqual(before);
    expect(await again.spend.read('bob')).toMatchObject([{ tokens: 5, usd: 0 }]);
    expect(await again.spend.read('carol')).toEqual([]);
    // A refused call (a bad count) leaves no point either.
    await expect(store.statuses.account('bob', { ...call(1), input_tokens: -1 }, 0.1)).rejects.toThrow();
    await expect(store.statuses.account('bob', call(1), Number.NaN)).rejects.toThrow(/invalid cost/);
    expect(await again.spend.read('bob')).toHaveLength(1);
  });

  it(`keeps the newest ${MAX_SPEND_CALLS} calls`, async () => {
    const store = TeamStore.forWorkspace(ws, {});
    fs.mkdirSync(store.paths.agentDir('dave'), { recursive: true });
    const old = Array.from({ length: MAX_SPEND_CALLS }, (_, i) => ({ at: i, tokens: i, usd: 0 }));
    fs.writeFileSync(store.paths.spend('dave'), JSON.stringify({ calls: old }));
    await store.statuses.account('dave', call(999_999), 1);
    const calls = await store.spend.read('dave');
    expect(calls).toHaveLength(MAX_SPEND_CALLS);
    expect(calls[0]!.tokens).toBe(1);
    expect(calls.at(-1)!.tokens).toBe(1_000_000);
  });

  it('a malformed file is moved aside, never overwritten; the history starts again from the next call', async () => {
    const store = TeamStore.forWorkspace(ws, {});
    fs.mkdirSync(store.paths.agentDir('erin'), { recursive: true });
    const file = store.paths.spend('erin');
    fs.writeFileSync(file, '{"calls": [{"at": 1, "tokens": "lots"}]}');
    expect(await store.spend.read('erin')).toEqual([]);
    const moved = fs.readdirSync(path.dirname(file)).filter((f) => f.startsWith('spend.json.corrupt-'));
    expect(moved).toHaveLength(1);
    expect(fs.readFileSync(path.join(path.dirname(file), moved[0]!), 'utf8')).toBe('{"calls": [{"at": 1, "tokens": "lots"}]}');
    // The same on a write: the bad file kept aside, the new call written.
    fs.writeFileSync(file, 'not json');
    await store.statuses.account('erin', call(1), 0.01);
    expect(fs.readdirSync(path.dirname(file)).filter((f) => f.startsWith('spend.json.corrupt-'))).toHaveLength(2);
    expect(await store.spend.read('erin')).toMatchObject([{ tokens: 2, usd: 0.01 }]);
    expect(store.journal.read().filter((e) => e.event === 'quarantined' && e.file.endsWith('spend.json'))).toHaveLength(2);
  });
});
