/** The header's counts and its model alert, from the members the host sends. */
import type { Member } from '../../contract/api.js';

/** A state as the header counts it: a live agent waiting for the person's answer is "waiting for you", not working. */
export type CountedState = Member['state'] | 'waiting';

export function countedState(m: Member): CountedState {
  return m.waiting_for && m.alive && (m.state === 'working' || m.state === 'idle') ? 'waiting' : m.state;
}

export interface TeamCounts {
  working: number;
  idle: number;
  dead: number;
  /** Every state some member is in, with its count (the header shows each: none is left out of the sum). */
  byState: Partial<Record<CountedState, number>>;
  total: number;
  costUsd: number;
  /** Some member's model has no known price: the total is a lower bound. */
  costUnknown: boolean;
}

export function teamCounts(members: Member[]): TeamCounts {
  const c: TeamCounts = { working: 0, idle: 0, dead: 0, byState: {}, total: members.length, costUsd: 0, costUnknown: false };
  for (const m of members) {
    const state = countedState(m);
    c.byState[state] = (c.byState[state] ?? 0) + 1;
    if (state === 'working') c.working++;
    else if (state === 'idle') c.idle++;
    else if (state === 'dead') c.dead++;
    c.costUsd += m.cost_usd ?? 0;
    if (m.tokens !== null && m.cost_usd === null) c.costUnknown = true;
  }
  return c;
}

/**
 * The header's alert when the model fails for every live agent (each reads `error`): a refused key or an
 * unreachable endpoint is the team's problem, not one agent's, and the fix is in Settings.
 */
export function modelAlert(members: Member[]): string | null {
  const live = members.filter((m) => m.alive);
  // A task refused for want of a commit (not-done.ts) is that agent's failure, not its model's.
  if (!live.length || !live.every((m) => m.state === 'error' && !/^task #\S+ not done: /.test(m.error ?? ''))) return null;
  const reasons = live.map((m) => m.error ?? '');
  if (reasons.every((r) => /key refused|\(401\)/.test(r))) return 'API key refused — every agent fails: set a key in Settings';
  if (reasons.every((r) => r.startsWith('cannot reach '))) return `Model endpoint unreachable — every agent fails: ${reasons[0]!.replace(/ \(gave up after \d+ attempts\)$/, '')}. Check the base URL and that the server runs`;
  return `Every agent fails to call its model: ${reasons[0] || 'see its pane'}`;
}
