/**
 * Protocol frames: typed inbox messages (`type` set by the store, never parsed out of model text). The
 * sender is the writing process's own identity, and every frame carries the team's session epoch so a
 * frame from an earlier session is ignored.
 */
import { randomUUID } from 'node:crypto';
import type { Message, TeamStore } from '../team/index.js';
import { LEAD, USER } from '../team/index.js';

/** Frames only `lead`/`user` may send, of the current epoch: control, and the answers to a teammate's requests. */
export const CONTROL_TYPES = ['shutdown_request', 'abort_turn', 'permission_response', 'plan_approval_response'] as const;
export const REPLY_TYPES = ['shutdown_approved', 'shutdown_rejected', 'idle_notification', 'permission_request', 'plan_approval_request', 'task_assignment', 'team_changed'] as const;
export type FrameType = (typeof CONTROL_TYPES)[number] | (typeof REPLY_TYPES)[number];

export type IdleReason = 'available' | 'interrupted' | 'failed' | 'blocked';

export interface IdleFields {
  idle_reason: IdleReason;
  completed_task_id: string | null;
  completed_status: 'completed' | 'failed' | 'blocked' | null;
  summary: string | null;
}

/** Whoever may send a control frame: the lead and the person. A teammate's control frame is dropped. */
export function mayControl(from: string): boolean {
  return from === LEAD || from === USER;
}

export function isControl(m: Message): boolean {
  return (CONTROL_TYPES as readonly string[]).includes(m.type ?? '');
}

/** The epoch of the current team session (set by the lead when it takes the team). */
export async function currentEpoch(store: TeamStore): Promise<string | null> {
  const cfg = await store.config.load();
  const e = (cfg as Record<string, unknown> | null)?.epoch;
  return typeof e === 'string' ? e : null;
}

/** Starts a new session epoch: every control frame and reply of earlier sessions becomes stale. */
export async function bumpEpoch(store: TeamStore, epoch: string): Promise<void> {
  await store.config.update((cfg) => {
    (cfg as Record<string, unknown>).epoch = epoch;
  });
}

/**
 * The team's epoch, starting one when no lead ever took the team (a teammate started by hand): the first
 * process that needs one sets it under the config lock, so every process agrees; a lead that takes the
 * team later starts a new one as always (answers of the lead-less session then become stale).
 */
export async function ensureEpoch(store: TeamStore, by: string): Promise<string | null> {
  const current = await currentEpoch(store).catch(() => null);
  if (current) return current;
  let set: string | null = null;
  try {
    await store.config.update((cfg) => {
      const c = cfg as Record<string, unknown>;
      if (typeof c.epoch !== 'string') c.epoch = set = randomUUID();
    });
  } catch {
    // No readable config right now (removed, being rewritten): the loop reports that itself; no epoch yet.
    return currentEpoch(store).catch(() => null);
  }
  if (set) store.journal.record({ event: 'note', file: store.paths.config, reason: `no lead has taken the team: ${by} started session epoch ${set}` });
  return currentEpoch(store);
}

/** Writes a frame as `sender` (the caller's lease-backed identity), stamped with the current epoch. */
export async function sendFrame(store: TeamStore, sender: string, to: string, type: FrameType, fields: Record<string, unknown> = {}, epoch?: string | null): Promise<Message> {
  const ep = epoch ?? (await currentEpoch(store));
  const text = JSON.stringify({ type, from: sender, ...fields });
  // A frame's own `summary` field (idle notifications) doubles as the message summary.
  const summary = typeof fields.summary === 'string' ? fields.summary : type.replace(/_/g, ' ');
  const [m] = await store.send(sender, to, text, { type, summary, extra: { ...fields, epoch: ep } });
  return m!;
}

/** Whether a frame belongs to the current session. */
export function frameEpochCurrent(m: Message, epoch: string | null): boolean {
  const e = (m as Record<string, unknown>).epoch;
  return epoch !== null && e === epoch;
}

export function field<T = unknown>(m: Message, name: string): T | undefined {
  return (m as Record<string, unknown>)[name] as T | undefined;
}

/** How a message is framed as (part of) a turn prompt. */
export function frameMessage(m: Message): string {
  const attrs = [`from="${m.from}"`, ...(m.summary ? [`summary="${m.summary.replace(/"/g, "'")}"`] : [])].join(' ');
  return `<teammate_message ${attrs}>\n${m.text}\n</teammate_message>`;
}
