import { z } from 'zod';
import { ModelNameSchema } from './model-name.js';
import { AgentStatusValue } from './agent-states.js';
import { AGENT_NAME_PATTERN, LEAD, LIMITS, TASK_ID_PATTERN } from './limits.js';

/** On-disk schemas. Loose objects: unknown fields (from newer versions or thClaws) survive a rewrite. */
const agentName = z.string().regex(AGENT_NAME_PATTERN);
const taskId = z.string().regex(TASK_ID_PATTERN);
const millis = z.number().int().nonnegative();

/** A member as the team's config.json stores it (what the dashboard shows of one is api.ts's `MemberSchema`). */
/** A block of ports: `base` … `base + count - 1`. */
export const PortsSchema = z.object({ base: z.number().int().min(1).max(65_535), count: z.number().int().min(1).max(1000) });
export type Ports = z.infer<typeof PortsSchema>;

export const ConfigMemberSchema = z.looseObject({
  name: agentName,
  role: z.string().default(''),
  prompt: z.string().default(''),
  // Read leniently: a bad id (hand-edited) reads as none rather than making the whole file corrupt.
  model: ModelNameSchema.nullish().catch(null),
  isolation: z.enum(['worktree', 'none']).nullish(),
  is_active: z.boolean().default(false),
  /** Starts in plan mode on every spawn (set by a spawn that asked for it). */
  plan_mode_required: z.boolean().optional(),
  /** Its block of ports (`PORT`, `THCLAWS_PORT_BASE`), kept from spawn to spawn (core/teams/ports.ts). */
  ports: PortsSchema.nullish().catch(null),
  /** The host of the user's settings it runs on (absent: this machine), kept from spawn to spawn; `clone`: its clone there. */
  host: z.string().max(40).nullish(),
  clone: z.string().max(4096).nullish(),
});
export type ConfigMember = z.infer<typeof ConfigMemberSchema>;

export const ConfigSchema = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  created_at: millis,
  lead: z.string().default(LEAD),
  members: z.array(ConfigMemberSchema).default([]),
  /** The session epoch: set by each lead that takes the team; frames of another epoch are stale. */
  epoch: z.string().nullish(),
  /** The lead's block of ports, recorded by the lead that spawned teammates (core/teams/ports.ts). */
  lead_ports: PortsSchema.nullish().catch(null),
});
export type TeamConfig = z.infer<typeof ConfigSchema>;

export const MessageSchema = z.looseObject({
  id: z.string().min(1).max(LIMITS.messageIdChars),
  from: z.string().min(1).max(LIMITS.nameMaxChars),
  to: z.string().max(LIMITS.nameMaxChars).optional(),
  text: z.string().max(LIMITS.messageChars),
  summary: z.string().max(LIMITS.summaryChars).nullish(),
  timestamp: millis,
  read: z.boolean().default(false),
  /** Protocol frames (shutdown_request, permission_request, …); absent for plain text. */
  type: z.string().max(LIMITS.messageTypeChars).optional(),
  /** Delivered at the recipient's next tool call instead of after its turn. */
  urgent: z.boolean().optional(),
});
export type Message = z.infer<typeof MessageSchema>;

export const TaskStatusSchema = z.enum(['pending', 'in_progress', 'completed']);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

export const TaskSchema = z.looseObject({
  id: taskId,
  subject: z.string().max(LIMITS.subjectChars),
  description: z.string().max(LIMITS.descriptionChars),
  status: TaskStatusSchema,
  /** Set at create and kept forever, separate from the claimer. */
  reserved_for: agentName.nullish(),
  owner: agentName.nullish(),
  blocked_by: z.array(taskId).default([]),
  blocks: z.array(taskId).default([]),
  attempts: z.number().int().nonnegative().default(0),
  result: z.string().max(LIMITS.resultChars).nullish(),
  created_at: millis,
  updated_at: millis,
  completed_at: millis.nullish(),
  /** Why the runtime parked the task for the lead (its turns kept failing). */
  parked: z.union([z.string(), z.boolean()]).nullish(),
  /** Closed by the lead without being done (`result` says why). */
  cancelled: z.boolean().optional(),
  /** A worktree teammate's branch commit (HEAD sha) when it completed the task. */
  commit: z.string().max(64).nullish(),
  /** Why the owner's last TeamTaskComplete was refused (e.g. uncommitted files); cleared when it completes. */
  not_done: z.string().max(LIMITS.resultChars).nullish(),
  /** Whose completion was refused (the task may be parked for the lead since). */
  not_done_by: agentName.nullish(),
  /** The task's commit reached the lead's branch: when, on which branch, at which commit of it. */
  landed: z.looseObject({ at: millis, into: z.string().max(300), commit: z.string().max(64) }).nullish(),
});
export type Task = z.infer<typeof TaskSchema>;

const tokenCount = z.number().int().nonnegative();
/** Field names of the Messages API's `usage`. */
export const UsageTotalsSchema = z.looseObject({
  input_tokens: tokenCount,
  output_tokens: tokenCount,
  cache_creation_input_tokens: tokenCount,
  cache_read_input_tokens: tokenCount,
});
export type UsageTotals = z.infer<typeof UsageTotalsSchema>;


/** A process named in a status: enough to tell, on its host, whether that very process still lives. */
export const ProcessIdSchema = z.looseObject({
  host: z.string(),
  pid: z.number().int().positive(),
  /** Linux boot id; '' where unknown. */
  boot: z.string().default(''),
  /** Process start time in clock ticks since boot; '' where unknown (then pid reuse is not detected). */
  start: z.string().default(''),
  ns: z.string().optional(),
});
/** What a teammate waits for (a permission or its plan), in its status while it waits and in its request frame. */
export const WaitingSchema = z.looseObject({
  request_id: z.string().min(1).max(LIMITS.messageIdChars),
  kind: z.enum(['permission', 'plan']),
  agent: agentName,
  /** Tool name, or `SubmitPlan`. */
  tool: z.string(),
  summary: z.string(),
  input: z.unknown().optional(),
  cwd: z.string(),
  epoch: z.string().nullable(),
  /** The rule an "always" answer stores (`Bash(npm test:*)`). */
  rule: z.string().optional(),
  /** The settings `permissions.ask` rule that made this call ask. */
  ask_rule: z.string().optional(),
  /** The plan's Markdown and its attempt number (plans only). */
  plan: z.string().optional(),
  attempt: z.number().int().positive().optional(),
  since: millis,
  deadline: millis,
});
export type Waiting = z.infer<typeof WaitingSchema>;

export const StatusSchema = z.looseObject({
  agent: agentName,
  status: AgentStatusValue,
  /** A task id, not a message id. */
  current_task: taskId.nullish(),
  pid: z.number().int().positive().nullish(),
  /** Start time (clock ticks since boot) of `pid`: a later process given the same pid is not this agent. */
  pid_start: z.string().nullish(),
  /**
   * Who is spawning the agent, while `status` is `spawning` and no pid is known: a spawn whose spawner died
   * (a lead killed mid-spawn) is void at once instead of blocking the name until a timeout.
   */
  spawner: ProcessIdSchema.nullish().catch(null),
  /** The run mark (run-check.ts) of the worktree setup its spawner runs meanwhile: a Stop ends those processes. */
  bootstrap_mark: z.string().regex(/^[0-9a-f]{1,64}$/).nullish().catch(null),
  /** The agent process's parent (a launcher's wrapper); lets a launcher recognise the status as its child's. */
  parent_pid: z.number().int().nonnegative().nullish(),
  host: z.string().nullish(),
  boot_id: z.string().nullish(),
  started_at: millis.nullish(),
  last_heartbeat: millis,
  /** The spawn this process answers (boot verification matches it). */
  spawn_id: z.string().max(LIMITS.messageIdChars).nullish(),
  /** The model the agent runs on. */
  // Read leniently: a bad id (hand-edited) reads as none rather than making the whole file corrupt.
  model: ModelNameSchema.nullish().catch(null),
  /** The saved conversation this process writes (`--resume <id>` continues it); malformed: null. */
  session_id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/).nullish().catch(null),
  /** The request the agent waits for; malformed: null (the liveness beside it matters more). */
  waiting: WaitingSchema.nullish().catch(null),
  /**
   * Token totals of every model call this agent made (summed across its processes); absent before the first.
   * Malformed (another version's shape, negative, a string): null, never a quarantined status — the liveness
   * beside it is what a person needs. Null then means the earlier totals are unknown.
   */
  usage: UsageTotalsSchema.nullish().catch(null),
  /** Estimated USD of those calls from the model price table; null once a call's model had no known price. */
  cost_usd: z.number().nonnegative().nullish().catch(null),
  /** Set while the agent waits because a spending budget is reached: which one, and how far. */
  budget_reached: z.string().max(500).nullish().catch(null),
  /**
   * Process groups of the agent's Bash commands (running, or children they left running), with their leaders'
   * start times: the agent's next process ends any left over before it works in the same folder. Malformed: null.
   */
  command_groups: z.array(z.object({ pgid: z.number().int().positive(), start: z.string().max(40) })).max(1000).nullish().catch(null),
  /** With `status: error`: why the model could not be called, in one line; cleared by the next successful call. */
  error: z.string().max(500).nullish().catch(null),
  /** While a model call is retried: which retry and why ("retrying (2/5): 529 overloaded"). */
  retry: z.string().max(500).nullish().catch(null),
});
export type AgentStatus = z.infer<typeof StatusSchema>;

/**
 * Short reason for a zod failure, for journals and errors. A model reading a tool's refusal gets more issues,
 * each path quoted and the whole value called "(input)" (`max`, `quote`, `whole`).
 */
export function describeIssues(error: z.ZodError, opts: { max?: number; quote?: boolean; whole?: string } = {}): string {
  const q = opts.quote ? '"' : '';
  return error.issues
    .slice(0, opts.max ?? 3)
    .map((i) => `${q}${i.path.length ? i.path.join('.') : (opts.whole ?? '(root)')}${q}: ${i.message}`)
    .join('; ');
}
