import { LEAD, USER, type Task, type TeamStore } from '../store/index.js';
import { sendFrame } from './protocol.js';

/**
 * Tells the owner of a task that was in progress when it was cancelled: a teammate gets a `task_cancelled`
 * frame (its loop ends its turn on that task and tells its model why), the lead a plain message for its next turn.
 */
export async function tellOwnerCancelled(store: TeamStore, sender: string, before: Task, reason: string | null): Promise<void> {
  const owner = before.owner;
  if (before.status !== 'in_progress' || !owner || owner === sender || owner === USER) return;
  if (owner === LEAD) {
    await store.send(sender, LEAD, `Task #${before.id} (${before.subject}) was cancelled${reason ? `: ${reason}` : ''}. Stop working on it.`);
    return;
  }
  await sendFrame(store, sender, owner, 'task_cancelled', { task_id: before.id, reason });
}
