/**
 * A cancel that races a claim: the claim lands after the canceller looked at the task but before its write.
 * The owner at the moment of the cancel must still be told to stop (a `task_cancelled` frame): the owner is read
 * under the same lock as the write, never from an earlier look. Both cancellers: the lead's TeamTaskUpdate and
 * the dashboard's Cancel (HostSession on a real TeamHost).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { taskTools } from '../../src/core/teams/tools/task-tools.js';
import type { TeamStore } from '../../src/core/store/index.js';
import { openHostView } from '../host-view.js';
import { cleanupsAfterEach, leadSession, teamWorkspace, writeScript } from './helpers.js';

const cleanups = cleanupsAfterEach();

/** Alice claims task 1 right before the canceller's write, whichever store method makes that write. */
function claimJustBeforeTheWrite(store: TeamStore): void {
  const tasks = store.tasks as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  let claimed = false;
  for (const k of ['update', 'change']) {
    const real = tasks[k]?.bind(store.tasks);
    if (!real) continue;
    tasks[k] = async (...a: unknown[]) => {
      if (!claimed) {
        claimed = true;
        await store.tasks.claim('1', 'alice');
      }
      return real(...a);
    };
  }
}

const cancelFrames = (store: TeamStore) => store.inboxes.unread('alice').filter((m) => m.type === 'task_cancelled');

/** A team with alice and task 1 reserved for her; `lead`: this session takes the lead (the TeamTaskUpdate case). */
async function teamWithTask(lead: boolean) {
  const ws = teamWorkspace();
  const session = leadSession(ws, writeScript(ws, { rules: [], fallback: [{ text: 'ok' }] }));
  session.store.init();
  await session.store.config.create({ name: 't', members: [{ name: 'alice' }] });
  await session.store.tasks.create({ subject: 'Work', description: 'x', reservedFor: 'alice' });
  if (lead) await session.becomeLead();
  cleanups.push(async () => {
    await session.close();
    ws.cleanup();
  });
  return { ws, session };
}

describe('a cancel racing a claim', () => {
  it("the lead's TeamTaskUpdate tells the owner that claimed it a moment before", async () => {
    const { session } = await teamWithTask(true);
    claimJustBeforeTheWrite(session.store);
    const update = taskTools(session, 'lead').find((t) => t.name === 'TeamTaskUpdate')!;
    const res = await update.run({ task_id: '1', cancel: true, reason: 'not needed' } as never, {} as never);
    expect(res.isError, JSON.stringify(res)).toBeFalsy();
    const t = await session.store.tasks.get('1');
    expect([t.owner, t.cancelled]).toEqual(['alice', true]);
    expect(cancelFrames(session.store)).toHaveLength(1);
  });

  it("the dashboard's Cancel tells the owner that claimed it a moment before", async () => {
    const { ws, session } = await teamWithTask(false);
    const view = await openHostView(ws.dir, { env: { HOME: ws.home, XDG_CONFIG_HOME: path.join(ws.home, '.config') } });
    cleanups.push(() => view.host.close());
    claimJustBeforeTheWrite(view.host.store);
    expect((await view.call({ type: 'task_cancel', task: '1' })).ok).toBe(true);
    expect((await session.store.tasks.get('1')).cancelled).toBe(true);
    expect(cancelFrames(session.store)).toHaveLength(1);
  });
});
