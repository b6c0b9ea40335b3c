/**
 * A cancelled task is closed but not done: its dependents must not become claimable as if it had completed.
 * The lead cancels through the store (as TeamTaskUpdate does); claims go through the real `thclaws` process.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TeamStore } from '../../src/core/store/index.js';
import { ROOT, tempDir } from './helpers.js';

const BIN = path.join(ROOT, 'bin/thclaws');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function thclaws(ws: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, 'team', ...args, '--dir', ws], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: ws } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('cancelled blockers', () => {
  it('keep their dependents blocked with a reason, until the lead changes the blockers', async () => {
    const ws = tempDir('thclaws-cancel-');
    dirs.push(ws);
    const store = TeamStore.forWorkspace(ws, {});
    store.init();
    await store.config.create({ name: 'c', members: [{ name: 'alice' }, { name: 'bob' }] });
    await store.tasks.create({ subject: 'schema', description: 'x' });
    await store.tasks.create({ subject: 'migrate', description: 'needs the schema', blockedBy: ['1'] });
    await store.tasks.create({ subject: 'docs', description: 'independent' });

    const cancelled = await store.tasks.update('1', { cancel: true, reason: 'wrong approach' });
    expect(cancelled.result).toBe('cancelled: wrong approach');

    const refused = thclaws(ws, 'task', 'claim', '2', '--as', 'bob', '--json');
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/^thclaws: task 2 blocked by task 1 \(cancelled: wrong approach\)/);
    expect((await store.tasks.get('2')).status).toBe('pending');

    // Auto-claim (what an idle teammate does) skips it and takes the independent task.
    const claimed = await store.tasks.claimNext('alice');
    expect(claimed?.id).toBe('3');
    expect(await store.tasks.claimNext('bob')).toBeNull();

    // The lead corrects the queue: with the cancelled blocker removed the task is ready again.
    await store.tasks.update('2', { blockedBy: [] });
    const ok = thclaws(ws, 'task', 'claim', '2', '--as', 'bob', '--json');
    expect(ok.err).toBe('');
    expect(JSON.parse(ok.out)).toMatchObject({ id: '2', status: 'in_progress', owner: 'bob' });
  }, 60_000);
});
