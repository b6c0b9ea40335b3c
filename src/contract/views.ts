/**
 * What a view shows: a member, an approval, a task, the settings, the sandbox, the lead's setup, a member spec,
 * spend and the workspace — the shapes the host's events carry (api.ts holds the requests and events).
 */
import { z } from 'zod';
import { ModelNameSchema } from './model-name.js';
import { BudgetsSchema, HostNameSchema, patchSchemaOf, PERMISSION_MODES, SettingsSchema, TEAMMATE_MODES } from './settings-schema.js';
import { AgentStateSchema } from './agent-states.js';
import { agentName, taskId, text } from './fields.js';

/** How the host shows an agent's terminal: a pty it owns (typing works) or a read-only tail of output.log. */
export const TerminalModeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('pty'), pid: z.number().int().positive() }),
  z.object({ kind: z.literal('readonly'), reason: text(300) }),
]);
export type TerminalMode = z.infer<typeof TerminalModeSchema>;

export const MemberSchema = z.object({
  name: agentName,
  role: text(200),
  model: text(200).nullable(),
  state: AgentStateSchema,
  /** True while the process is known to run (fresh heartbeat and live pid, or a pty the host owns). */
  alive: z.boolean(),
  current_task: taskId.nullable(),
  /** All tokens of its model calls (input, output, cache writes and reads); null before the first call. */
  tokens: z.number().int().nonnegative().nullable(),
  /** Estimated USD; null with `tokens` set means a model without a known price ("?", never 0). */
  cost_usd: z.number().nonnegative().nullable(),
  /** The four kinds of `tokens`, as the Messages API names them. */
  usage: z
    .object({ input_tokens: z.number().int().nonnegative(), output_tokens: z.number().int().nonnegative(), cache_creation_input_tokens: z.number().int().nonnegative(), cache_read_input_tokens: z.number().int().nonnegative() })
    .nullish(),
  /** Unread messages waiting in the agent's inbox. */
  queued: z.number().int().nonnegative(),
  terminal: TerminalModeSchema,
  /** Offered when the host can start it again (dead or stopped teammate with a known command, or the lead). */
  can_respawn: z.boolean(),
  /** Request id of the approval this teammate waits for ("waiting for approval"), else null. */
  waiting_for: z.string().max(100).nullable().default(null),
  /** Which spending budget a live teammate waits on ("budget reached"), else null. */
  budget_reached: z.string().max(500).nullable().default(null),
  /** State `error`: why its model calls fail, one line ("API key refused (401)"); else null. */
  error: z.string().max(500).nullable().default(null),
  /** A live agent retrying a model call ("retrying (2/5): 529 overloaded"), else null. */
  retry: z.string().max(500).nullable().default(null),
  /** What it costs the machine: CPU % and RSS of its whole process tree (live only), its worktree's disk use. */
  resources: z
    .object({ cpu_percent: z.number().nonnegative().nullable(), rss_bytes: z.number().int().nonnegative().nullable(), disk_bytes: z.number().int().nonnegative().nullable() })
    .nullish(),
  /** Commits of the lead's branch its branch lacks (Update merges them in); null without a branch of its own. */
  behind: z.number().int().nonnegative().nullish(),
  /** The lead's branch `behind` counts commits of. */
  behind_of: text(300).nullish(),
  /** Its block of ports (`PORT` = base), once it was spawned; null before. */
  ports: z.object({ base: z.number().int().min(1).max(65_535), count: z.number().int().min(1).max(1000) }).nullable().default(null),
  /** The lead's running tool the page is told about (`TeamCreate`), else null. */
  activity: z.string().max(200).nullish(),
  /** The host of the user's settings it runs on (docs/remote.md); null on this machine. */
  host: z.string().max(40).nullish(),
});
export type Member = z.infer<typeof MemberSchema>;

/** A teammate's pending permission request or plan, as the approval inbox shows it. */
export const ApprovalViewSchema = z.object({
  request_id: z.string().min(1).max(100),
  kind: z.enum(['permission', 'plan']),
  agent: agentName,
  tool: text(200),
  summary: text(2000),
  /** The command or path asked about (permission requests). */
  detail: text(20_000).nullable(),
  cwd: text(4096),
  /** The plan's Markdown and its attempt number (plans). */
  plan: text(60_000).nullable(),
  attempt: z.number().int().positive().nullable(),
  /** What "Always" would allow from now on (`Bash(npm test:*)`). */
  rule: text(2000).nullable(),
  /** The tool's input as JSON: the card says it in words and keeps this under "details". */
  input: text(20_000).nullable().optional(),
  since: z.number(),
  deadline: z.number(),
});
export type ApprovalView = z.infer<typeof ApprovalViewSchema>;

export const TaskColumnSchema = z.enum(['pending', 'in_progress', 'completed', 'parked', 'failed', 'cancelled']);
export type TaskColumn = z.infer<typeof TaskColumnSchema>;

export const TaskViewSchema = z.object({
  id: taskId,
  subject: text(2000),
  description: text(100_000),
  status: z.enum(['pending', 'in_progress', 'completed']),
  column: TaskColumnSchema,
  owner: agentName.nullable(),
  reserved_for: agentName.nullable(),
  blocked_by: z.array(taskId),
  /** Dependencies not completed yet; non-empty means blocked. */
  open_blockers: z.array(taskId),
  result: z.string().nullable(),
  updated_at: z.number(),
  /** The branch commit a worktree teammate completed at; why its completion was refused; where it landed. */
  commit: z.string().max(64).nullable().optional(),
  not_done: z.string().nullable().optional(),
  not_done_by: agentName.nullable().optional(),
  landed: z.object({ at: z.number(), into: text(300), commit: z.string().max(64) }).nullable().optional(),
});
export type TaskView = z.infer<typeof TaskViewSchema>;

/** The settings a view shows and edits: keys, bounds and defaults are the runtime's own (settings-schema.ts). */
export const SettingsViewSchema = z.object(
  SettingsSchema.pick({ teamEnabled: true, teammateMode: true, model: true, roleModels: true, maxLiveTeammates: true, autoAllowSandboxedBash: true, checks: true, worktree: true }).shape,
);
/** A change from a view: only the keys it names (no defaults filled in). */
export const SettingsPatchSchema = patchSchemaOf(SettingsViewSchema);
export type SettingsView = z.infer<typeof SettingsViewSchema>;

/** Whether the agents' Bash runs in the OS sandbox here: on, off by setting, unavailable (with why and the fix). */
export const SandboxViewSchema = z.object({
  state: z.enum(['on', 'off', 'unavailable', 'checking']),
  /** One line for people, e.g. "sandbox: on (bubblewrap)" or "sandbox: unavailable — socat not installed; guards only". */
  text: text(2000),
  /** How to get it (unavailable only). */
  fix: text(2000).nullable(),
});
export type SandboxView = z.infer<typeof SandboxViewSchema>;

/** The teammate mode the host's lead actually runs with, and why it may differ from the setting. */
export const EffectiveModeSchema = z.object({ mode: z.enum(TEAMMATE_MODES), reason: text(500) });

/** Whether the lead can start: a model key (its source and last 4 characters only) or the scripted provider. */
export const SetupViewSchema = z.object({
  /** No key and not scripted: the lead is "not configured" and the welcome offers the demo or a key. */
  needs_key: z.boolean(),
  scripted: z.boolean(),
  key: z.object({ source: z.enum(['env', 'file']), last4: z.string().max(4) }).nullable(),
  /** A stored key that cannot be used (a file others can read), as one sentence saying what to do. */
  problem: text(1000).nullable(),
});
export type SetupView = z.infer<typeof SetupViewSchema>;

/** The reply to `key_check`: accepted, or why not ("API key refused (401): invalid x-api-key"). */
export interface KeyCheck {
  ok: boolean;
  text: string;
}

/** A member as the person defines it in the team manager. */
export const MemberSpecSchema = z.object({
  role: text(200).default(''),
  /** Instructions the teammate starts with. */
  prompt: text(20_000).default(''),
  model: ModelNameSchema.nullable().default(null),
  /** `worktree`: its own git worktree and branch; `shared`: the project folder. */
  isolation: z.enum(['worktree', 'shared']).default('shared'),
  /** May only read until its plan is approved. */
  plan_mode: z.boolean().default(false),
  /** `ask`: Write/Edit/Bash outside its rules wait for the person; `auto`: no prompts (trusted folders only). */
  permission_mode: z.enum(PERMISSION_MODES).default('ask'),
  /** One of the user's hosts (settings `hosts`) it runs on; null: this machine. */
  host: HostNameSchema.nullable().default(null),
});
export type MemberSpec = z.infer<typeof MemberSpecSchema>;
/** An edit: only the fields given change (no defaults, unlike `MemberSpecSchema`). */
export const MemberSpecPatchSchema = z.object({
  role: text(200).optional(),
  prompt: text(20_000).optional(),
  model: ModelNameSchema.nullable().optional(),
  isolation: z.enum(['worktree', 'shared']).optional(),
  plan_mode: z.boolean().optional(),
  permission_mode: z.enum(PERMISSION_MODES).optional(),
  host: HostNameSchema.nullable().optional(),
});

/** One model call's spend (from the store's spend history): at, tokens, USD (null: unknown price). */
export const SpendPointSchema = z.object({ at: z.number(), tokens: z.number().int().nonnegative(), usd: z.number().nonnegative().nullable() });
export type SpendPoint = z.infer<typeof SpendPointSchema>;
export type BudgetsView = z.infer<typeof BudgetsSchema>;

/**
 * A Claude Code team shown by the dashboard (src/main/claude-code/): Claude Code owns it, so the view is
 * read-only but for messages, approvals and typing into a tmux pane the person opened for typing.
 */
export const ClaudeCodeViewSchema = z.object({
  /** Every team there is to pick from (`claude-code:<name>` opens one). */
  teams: z.array(z.object({ name: text(200), ended: z.boolean() })).max(200),
  ended: z.boolean(),
  version: text(100).nullable(),
  /** What could not be read (the file, the Claude Code version that wrote it, what failed), else null. */
  error: text(2000).nullable(),
  /** Per member: Claude Code's backend, its tmux pane (a live terminal), what it waits for ("permission prompt"). */
  members: z.record(z.string().max(100), z.object({ backend: text(50).nullable(), pane: text(50).nullable(), waiting: text(200).nullable() })),
});
export type ClaudeCodeView = z.infer<typeof ClaudeCodeViewSchema>;

/** One message of a Claude Code team's log (from its transcripts): `in` told to the member, `out` said by it. */
export const MessageLogEntrySchema = z.object({ at: z.string().max(64).nullable(), member: text(200), direction: z.enum(['in', 'out']), text: text(20_000) });
export type MessageLogEntry = z.infer<typeof MessageLogEntrySchema>;

export const WorkspaceViewSchema = z.object({
  dir: z.string(),
  team: z.string().nullable(),
  recent: z.array(z.string()).max(20),
  /** The live demo's throw-away workspace: the page offers the team's changes once its tasks are done. */
  demo: z.boolean().optional(),
  /** The pid of the workspace's host process serving the team (absent in-process): only then can a view stop the team. */
  host_pid: z.number().int().positive().optional(),
  /** A Claude Code team, not a thclaws workspace: the controls Claude Code owns are hidden. */
  claude_code: ClaudeCodeViewSchema.optional(),
});
export type WorkspaceView = z.infer<typeof WorkspaceViewSchema>;
