import { TeamError } from './errors.js';
import { AGENT_NAME_PATTERN as AGENT_NAME, BROADCAST, BUDGET_KEY_PATTERN, LEAD, LIMITS, TASK_ID_PATTERN as TASK_ID, USER } from '../../contract/limits.js';

/** Validation happens before any filesystem call: nothing from input becomes a path unchecked. */

export { BROADCAST, LEAD, USER };

export function isAgentName(name: unknown): name is string {
  return typeof name === 'string' && AGENT_NAME.test(name);
}

/** Any valid participant name (teammate, `lead`, or `user`). */
export function assertAgentName(name: unknown, what = 'agent name'): string {
  if (!isAgentName(name)) {
    throw new TeamError('invalid', `invalid ${what} ${JSON.stringify(name)}: use 1-${LIMITS.nameMaxChars} of A-Z a-z 0-9 _ - (not starting with -)`);
  }
  return name;
}

/** A teammate name: valid and not one of the reserved names. */
export function assertMemberName(name: unknown): string {
  assertAgentName(name, 'member name');
  if (name === LEAD || name === USER) {
    throw new TeamError('invalid', `member name "${name}" is reserved (${LEAD} is the lead, ${USER} is the person)`);
  }
  return name as string;
}

/** A role as a budget names it, trimmed (BUDGET_KEY_PATTERN). */
export function assertRoleName(role: unknown): string {
  const r = typeof role === 'string' ? role.trim() : role;
  if (typeof r !== 'string' || !BUDGET_KEY_PATTERN.test(r)) {
    throw new TeamError('invalid', `invalid role name ${JSON.stringify(role)}: use 1-64 characters without newlines, other than "__proto__"`);
  }
  return r;
}

/** A message recipient: a participant name or `*` (broadcast). */
export function assertRecipient(to: unknown): string {
  if (to === BROADCAST) return to;
  return assertAgentName(to, 'recipient');
}

export function isTaskId(id: unknown): id is string {
  return typeof id === 'string' && TASK_ID.test(id);
}

export function assertTaskId(id: unknown): string {
  const s = typeof id === 'number' ? String(id) : id;
  if (!isTaskId(s)) throw new TeamError('invalid', `invalid task id ${JSON.stringify(id)}: expected a positive integer of at most ${LIMITS.taskIdMaxDigits} digits`);
  return s;
}
