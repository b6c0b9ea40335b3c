/**
 * Protocol frames: typed inbox messages (`type` set by the store, never parsed out of model text). The
 * sender is the writing process's own identity, and every frame carries the team's session epoch so a
 * frame from an earlier session is ignored. Every frame kind is one member of `FrameSchema`; the inbox
 * queue parses each message once (`toInbound`), so the loops read typed fields.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Message, TeamStore } from '../store/index.js';
import { LEAD, TeamError, USER } from '../store/index.js';
import { AGENT_NAME_PATTERN, LIMITS, TASK_ID_PATTERN } from '../store/limits.js';
import { MessageSchema, WaitingSchema } from '../store/schemas.js';

import { CONTROL_TYPES, type FrameType } from '../store/index.js';
export { CONTROL_TYPES, REPLY_TYPES, type FrameType } from '../store/index.js';

const IDLE_REASONS = ['available', 'interrupted', 'failed', 'blocked'] as const;
export type IdleReason = (typeof IDLE_REASONS)[number];
const taskId = z.string().regex(TASK_ID_PATTERN);
const requestId = z.string().min(1).max(LIMITS.messageIdChars);

/** A frame is a stored message (unknown fields kept) with its kind's fields and the epoch it was sent in. */
const frame = <T extends FrameType, S extends z.ZodRawShape>(type: T, shape: S) => MessageSchema.extend({ type: z.literal(type), epoch: z.string().nullish(), ...shape });

/** The person's or the lead's answer to one request id. */
const answer = {
  request_id: requestId,
  allow: z.boolean(),
  /** `always-for-this-rule`: store the request's rule so later calls of it run without asking. */
  scope: z.enum(['once', 'always-for-this-rule']).default('once'),
  rule_scope: z.enum(['teammate', 'team']).default('teammate'),
  feedback: z.string().max(LIMITS.messageChars).optional(),
};
/** A request carries what its teammate's status `waiting` holds, without the timing. */
const request = WaitingSchema.omit({ since: true, deadline: true, epoch: true }).shape;

export const FrameSchema = z.discriminatedUnion('type', [
  frame('shutdown_request', { reason: z.string().nullish() }),
  frame('abort_turn', {}),
  /** The person (or the lead) cancelled a task this teammate works on: its turn on that task ends, and it is told why. */
  frame('task_cancelled', { task_id: taskId, reason: z.string().max(LIMITS.messageChars).nullish() }),
  frame('permission_response', answer),
  frame('plan_approval_response', answer),
  frame('shutdown_approved', {}),
  frame('shutdown_rejected', { reason: z.string().nullish() }),
  frame('idle_notification', {
    idle_reason: z.enum(IDLE_REASONS),
    completed_task_id: taskId.nullable().default(null),
    completed_status: z.enum(['completed', 'failed', 'blocked']).nullable().default(null),
    summary: z.string().nullable().default(null),
  }),
  frame('permission_request', { ...request, kind: z.literal('permission') }),
  frame('plan_approval_request', { ...request, kind: z.literal('plan'), plan: z.string(), attempt: z.number().int().positive() }),
  frame('task_assignment', { task_id: taskId, subject: z.string().optional(), previous_owner: z.string().regex(AGENT_NAME_PATTERN).nullish() }),
  /** The person changed the team from the dashboard (a member added, edited, removed, started or stopped). */
  frame('team_changed', { summary: z.string().max(LIMITS.messageChars) }),
  /** The dashboard saw two teammates' work (committed or not) conflict: agents and files, told once per conflict. */
  frame('conflict_warning', { agents: z.array(z.string().regex(AGENT_NAME_PATTERN)).max(64).optional(), files: z.array(z.unknown()).max(10_000).optional() }),
  /** A teammate's spend reached 80 % (`warning`) or 100 % (`reached`: it stopped and waits for a raise) of a limit. */
  frame('budget_notice', {
    level: z.enum(['warning', 'reached']),
    scope: z.enum(['teammate', 'role', 'team']),
    unit: z.enum(['usd', 'tokens']),
    limit: z.number().positive(),
    spent: z.number().nonnegative(),
    summary: z.string().max(LIMITS.messageChars),
  }),
]);
export type Frame = z.infer<typeof FrameSchema>;
export type FrameOf<T extends FrameType> = Extract<Frame, { type: T }>;
/** What a frame's sender supplies: its kind's own fields (the store adds id, from, text, timestamps; sendFrame the epoch). */
export type FrameFields<T extends FrameType> = Omit<z.input<Extract<(typeof FrameSchema)['options'][number], { shape: { type: z.ZodLiteral<T> } }>>, keyof z.input<typeof MessageSchema> | 'epoch'>;

/** A plain message (no `type`): text for the model. */
export type PlainMessage = Message & { type?: undefined };
/** A message as the inbox queue hands it out: plain text, or a frame with typed fields. */
export type Inbound = PlainMessage | Frame;
export type ControlFrame = FrameOf<(typeof CONTROL_TYPES)[number]>;

export type IdleFields = FrameFields<'idle_notification'>;

/** Parses one stored message at the inbox boundary: a frame of an unknown kind or with bad fields is refused. */
export function toInbound(m: Message): { ok: true; message: Inbound } | { ok: false; reason: string } {
  if (m.type === undefined) return { ok: true, message: m as PlainMessage };
  const res = FrameSchema.safeParse(m);
  if (res.success) return { ok: true, message: res.data };
  const issue = res.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return { ok: false, reason: `malformed ${m.type} frame from ${m.from} dropped: ${where}${issue?.message ?? 'invalid'}` };
}

/** Whoever may send a control frame: the lead and the person. A teammate's control frame is dropped. */
export function mayControl(from: string): boolean {
  return from === LEAD || from === USER;
}

export function isControl(m: Inbound): m is ControlFrame {
  return (CONTROL_TYPES as readonly string[]).includes(m.type ?? '');
}

/** The epoch of the current team session (set by the lead when it takes the team). */
export async function currentEpoch(store: TeamStore): Promise<string | null> {
  return (await store.config.load())?.epoch ?? null;
}

/** Starts a new session epoch: every control frame and reply of earlier sessions becomes stale. */
export async function bumpEpoch(store: TeamStore, epoch: string): Promise<void> {
  await store.config.update((cfg) => {
    cfg.epoch = epoch;
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
      if (typeof cfg.epoch !== 'string') cfg.epoch = set = randomUUID();
    });
  } catch {
    // No readable config right now (removed, being rewritten): the loop reports that itself; no epoch yet.
    return currentEpoch(store).catch(() => null);
  }
  if (set) store.journal.record({ event: 'note', file: store.paths.config, reason: `no lead has taken the team: ${by} started session epoch ${set}` });
  return currentEpoch(store);
}

/**
 * Writes a frame as `sender` (the caller's lease-backed identity), stamped with the current epoch: the one way a
 * typed message reaches an inbox. `shown`: the text and summary a reader shows (default: the fields as JSON).
 */
export async function sendFrame<T extends FrameType>(store: TeamStore, sender: string, to: string, type: T, fields: FrameFields<T>, epoch?: string | null, shown?: { text: string; summary: string }): Promise<Message> {
  const ep = epoch ?? (await currentEpoch(store));
  const text = shown?.text ?? JSON.stringify({ type, from: sender, ...fields });
  // A frame's own `summary` field (idle notifications, requests) doubles as the message summary.
  const own = (fields as { summary?: unknown }).summary;
  const summary = shown?.summary ?? (typeof own === 'string' ? own : type.replace(/_/g, ' '));
  // The kind's own fields are checked here, where the frame is written, not only where it is read.
  const checked = FrameSchema.safeParse({ id: 'new', from: sender, to, text, timestamp: Date.now(), type, ...fields, epoch: ep });
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new TeamError('invalid', `${type} frame refused: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  const [m] = await store.writeFrame(sender, to, text, type, { summary, extra: { ...fields, epoch: ep } });
  return m!;
}

/** Whether a frame belongs to the current session. */
export function frameEpochCurrent(m: Frame, epoch: string | null): boolean {
  return epoch !== null && m.epoch === epoch;
}

/** How a message is framed as (part of) a turn prompt. */
export function frameMessage(m: Pick<Message, 'from' | 'summary' | 'text'>): string {
  const attrs = [`from="${m.from}"`, ...(m.summary ? [`summary="${m.summary.replace(/"/g, "'")}"`] : [])].join(' ');
  return `<teammate_message ${attrs}>\n${m.text}\n</teammate_message>`;
}
