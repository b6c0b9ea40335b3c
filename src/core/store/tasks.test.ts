import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TeamStore } from './index.js';

let ws: string;
let store: TeamStore;
beforeEach(async () => {
  ws = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-tasks-'));
  store = TeamStore.forWorkspace(ws, {});
  store.init();
  await store.config.create({ name: 't', members: [{ name: 'alice' }, { name: 'bob' }] });
});
afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

const add = (subject: string, extra: { reservedFor?: string; blockedBy?: string[] } = {}) => store.tasks.create({ subject, description: `do ${subject}`, ...extra });

describe('task rules', () => {
  it('claim honours blockers, reservations and one in-progress task per agent', async () => {
    const a = await add('a');
    const b = await add('b', { blockedBy: [a.id] });
    const c = await add('c', { reservedFor: 'bob' });
    await expect(store.tasks.claim(b.id, 'alice')).rejects.toThrow(`task ${b.id} blocked by task ${a.id} (status: pending)`);
    await expect(store.tasks.claim(c.id, 'alice')).rejects.toThrow(`task ${c.id} is reserved for bob`);
    await store.tasks.claim(a.id, 'alice');
    await expect(store.tasks.claim(a.id, 'bob')).rejects.toThrow('is in_progress, not pending');
    await expect(store.tasks.claim(c.id, 'alice')).rejects.toThrow("agent 'alice' is busy with task(s): 1");
    await store.tasks.complete(a.id, 'alice', 'ok');
    expect((await store.tasks.claim(b.id, 'alice')).owner).toBe('alice');
    expect((await store.tasks.get(a.id)).blocks).toEqual([b.id]);
  });

  it('complete only by the owner of an in-progress task', async () => {
    const a = await add('a', { reservedFor: 'alice' });
    await expect(store.tasks.complete(a.id, 'alice')).rejects.toThrow('is pending, not in_progress');
    await store.tasks.claim(a.id, 'alice');
    await expect(store.tasks.complete(a.id, 'bob')).rejects.toThrow('owned by alice, not bob');
    const done = await store.tasks.complete(a.id, 'alice', 'summary');
    expect(done).toMatchObject({ status: 'completed', result: 'summary' });
    await expect(store.tasks.complete(a.id, 'alice')).rejects.toThrow('is completed');
  });

  it('release returns the task to pending and keeps the reservation (D-13)', async () => {
    const a = await add('a', { reservedFor: 'bob' });
    await store.tasks.claim(a.id, 'bob');
    expect(await store.tasks.release(a.id, 'alice')).toBeNull(); // a stale release by a non-owner does nothing
    const r = await store.tasks.release(a.id, 'bob');
    expect(r).toMatchObject({ status: 'pending', owner: null, reserved_for: 'bob', attempts: 1 });
    expect(await store.tasks.claimNext('alice')).toBeNull();
    expect((await store.tasks.claimNext('bob'))?.attempts).toBe(2);
  });

  it('rejects unknown owners listing the known names, unknown blockers, and cycles among existing tasks', async () => {
    await expect(add('x', { reservedFor: 'alcie' })).rejects.toThrow('unknown owner "alcie"; known: lead, user, alice, bob');
    await expect(add('x', { blockedBy: ['9'] })).rejects.toThrow('unknown task(s): 9');
    await expect(add('x', { blockedBy: ['../1'] })).rejects.toThrow('invalid task id');
    const a = await add('a');
    const b = await add('b', { blockedBy: [a.id] });
    // A hand edit closes a loop a -> b -> a; nothing may be stacked on top of it.
    const raw = JSON.parse(fs.readFileSync(store.paths.task(a.id), 'utf8'));
    fs.writeFileSync(store.paths.task(a.id), JSON.stringify({ ...raw, blocked_by: [b.id] }));
    await expect(add('c', { blockedBy: [b.id] })).rejects.toThrow(/dependency cycle: (2 -> 1 -> 2|1 -> 2 -> 1)/);
  });

  it('claimNext skips blocked and foreign-reserved tasks and takes the first ready one in id order', async () => {
    const a = await add('a');
    await add('b', { blockedBy: [a.id] });
    await add('c', { reservedFor: 'bob' });
    const d = await add('d');
    await store.tasks.claim(a.id, 'bob');
    expect((await store.tasks.claimNext('alice'))?.id).toBe(d.id);
  });

  it('a missing blocker is not satisfied (D-18)', async () => {
    const a = await add('a');
    const b = await add('b', { blockedBy: [a.id] });
    fs.rmSync(store.paths.task(a.id));
    await expect(store.tasks.claim(b.id, 'alice')).rejects.toThrow(`blocked by task ${a.id} (status: missing)`);
  });
});

describe('messages', () => {
  it('broadcast reaches every member and the lead except the sender; unknown recipients list known names', async () => {
    const sent = await store.send('alice', '*', 'hello all');
    expect(sent.map((m) => m.to).sort()).toEqual(['bob', 'lead']);
    expect(sent[0]!.summary).toBe('hello all');
    await expect(store.send('user', 'bobb', 'x')).rejects.toThrow('unknown recipient "bobb"; known: lead, user, alice, bob');
    await expect(store.send('user', '../etc', 'x')).rejects.toThrow('invalid recipient');
    await expect(store.send('user', 'bob', 'x'.repeat(100_001))).rejects.toThrow('message too long');
    expect(fs.existsSync(path.join(store.paths.inboxesDir, 'bobb.json'))).toBe(false);
  });

  it('append cost is bounded: read messages beyond the limit move to the archive', async () => {
    for (let i = 0; i < 120; i++) await store.send('alice', 'bob', `m${i}`);
    await store.inboxes.markRead('bob', store.inboxes.unread('bob').map((m) => m.id));
    await store.send('alice', 'bob', 'fresh');
    const live = store.inboxes.list('bob');
    expect(live.length).toBe(51);
    const archived = fs.readFileSync(store.paths.archive('bob'), 'utf8').trim().split('\n');
    expect(archived).toHaveLength(70);
    expect(JSON.parse(archived[0]!).text).toBe('m0');
    expect(store.inboxes.unread('bob').map((m) => m.text)).toEqual(['fresh']);
  });
});

describe('claim gate', () => {
  it('only the process holding an agent lease claims as that agent; others are refused at once', async () => {
    const a = await add('a');
    const b = await add('b');
    const lease = await store.acquireLease('alice');
    const other = TeamStore.forWorkspace(ws, {}); // e.g. `thclaws team task claim --as alice` meanwhile
    await expect(other.tasks.claim(a.id, 'alice')).rejects.toThrow(/already running \(pid \d+ on .*\); only that process claims as alice/);
    expect((await store.tasks.claim(a.id, 'alice')).owner).toBe('alice');
    await expect(store.tasks.claim(b.id, 'alice')).rejects.toThrow("agent 'alice' is busy with task(s): 1");
    // The holder's in-memory view follows changes made elsewhere: once its task is released, it may claim again.
    await other.tasks.release(a.id, 'alice');
    expect((await store.tasks.claim(b.id, 'alice')).id).toBe(b.id);
    await lease.release();
    // Without a live holder a one-shot claimer takes the lease for the claim, and sees the busy state from disk.
    await expect(other.tasks.claim(a.id, 'alice')).rejects.toThrow("agent 'alice' is busy with task(s): 2");
  });

  it('concurrent claims inside the holding process are serialised: never two in-progress tasks', async () => {
    for (let i = 0; i < 6; i++) await add(`t${i}`);
    const lease = await store.acquireLease('bob');
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => store.tasks.claimNext('bob')));
    expect(results.filter((r) => r.status === 'fulfilled' && r.value)).toHaveLength(1);
    expect((await store.tasks.list({ status: 'in_progress' })).map((t) => t.owner)).toEqual(['bob']);
    await lease.release();
  });
});
