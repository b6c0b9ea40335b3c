import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TeamStore } from './index.js';
import { LIMITS } from '../../contract/limits.js';

let ws: string;
let store: TeamStore;
beforeEach(async () => {
  ws = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-limits-'));
  store = TeamStore.forWorkspace(ws, {});
  store.init();
  await store.config.create({ name: 't', members: [{ name: 'alice' }, { name: 'bob' }] });
});
afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

const rejectedCount = () => (fs.existsSync(store.paths.rejected('bob')) ? fs.readFileSync(store.paths.rejected('bob'), 'utf8').trim().split('\n').length : 0);

describe('send accepts only what read accepts', () => {
  it('a summary over the limit is refused at send; a default summary of one huge word is cut and read back', async () => {
    await expect(store.send('alice', 'bob', 'hi', { summary: 's'.repeat(LIMITS.summaryChars + 1) })).rejects.toMatchObject({ code: 'invalid', message: expect.stringContaining('summary too long') });
    await store.send('alice', 'bob', 'w'.repeat(LIMITS.messageChars));
    await store.send('alice', 'bob', 'short', { summary: 's'.repeat(LIMITS.summaryChars) });
    expect(await store.inboxes.read('bob')).toHaveLength(2);
    expect(rejectedCount()).toBe(0);
  });
});

describe('task ids and the id counter', () => {
  it.each([['3000000'], ['999999999999999'], ['99999999999999999999']])('a _hwm of %s far beyond the highest task is journalled and not trusted', async (hwm) => {
    await store.tasks.create({ subject: 'one', description: '' });
    fs.writeFileSync(store.paths.hwm, hwm);
    const t = await store.tasks.create({ subject: 'two', description: '' });
    expect(t.id).toBe('2');
    expect(store.journal.read().some((e) => e.event === 'note' && e.file === 'tasks/_hwm')).toBe(true);
    expect(await store.tasks.claimNext('alice')).not.toBeNull(); // probes stop at the highest real id
  });

  it('a counter within the plausible range is honoured (ids of removed tasks are not reused)', async () => {
    await store.tasks.create({ subject: 'one', description: '' });
    fs.writeFileSync(store.paths.hwm, '40');
    expect((await store.tasks.create({ subject: 'two', description: '' })).id).toBe('41');
  });

  it('a hand-written blocker id longer than the limit makes that task corrupt (quarantined), not a crash in claim', async () => {
    const a = await store.tasks.create({ subject: 'a', description: '' });
    const b = await store.tasks.create({ subject: 'b', description: '' });
    const raw = JSON.parse(fs.readFileSync(store.paths.task(b.id), 'utf8'));
    fs.writeFileSync(store.paths.task(b.id), JSON.stringify({ ...raw, blocked_by: ['1'.repeat(LIMITS.taskIdMaxDigits + 5)] }));
    await expect(store.tasks.claim(b.id, 'bob')).rejects.toMatchObject({ code: 'not_found' });
    expect((await store.tasks.list()).map((t) => t.id)).toEqual([a.id]);
    expect((await store.tasks.claimNext('alice'))?.id).toBe(a.id);
  });
});

describe('task edits accept only what read accepts', () => {
  it.each([
    ['a subject over the limit', { subject: 's'.repeat(LIMITS.subjectChars + 1) }],
    ['a description over the limit', { description: 'd'.repeat(LIMITS.descriptionChars + 1) }],
    ['a cancel reason that makes the result too long', { cancel: true, reason: 'r'.repeat(LIMITS.resultChars) }],
    ['extra fields that break the schema', { extra: { status: 'bogus' } }],
  ])('update with %s is refused, nothing written, the task still listed', async (_what, patch) => {
    const t = await store.tasks.create({ subject: 'one', description: '' });
    const before = fs.readFileSync(store.paths.task(t.id), 'utf8');
    await expect(store.tasks.update(t.id, patch)).rejects.toMatchObject({ code: 'invalid' });
    expect(fs.readFileSync(store.paths.task(t.id), 'utf8')).toBe(before);
    expect((await store.tasks.list()).map((x) => x.id)).toEqual([t.id]);
    expect(store.journal.read().filter((e) => e.event === 'quarantined')).toEqual([]);
  });
});

describe('a stray task file with a huge id', () => {
  it.each([['999999999999999.json'], ['999999999999999.json.corrupt-1-1']])('%s does not make every create fail; it is kept and journalled', async (name) => {
    await store.tasks.create({ subject: 'one', description: '' });
    fs.writeFileSync(path.join(store.paths.tasksDir, name), '{}');
    const t = await store.tasks.create({ subject: 'two', description: '' });
    expect(t.id).toBe('2');
    expect(fs.existsSync(path.join(store.paths.tasksDir, name)) || fs.readdirSync(store.paths.tasksDir).some((n) => n.startsWith('999999999999999.json'))).toBe(true);
    expect(store.journal.read().some((e) => e.event === 'note' && /far beyond/.test(e.reason))).toBe(true);
    expect((await store.tasks.create({ subject: 'three', description: '' })).id).toBe('3');
    expect(['1', '2', '3']).toContain((await store.tasks.claimNext('alice'))?.id);
  });
});

describe('a typed message is a frame of a kind the protocol knows', () => {
  it('send refuses any type (frames go through sendFrame); writeFrame and the inbox refuse a kind outside the schema; nothing is written', async () => {
    await expect(store.send('alice', 'bob', 'hi', { type: 'abort_turn' } as never)).rejects.toMatchObject({ code: 'invalid', message: expect.stringContaining('sendFrame') });
    await expect(store.writeFrame('alice', 'bob', 'hi', 'task_canceled' as never)).rejects.toMatchObject({ code: 'invalid', message: expect.stringContaining('unknown frame kind "task_canceled"') });
    await expect(store.inboxes.append({ from: 'alice', to: 'bob', text: 'hi', type: 't'.repeat(LIMITS.messageTypeChars + 1) as never })).rejects.toMatchObject({ code: 'invalid' });
    expect(await store.inboxes.read('bob')).toEqual([]);
    await store.writeFrame('lead', 'bob', '{}', 'task_cancelled', { extra: { task_id: '1' } });
    expect((await store.inboxes.read('bob')).map((m) => m.type)).toEqual(['task_cancelled']);
  });
});
