/**
 * The protocol's frame union: typed inbox messages (`type` set by the store, never parsed out of model text).
 * Every frame kind is one member of `FrameSchema` and carries the team's session epoch; the inbox queue parses
 * each message once (`teams/protocol.ts` `toInbound`), so the loops read typed fields.
 */
import { z } from 'zod';
import { CONTROL_TYPES, type FrameType } from './frame-kinds.js';
import { AGENT_NAME_PATTERN, LIMITS, TASK_ID_PATTERN } from './limits.js';
import { type Message, MessageSchema, WaitingSchema } from './store-schemas.js';

export const IDLE_REASONS = ['available', 'interrupted', 'failed', 'blocked'] as const;
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
