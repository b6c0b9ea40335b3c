/** The order claimers try ready tasks in: the lowest ids first, each agent from its own offset among them. */
import type { Task } from '../../contract/store-schemas.js';

export const byId = (a: Task, b: Task) => Number(a.id) - Number(b.id);

/** The `k` tasks with the smallest ids, in order: O(n·k) instead of sorting the whole board per claim. */
export function smallestIds(tasks: Task[], k: number): Task[] {
  const out: Task[] = [];
  for (const t of tasks) {
    if (out.length === k && byId(t, out[k - 1]!) >= 0) continue;
    let i = out.length;
    while (i > 0 && byId(t, out[i - 1]!) < 0) i--;
    out.splice(i, 0, t);
    if (out.length > k) out.pop();
  }
  return out;
}

/** Stable small hash of a name (FNV-1a), to spread claimers over the ready tasks. */
export function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
