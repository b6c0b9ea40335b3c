import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { TeamStore } from '../../src/core/store/index.js';
import { tempDir } from './helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

let store: TeamStore;
beforeEach(async () => {
  const ws = tempDir();
  dirs.push(ws);
  store = TeamStore.forWorkspace(ws, {});
  store.init();
  await store.config.create({ name: 'c', members: [{ name: 'alice' }, { name: 'bob' }] });
});

const corruptSiblings = (file: string) => fs.readdirSync(path.dirname(file)).filter((n) => n.startsWith(`${path.basename(file)}.corrupt-`));
const journal = () => store.journal.read();

/** Garbage every file type is fed: none may crash a reader or destroy valid data. */
const GARBAGE: Array<[string, string]> = [
  ['truncated JSON', '[{"id": "x", "from": "a", "te'],
  ['wrong top-level type', '{"not": "an array"}'],
  ['binary noise', '\u0000\u0001\u00ff\u00fe garbage'],
  ['huge string', `"${'x'.repeat(2_000_000)}"`],
];

describe('inbox', () => {
  it.each(GARBAGE)('a whole unparseable inbox (%s) is quarantined, reported, and the next write starts fresh', async (_label, content) => {
    const file = store.paths.inbox('alice');
    fs.writeFileSync(file, content);
    expect(store.inboxes.list('alice')).toEqual([]); // no crash
    expect(await store.inboxes.read('alice')).toEqual([]); // a person's read repairs and reports at once
    expect(journal().some((e) => e.event === 'quarantined' && e.file === 'inboxes/alice.json')).toBe(true);
    await store.send('bob', 'alice', 'after');
    expect(store.inboxes.list('alice').map((m) => m.text)).toEqual(['after']);
    const [aside] = corruptSiblings(file);
    expect(fs.readFileSync(path.join(path.dirname(file), aside!), 'utf8')).toBe(content); // kept byte for byte
    expect(journal().some((e) => e.event === 'quarantined' && e.file === 'inboxes/alice.json')).toBe(true);
  });

  it('malformed messages are skipped for delivery and moved to <agent>.rejected.jsonl with the reason; valid ones kept', async () => {
    await store.send('bob', 'alice', 'valid one');
    const file = store.paths.inbox('alice');
    const arr = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown[];
    arr.push({ id: 'w', from: 'bob', text: 42, timestamp: 1 }, 'a string', { id: 'big', from: 'bob', text: 'y'.repeat(200_000), timestamp: 1 }, null);
    arr.push({ id: 'legacy', from: 'bob', content: 'legacy content', timestamp: 1714000000 }); // thClaws shape (D-7)
    fs.writeFileSync(file, JSON.stringify(arr));
    expect(store.inboxes.unread('alice').map((m) => m.text)).toEqual(['valid one', 'legacy content']);
    await store.send('bob', 'alice', 'second');
    expect(store.inboxes.unread('alice').map((m) => m.text)).toEqual(['valid one', 'legacy content', 'second']);
    const rejected = fs.readFileSync(store.paths.rejected('alice'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { reason: string; message: unknown });
    expect(rejected).toHaveLength(4);
    expect(rejected[0]!.reason).toMatch(/text/);
    expect(journal().filter((e) => e.event === 'rejected')).toHaveLength(4);
  });

  it('a directory where the inbox file should be does not crash and is moved aside', async () => {
    const file = store.paths.inbox('alice');
    fs.mkdirSync(file);
    expect(store.inboxes.list('alice')).toEqual([]);
    await store.send('bob', 'alice', 'hi');
    expect(store.inboxes.list('alice')).toHaveLength(1);
    expect(corruptSiblings(file)).toHaveLength(1);
  });
});

describe('tasks', () => {
  it.each(GARBAGE)('an unparseable task file (%s) is quarantined; other tasks and new ids are unaffected', async (_label, content) => {
    const t1 = await store.tasks.create({ subject: 'one', description: '' });
    const t2 = await store.tasks.create({ subject: 'two', description: '' });
    fs.writeFileSync(store.paths.task(t2.id), content);
    expect((await store.tasks.list()).map((t) => t.id)).toEqual([t1.id]);
    expect(corruptSiblings(store.paths.task(t2.id))).toHaveLength(1);
    const t3 = await store.tasks.create({ subject: 'three', description: '' });
    expect(t3.id).toBe('3');
    await expect(store.tasks.get(t2.id)).rejects.toThrow(/not found/);
  });

  it('wrong field types and an id that does not match the file name are corrupt, not trusted', async () => {
    await store.tasks.create({ subject: 'one', description: '' });
    fs.writeFileSync(store.paths.task('2'), JSON.stringify({ id: '2', subject: 5, status: 'pending' }));
    fs.writeFileSync(store.paths.task('3'), JSON.stringify({ id: '1', subject: 's', description: '', status: 'pending', created_at: 1, updated_at: 1 }));
    expect((await store.tasks.list()).map((t) => t.id)).toEqual(['1']);
    expect(journal().filter((e) => e.event === 'quarantined')).toHaveLength(2);
  });

  it('a missing or garbled _hwm never lets a new task overwrite an existing one (D-8)', async () => {
    for (let i = 0; i < 3; i++) await store.tasks.create({ subject: `t${i}`, description: '' });
    fs.rmSync(store.paths.hwm);
    expect((await store.tasks.create({ subject: 'after missing hwm', description: '' })).id).toBe('4');
    fs.writeFileSync(store.paths.hwm, 'garbage!!');
    expect((await store.tasks.create({ subject: 'after garbled hwm', description: '' })).id).toBe('5');
    fs.writeFileSync(store.paths.hwm, '1');
    expect((await store.tasks.create({ subject: 'after rolled-back hwm', description: '' })).id).toBe('6');
    expect((await store.tasks.get('1')).subject).toBe('t0');
    fs.rmSync(store.paths.hwm);
    fs.mkdirSync(store.paths.hwm); // a directory where the counter should be
    expect((await store.tasks.create({ subject: 'after hwm dir', description: '' })).id).toBe('7');
  });

  it('an unparseable (then quarantined) task still holds its id: the next id skips past it', async () => {
    await store.tasks.create({ subject: 'one', description: '' });
    fs.writeFileSync(store.paths.task('2'), '{broken');
    fs.rmSync(store.paths.hwm);
    const t = await store.tasks.create({ subject: 'new', description: '' });
    expect(t.id).toBe('3');
    expect((await store.tasks.list()).map((x) => x.id)).toEqual(['1', '3']); // listing quarantines it
    const [aside] = corruptSiblings(store.paths.task('2'));
    expect(fs.readFileSync(path.join(store.paths.tasksDir, aside!), 'utf8')).toBe('{broken');
  });
});

describe('status and config', () => {
  it.each(GARBAGE)('an unparseable status file (%s) reads as absent and is quarantined; the next write works', async (_label, content) => {
    await store.statuses.write('alice', { status: 'idle', pid: process.pid });
    fs.writeFileSync(store.paths.status('alice'), content);
    expect(await store.statuses.read('alice')).toBeNull();
    expect(corruptSiblings(store.paths.status('alice'))).toHaveLength(1);
    const view = await store.status();
    expect(view.members.find((m) => m.name === 'alice')!.state).toBe('defined');
    expect((await store.statuses.write('alice', { status: 'working' })).status).toBe('working');
  });

  it.each(GARBAGE)('an unparseable config (%s) is quarantined and reported as "no team", never overwritten', async (_label, content) => {
    fs.writeFileSync(store.paths.config, content);
    await expect(store.status()).rejects.toThrow(/no team/);
    const [aside] = corruptSiblings(store.paths.config);
    expect(fs.readFileSync(path.join(store.dir, aside!), 'utf8')).toBe(content);
  });

  it('unknown fields survive every rewrite', async () => {
    const cfg = JSON.parse(fs.readFileSync(store.paths.config, 'utf8')) as Record<string, unknown>;
    cfg.future_field = { keep: true };
    fs.writeFileSync(store.paths.config, JSON.stringify(cfg));
    await store.config.addMember({ name: 'carol' });
    expect(JSON.parse(fs.readFileSync(store.paths.config, 'utf8')).future_field).toEqual({ keep: true });

    const t = await store.tasks.create({ subject: 's', description: '' });
    const raw = JSON.parse(fs.readFileSync(store.paths.task(t.id), 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(store.paths.task(t.id), JSON.stringify({ ...raw, priority: 'high' }));
    await store.tasks.claim(t.id, 'alice');
    expect(JSON.parse(fs.readFileSync(store.paths.task(t.id), 'utf8')).priority).toBe('high');

    await store.send('bob', 'alice', 'x');
    const inbox = JSON.parse(fs.readFileSync(store.paths.inbox('alice'), 'utf8')) as Array<Record<string, unknown>>;
    inbox[0]!.thread = 'T1';
    fs.writeFileSync(store.paths.inbox('alice'), JSON.stringify(inbox));
    await store.inboxes.markRead('alice', [inbox[0]!.id as string]);
    expect(JSON.parse(fs.readFileSync(store.paths.inbox('alice'), 'utf8'))[0].thread).toBe('T1');
  });
});
