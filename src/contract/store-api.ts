/**
 * A teammate's store through the lead's host: the operations a teammate process performs on the team state,
 * as requests (`store` in api.ts) the host carries out under its own locks, and their answers. Each request
 * names the teammate's request id (a retry after a reconnect carries the same one: the host answers it with
 * the first result) and its session epoch (a write from an earlier session is refused).
 */
import { z } from 'zod';
import { agentName, taskId, text } from './fields.js';
import { CONTROL_TYPES, REPLY_TYPES } from './frame-kinds.js';
import { ConfigSchema, MessageSchema, StatusSchema, TaskSchema, TaskStatusSchema, UsageTotalsSchema } from './store-schemas.js';
import { BudgetsSchema } from './settings-schema.js';
import { McpServers } from './mcp-config.js';

const extra = z.record(z.string().max(100), z.unknown());

/** A task patch as the store takes it (tasks.ts TaskPatch): only what a teammate may change. */
export const WireTaskPatchSchema = z
  .object({ reservedFor: agentName.nullable().optional(), extra: extra.optional() })
  .strict();

const op = <T extends string, S extends z.ZodRawShape>(name: T, shape: S) => z.object({ op: z.literal(name), ...shape }).strict();

/** Every store operation a teammate performs (docs/remote.md, "A teammate's store through the host"). */
export const StoreOpSchema = z.discriminatedUnion('op', [
  /**
   * Binds the connection to the teammate: the host holds its lease while it is attached. `instance`: this process's
   * run; `boot_id`: on a re-attach, the run id its status already carries (kept, so its status stays its own).
   */
  op('attach', { agent: agentName, instance: z.string().min(8).max(100), boot_id: z.string().min(1).max(100).optional(), model_env: z.boolean().optional() }),
  op('detach', {}),
  op('inbox_unread', {}),
  op('inbox_mark_read', { ids: z.array(z.string().min(1).max(200)).max(10_000) }),
  op('send', { to: z.union([agentName, z.literal('*')]), text: text(100_000), summary: text(2000).nullish(), extra: extra.optional() }),
  op('write_frame', { to: z.union([agentName, z.literal('*')]), text: text(100_000), type: z.enum([...CONTROL_TYPES, ...REPLY_TYPES]), summary: text(2000).nullish(), extra: extra.optional() }),
  op('task_list', { status: TaskStatusSchema.optional() }),
  op('task_get', { id: taskId }),
  op('task_claim', { id: taskId }),
  op('task_claim_next', {}),
  op('task_release', { id: taskId }),
  op('task_update', { id: taskId, patch: WireTaskPatchSchema }),
  op('task_complete', { id: taskId, result: text(20_000).optional(), commit: z.string().max(100).optional() }),
  op('status_read', { agent: agentName }),
  op('status_write', { update: extra, durable: z.boolean().optional() }),
  op('status_account', { usage: UsageTotalsSchema, cost_usd: z.number().nonnegative().nullable() }),
  op('config_load', {}),
  op('budgets_read', {}),
  op('journal', { event: z.enum(['note', 'rejected']), file: text(4096), reason: text(2000) }),
]);
export type StoreOp = z.infer<typeof StoreOpSchema>;
export type StoreOpName = StoreOp['op'];

/** Operations that change the team state: deduplicated by request id and refused from a stale epoch. */
export const MUTATING_OPS: ReadonlySet<StoreOpName> = new Set<StoreOpName>([
  'inbox_mark_read', 'send', 'write_frame', 'task_claim', 'task_claim_next', 'task_release', 'task_update', 'task_complete', 'status_write', 'status_account', 'journal',
]);

/** The `store` request's body: the request id the teammate chose, its session epoch (null before attach), the operation. */
export const StoreCallSchema = z.object({ rid: z.string().min(1).max(200), epoch: z.string().max(200).nullable(), call: StoreOpSchema }).strict();
export type StoreCall = z.infer<typeof StoreCallSchema>;

/** Why the host refused an operation: the store's own error codes, plus `stale_epoch` and `not_attached`. */
export const StoreErrorCodeSchema = z.string().min(1).max(40);
export const StoreAnswerSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), code: StoreErrorCodeSchema, error: text(2000) }),
]);
export type StoreAnswer = z.infer<typeof StoreAnswerSchema>;

/**
 * What attach answers: the session epoch, the team dir's path (named in journal entries, never opened), the
 * lease's run id, and the MCP servers the lead handed this teammate (read once, at start, as a local one does).
 */
export const AttachValueSchema = z.object({
  epoch: z.string().nullable(),
  team_dir: z.string().max(4096),
  boot_id: z.string().max(100),
  mcp: McpServers,
  /** Asked with `model_env`: the lead's model variables (MODEL_ENV_NAMES), held in the teammate's memory only. */
  model_env: z.partialRecord(z.enum(['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL']), z.string().max(4096)).optional(),
});
/** The model variables a teammate on another machine gets from the lead's host (docs/remote.md). */
export const MODEL_ENV_NAMES = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL'] as const;

/** Each operation's answer, parsed once where it enters the teammate's process. */
export const STORE_VALUES = {
  attach: AttachValueSchema,
  detach: z.null(),
  inbox_unread: z.array(MessageSchema),
  inbox_mark_read: z.number().int().nonnegative(),
  send: z.array(MessageSchema),
  write_frame: z.array(MessageSchema),
  task_list: z.array(TaskSchema),
  task_get: TaskSchema,
  task_claim: TaskSchema,
  task_claim_next: TaskSchema.nullable(),
  task_release: TaskSchema.nullable(),
  task_update: TaskSchema,
  task_complete: TaskSchema,
  status_read: StatusSchema.nullable(),
  status_write: StatusSchema,
  status_account: StatusSchema,
  config_load: ConfigSchema.nullable(),
  budgets_read: BudgetsSchema,
  journal: z.null(),
} satisfies Record<StoreOpName, z.ZodType>;
export type StoreValue<N extends StoreOpName> = z.infer<(typeof STORE_VALUES)[N]>;

/** Which of the teammate's kinds of state changed: its inbox, the board, the team's config (budgets included). */
export const StoreWakeKindSchema = z.enum(['inbox', 'task', 'config']);
