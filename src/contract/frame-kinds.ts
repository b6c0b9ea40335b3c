/**
 * The names of every protocol frame kind (their fields live in `frames.ts`'s FrameSchema). The store
 * imports them so that its writers can refuse a kind outside the schema: an inbox never holds a typed message
 * no reader understands (it would be dropped as malformed and the control it carried would do nothing).
 */

/** Frames only `lead`/`user` may send, of the current epoch: control, and the answers to a teammate's requests. */
export const CONTROL_TYPES = ['shutdown_request', 'abort_turn', 'permission_response', 'plan_approval_response', 'task_cancelled'] as const;
export const REPLY_TYPES = ['shutdown_approved', 'shutdown_rejected', 'idle_notification', 'permission_request', 'plan_approval_request', 'task_assignment', 'team_changed', 'conflict_warning', 'budget_notice'] as const;
export type FrameType = (typeof CONTROL_TYPES)[number] | (typeof REPLY_TYPES)[number];

const KINDS: ReadonlySet<string> = new Set([...CONTROL_TYPES, ...REPLY_TYPES]);

export function isFrameType(type: unknown): type is FrameType {
  return typeof type === 'string' && KINDS.has(type);
}
