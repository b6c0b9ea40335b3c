/**
 * The one API contract between the TeamHost and every view (Electron IPC and the web transport).
 * The renderer and the preload bundle it; like every file of src/contract it imports only zod and the folder.
 * Every message that crosses a transport is parsed with these schemas at the boundary; the renderer and the
 * host import the inferred types, so a field added here is checked on both sides.
 */
import { z } from 'zod';
import { BudgetLimitSchema, BudgetsSchema, HostNameSchema } from './settings-schema.js';
import { agentName, taskId, text } from './fields.js';
import { ChangeSourceSchema, ChangesViewSchema, ConflictWarningSchema, relPath, ReviewCommentViewSchema } from './review-views.js';
import { StoreCallSchema, StoreWakeKindSchema } from './store-api.js';

export * from './review-views.js';

export * from './views.js';
import { ApprovalViewSchema, EffectiveModeSchema, MemberSchema, MessageLogEntrySchema, MemberSpecPatchSchema, MemberSpecSchema, SandboxViewSchema, SettingsPatchSchema, SettingsViewSchema, SetupViewSchema, SpendPointSchema, TaskViewSchema, WorkspaceViewSchema } from './views.js';

// ---------------------------------------------------------------------------------------------------------
// Requests: view → host. `id` pairs a request with its reply; id 0 asks for no reply unless it fails
// (acks, keystrokes and resizes are frequent and need none).

const req = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ id: z.number().int().nonnegative(), type: z.literal(type), ...shape }).strict();

export const MAX_INPUT_CHARS = 64 * 1024;
export const MAX_MESSAGE_CHARS = 100_000;

export const RequestSchema = z.discriminatedUnion('type', [
  req('subscribe', {}),
  /** `cols`/`rows` when the view shows the terminal now; without them its size does not count (yet). */
  req('attach', { agent: agentName, cols: z.number().int().min(2).max(1000).optional(), rows: z.number().int().min(1).max(500).optional() }),
  req('detach', { agent: agentName }),
  /** Characters of output the view has rendered (from xterm's write callback). */
  req('ack', { agent: agentName, chars: z.number().int().positive().max(1 << 30) }),
  /** Characters of output (all agents) the view has received, rendered or not: the host's transit window. */
  req('received', { chars: z.number().int().positive().max(1 << 30) }),
  req('input', { agent: agentName, data: text(MAX_INPUT_CHARS) }),
  /**
   * The view's own size for the terminal (what its pane fits). `active`: the person caused it (focused the
   * terminal, resized the window), so the pty takes this view's size; otherwise the pty keeps the size of the
   * view used last (typing in a view also makes it the one used last).
   */
  req('resize', { agent: agentName, cols: z.number().int().min(2).max(1000), rows: z.number().int().min(1).max(500), active: z.boolean().optional() }),
  /** The view stopped showing the terminal (it still receives output): its size no longer counts. */
  req('unsize', { agent: agentName }),
  req('send_message', { to: z.union([agentName, z.literal('*')]), text: z.string().min(1).max(MAX_MESSAGE_CHARS) }),
  req('abort_turn', { agent: agentName }),
  req('stop', { agent: agentName }),
  req('respawn', { agent: agentName }),
  req('restart_lead', {}),
  req('task_create', {
    subject: z.string().min(1).max(500),
    description: text(20_000).default(''),
    reserved_for: agentName.nullable().default(null),
    blocked_by: z.array(taskId).max(100).default([]),
  }),
  req('task_edit', { task: taskId, subject: z.string().min(1).max(500).optional(), description: text(20_000).optional() }),
  req('task_reassign', { task: taskId, reserved_for: agentName.nullable() }),
  req('task_cancel', { task: taskId }),
  req('settings_get', {}),
  req('settings_set', { patch: SettingsPatchSchema }),
  /** `dir` a folder, or `ssh://[user@]host[:port]/path` (a dashboard that reaches other machines); `use_my_key`: hold this machine's key there. */
  req('open_workspace', { dir: z.string().min(1).max(4096), use_my_key: z.boolean().optional() }),
  /** Stores the person's model key in their config directory (never the workspace); the reply has its last 4. */
  req('key_set', { key: z.string().min(1).max(500) }),
  /** Deletes the stored key from the config directory (a key from the environment stays: it is not ours). */
  req('key_remove', {}),
  /** One model-list call with the agents' key (no spend): the reply is `KeyCheck`, the provider's refusal in words. */
  req('key_check', {}),
  /**
   * The desktop app's stored key, decrypted by its main process (safeStorage) and handed to the host, which
   * holds it in memory for its agents and never writes it; the reply has its last 4.
   */
  req('key_hold', { key: z.string().min(1).max(500) }),
  /** Opens a throw-away workspace running the scripted demo team in this dashboard (no key needed). */
  req('demo_start', {}),
  // The team from the GUI: the store's membership rules and the runtime's own spawn.
  req('team_create', { name: z.string().regex(/^[A-Za-z0-9_][A-Za-z0-9_ .-]{0,63}$/, 'a team name: letters, digits, space, . _ -'), description: text(2000).default('') }),
  req('member_add', { name: agentName, spec: MemberSpecSchema }),
  req('member_edit', { name: agentName, spec: MemberSpecPatchSchema }),
  req('member_remove', { name: agentName }),
  req('member_start', { name: agentName }),
  /** Merges the lead's branch into an idle teammate's worktree (`thclaws team update`). */
  req('member_update', { name: agentName }),
  /** Removes a teammate's worktree and branch once its work landed; `force` also takes unlanded work or a live one (`thclaws team cleanup`). */
  req('member_archive', { name: agentName, force: z.boolean().default(false) }),
  /** A tool output a pane cut short, whole (`file` as the pane names it; only this workspace's saved outputs are read): the expander. */
  req('saved_output', { file: z.string().min(1).max(4096) }),
  /** Starts every teammate that ran and is now dead or stopped again, each continuing its saved conversation; refused while one is live. */
  req('team_resume', {}),
  /**
   * "Stop the team and quit": the workspace's host asks each live teammate to finish up and stop (as the lead
   * does), stops whoever has not after a grace period, stops the lead, and exits. Only a host process serves it.
   */
  req('host_stop', {}),
  /**
   * A spending limit in the team's budgets.json, as `thclaws team budget` sets it: one teammate's (`agent`), a
   * role's or the team's (neither); `limit` null clears it. Raising a reached budget resumes the teammate.
   */
  req('budget_set', { agent: agentName.optional(), role: z.string().min(1).max(64).optional(), limit: BudgetLimitSchema.nullable() }),
  /** The person's answer to a pending approval: allow (Approve / Always) or deny (Deny / Reject + feedback). */
  req('approval_answer', {
    request_id: z.string().min(1).max(100),
    allow: z.boolean(),
    always: z.boolean().default(false),
    team: z.boolean().default(false),
    feedback: text(5000).optional(),
  }),
  /** Review and merge: one file's unified patch; a comment; its state; send the pending review. */
  req('review_file', { agent: agentName, path: relPath, source: ChangeSourceSchema }),
  req('review_comment', { agent: agentName, path: relPath, line: z.number().int().positive(), end_line: z.number().int().positive().nullable().default(null), text: z.string().min(1).max(20_000) }),
  req('review_comment_state', { agent: agentName, comment_id: z.string().min(1).max(64), state: z.enum(['pending', 'resolved', 'deleted']) }),
  /** `request_changes`: also reopen the teammate's last completed task with the review as its description. */
  req('review_send', { agent: agentName, request_changes: z.boolean().default(false) }),
  req('merge_overview', {}),
  req('merge_dry_run', { agents: z.array(agentName).min(1).max(64) }),
  req('merge_run', { agents: z.array(agentName).min(1).max(64), checks: z.boolean().default(true), allow_live: z.boolean().default(false), allow_uncommitted: z.boolean().default(false), allow_open_comments: z.boolean().default(false) }),
  /** Merge one conflicting branch into the lead's checkout and leave it in progress (both sides shown); abort it. */
  req('merge_leave_conflicted', { agent: agentName }),
  req('merge_conflicts', {}),
  /** `confirm`: abort even though the merge holds the person's work (saved to a patch first). */
  req('merge_abort', { confirm: z.boolean().default(false) }),
  /** A teammate on another machine: one operation on the team state, carried out by this host (store-api.ts). */
  req('store', StoreCallSchema.shape),
]);
export type Request = z.infer<typeof RequestSchema>;
export type RequestType = Request['type'];
/** A request as a view builds it (the transport client adds the id). */
export type RequestBody = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

// ---------------------------------------------------------------------------------------------------------
// Events: host → view.

export const EventSchema = z.discriminatedUnion('type', [
  /** Answer to request `id`: `ok` with an optional result, or not ok with one-line `error`. */
  z.object({ type: z.literal('reply'), id: z.number().int(), ok: z.boolean(), result: z.unknown().optional(), error: text(2000).optional() }),
  z.object({ type: z.literal('workspace'), workspace: WorkspaceViewSchema }),
  /** The whole roster (sent when membership changes); per-agent changes come as `member`. */
  z.object({ type: z.literal('roster'), team: z.string().nullable(), members: z.array(MemberSchema) }),
  z.object({ type: z.literal('member'), member: MemberSchema }),
  z.object({ type: z.literal('tasks'), tasks: z.array(TaskViewSchema) }),
  z.object({ type: z.literal('task'), task: TaskViewSchema }),
  z.object({ type: z.literal('task_removed'), id: taskId }),
  /** Terminal output; `seq` is the offset (in characters) of `data` in the agent's stream. */
  z.object({ type: z.literal('output'), agent: agentName, seq: z.number().int().nonnegative(), data: z.string() }),
  /**
   * The screen sent on attach: escape sequences that rebuild the terminal's screen, scrollback and modes as
   * they stand at stream offset `seq`; the view resets its terminal, writes them, then the output from `seq` on.
   */
  z.object({ type: z.literal('replay'), agent: agentName, seq: z.number().int().nonnegative(), data: z.string() }),
  /** The pty's size (the view used last sets it): every view shows the terminal at this size. */
  z.object({ type: z.literal('pty_size'), agent: agentName, cols: z.number().int().min(2).max(1000), rows: z.number().int().min(1).max(500) }),
  z.object({ type: z.literal('exit'), agent: agentName, code: z.number().int().nullable(), signal: z.string().nullable() }),
  /** `models`: what a model field offers (the Anthropic aliases and each provider profile's `<profile>/<model>`). */
  z.object({ type: z.literal('settings'), settings: SettingsViewSchema, restart_needed: z.boolean(), effective_mode: EffectiveModeSchema.optional(), models: z.array(text(200)).max(1000).optional(), hosts: z.array(HostNameSchema).max(256).optional() }),
  z.object({ type: z.literal('sandbox'), sandbox: SandboxViewSchema }),
  z.object({ type: z.literal('setup'), setup: SetupViewSchema }),
  /** Each member's definition as the team manager edits it (config plus the person's settings for it). */
  z.object({ type: z.literal('member_specs'), specs: z.record(agentName, MemberSpecSchema) }),
  /** Spending limits: budgets.json (`stored`, wins at its level) and the settings' `budgets`. */
  z.object({ type: z.literal('budgets'), stored: BudgetsSchema, settings: BudgetsSchema }),
  /** An agent's latest model calls from its spend history (tokens and USD of each; usd null: unknown price), oldest first. */
  z.object({ type: z.literal('spend'), agent: agentName, calls: z.array(SpendPointSchema).max(500) }),
  /** The workspace's host is exiting on purpose (stopped, idle): a view must not start it again by itself. */
  z.object({ type: z.literal('host_closed'), reason: text(500) }),
  z.object({ type: z.literal('notice'), level: z.enum(['info', 'warn', 'error']), text: text(2000) }),
  /** The dashboard's link to a team on another machine (`--remote`) dropped (`lost`) or came back; the team runs on there. */
  z.object({ type: z.literal('link'), lost: z.boolean(), label: text(300) }),
  /** The remote workspaces this machine opened lately (`ssh://…`, newest first), for the picker; `dialog`: ask for one now (the desktop's menu). */
  z.object({ type: z.literal('remotes'), urls: z.array(text(4096)).max(20), dialog: z.boolean().optional() }),
  /** The approval inbox: every live teammate's pending request, oldest first (sent whole on each change). */
  z.object({ type: z.literal('approvals'), pending: z.number().int().nonnegative(), items: z.array(ApprovalViewSchema).default([]) }),
  /** One teammate's changes (committed and uncommitted) and its review comments, sent when either changes. */
  z.object({ type: z.literal('review_changes'), agent: agentName, changes: ChangesViewSchema, comments: z.array(ReviewCommentViewSchema) }),
  /** Every current overlap/conflict warning between teammates (sent whole on each change). */
  z.object({ type: z.literal('conflict_warnings'), warnings: z.array(ConflictWarningSchema) }),
  /** Output of a merge run's checks, as it comes; `done` with the run's result at the end. */
  z.object({ type: z.literal('merge_output'), run: z.string().max(64), data: z.string() }),
  z.object({ type: z.literal('merge_done'), run: z.string().max(64), result: z.unknown() }),
  /** To an attached teammate (store-api.ts): its inbox, the board or the config changed; it reads again. */
  z.object({ type: z.literal('store_wake'), kind: StoreWakeKindSchema }),
  /** A Claude Code team's messages (its latest, oldest first), sent whole on each change. */
  z.object({ type: z.literal('message_log'), entries: z.array(MessageLogEntrySchema).max(1000) }),
]);
export type HostEvent = z.infer<typeof EventSchema>;
export type HostEventOf<T extends HostEvent['type']> = Extract<HostEvent, { type: T }>;

/** Parses a raw request; never throws. The error names the field so the sender can fix it. */
export function parseRequest(raw: unknown): { ok: true; request: Request } | { ok: false; id: number; error: string } {
  const res = RequestSchema.safeParse(raw);
  if (res.success) return { ok: true, request: res.data };
  const id = typeof raw === 'object' && raw !== null && typeof (raw as { id?: unknown }).id === 'number' ? (raw as { id: number }).id : -1;
  const issue = res.error.issues[0];
  const where = issue && issue.path.length ? issue.path.join('.') : '(message)';
  return { ok: false, id: Number.isInteger(id) && id >= 0 ? id : -1, error: `invalid request: ${where}: ${issue?.message ?? 'invalid'}` };
}

export function parseEvent(raw: unknown): { ok: true; event: HostEvent } | { ok: false; error: string } {
  const res = EventSchema.safeParse(raw);
  if (res.success) return { ok: true, event: res.data };
  const issue = res.error.issues[0];
  return { ok: false, error: `invalid event: ${issue?.path.join('.') || '(message)'}: ${issue?.message ?? 'invalid'}` };
}

// ---------------------------------------------------------------------------------------------------------
// The workspace's host process over its local socket: one JSON object per line. The client's first line is
// `hello`; the host answers `welcome` (then serves requests → events as above) or `refused` and closes.

/** Bumped whenever a message of the host protocol changes shape. */
export const HOST_PROTOCOL = 1;
/** The start of the line `thclaws host connect --no-start` fails with when no host runs there (the far end reads it). */
export const NO_HOST_LINE = 'no host runs for';

/** The hello's `client` of a dashboard the person ran with `--use-my-key`: like Electron's main, it may hand the host a key (key_hold). */
export const USE_MY_KEY_CLIENT = 'dashboard --use-my-key';

export const HostHelloSchema = z.object({
  type: z.literal('hello'),
  protocol: z.number().int().nonnegative(),
  /** Who connects (logged by the host): `dashboard`, `electron`, `cli`. */
  client: z.string().min(1).max(64),
  /**
   * Ask the host to stop its team and exit (`thclaws host --stop`): negotiated as "Stop the team and quit"
   * (each teammate asked, a grace, then stopped); the host answers `host_closed {reason}` once done.
   */
  stop: z.boolean().optional(),
  /** With `stop`: stop the agents at once, without asking (`thclaws host --stop --force`). */
  force: z.boolean().optional(),
});
export type HostHello = z.infer<typeof HostHelloSchema>;

export const HostWelcomeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('welcome'), protocol: z.number().int(), pid: z.number().int().positive(), workspace: z.string().max(4096) }),
  /** `stopping`: the host is stopping its team; a client must not start another host because of it. */
  z.object({ type: z.literal('refused'), error: text(2000), code: z.enum(['stopping']).optional() }),
]);
export type HostWelcome = z.infer<typeof HostWelcomeSchema>;

/** The Electron IPC channels, for main and the preload bridge: requests view → host, events host → view. */
export const IPC_CHANNELS = { request: 'thclaws:request', event: 'thclaws:event' } as const;

/** Flow-control constants shared by host and views (characters). */
export const FLOW = {
  /** Pause the pty when a view has this much unacknowledged output. */
  highWater: 512 * 1024,
  /** Resume once unacknowledged output falls below this. */
  lowWater: 128 * 1024,
  /** Batching window of pty output before it is sent. */
  batchMs: 5,
  /** Output in transit to a view (sent, not yet received) above which bulk output waits in the host. */
  transit: 256 * 1024,
  /** Largest single output event (xterm cannot split a huge write). */
  maxChunk: 64 * 1024,
  /** Characters of raw history a view keeps per pane (what it rewrites when a pane is shown again). */
  scrollback: 1024 * 1024,
  /** Scrollback lines of the host's screen of each pty and of the views' terminals (restored on attach). */
  scrollbackLines: 1000,
  /**
   * A view over a limit (unacknowledged or in transit) that has not acknowledged anything for this long is
   * behind (a frozen tab, a half-open link): it stops holding the source and the others, and gets the screen
   * again once it catches up.
   */
  stallMs: 2000,
} as const;
