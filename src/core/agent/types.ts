/** Contract of the agent runtime: tools, their context, and the pluggable permission check. */
import type { z } from 'zod';
import type { CommandGuard, Role } from '../guard/types.js';

export interface ToolResult {
  content: string;
  isError?: boolean;
  /**
   * Refused by the session's client itself (the Agent SDK's canUseTool or PreToolUse hook): its decision, not
   * a failure — Claude Code counts it among `permission_denials` and still ends the turn as a success.
   */
  deniedByClient?: boolean;
  /** Sent to the model instead of `content` (an image or PDF that Read returns); `content` describes it for people. */
  blocks?: import('./providers/types.js').PromptBlock[];
}

export interface ToolContext {
  /** Directory relative paths and commands resolve against. */
  cwd: string;
  /** Sandbox root: THCLAWS_PROJECT_ROOT if set, else the workspace. */
  projectRoot: string;
  /** `--add-dir`: more directories the tools may read and write, exactly like the workspace. */
  additionalDirs?: readonly string[];
  role: Role;
  /** Team agent name when in a team (`lead` or a teammate). */
  agentName?: string;
  signal: AbortSignal;
  permissions: PermissionChecker;
  /** Role guard; absent (or role solo) means no role rule applies. */
  guard?: CommandGuard;
  /** Policy limits from settings; tools fall back to the settings defaults when absent. */
  limits?: Partial<ToolLimits>;
  /**
   * OS sandbox around shell commands (src/core/sandbox): Bash applies `wrap` to every command (foreground
   * and background) right before spawning it.
   */
  sandbox?: BashSandbox;
  /** Background shells of this agent (run_in_background, BashOutput, KillShell). */
  shells?: import('./tools/shells.js').ShellRegistry;
  /** Asked before each validated call (the Agent SDK's PreToolUse callbacks). */
  beforeTool?: BeforeTool;
  /** A running command's output as it comes (Bash in the foreground): the terminal's live tail. */
  onOutput?: (chunk: string) => void;
}

/**
 * A PreToolUse decision: `deny` refuses (the text is the tool result); `input` replaces the call's input (it
 * is validated, guarded and permission-checked like the model's own); `ask` makes the permission question
 * be asked whatever the mode or rules say; `context` is added to the tool result for the model.
 */
export interface BeforeToolAnswer {
  deny?: string;
  /** The deny is the client's own decision (see ToolResult.deniedByClient). */
  deniedByClient?: boolean;
  input?: unknown;
  ask?: string;
  context?: string;
}
export type BeforeTool = (call: { tool: string; input: unknown; toolUseId: string }, signal: AbortSignal) => Promise<BeforeToolAnswer | undefined>;

/** Wraps a shell command so it runs inside the OS sandbox; `explain` names the rule behind a refused write. */
export interface BashSandbox {
  /** The command line to run with `sh -c` instead of `command`; throws when Bash must not run at all. */
  wrap(command: string, signal: AbortSignal): Promise<string>;
  explain?(output: string, cwd: string): string | undefined;
}

/** The settings a tool obeys (see settings.ts for the defaults and why). */
export interface ToolLimits {
  bashTimeoutMs: number;
  bashMaxTimeoutMs: number;
  bashKillGraceMs: number;
  readDefaultLines: number;
  searchMaxResults: number;
  grepMaxFileBytes: number;
  toolOutputMaxChars: number;
}

export interface Tool<I = unknown> {
  name: string;
  description: string;
  inputSchema: z.ZodType<I>;
  /** The JSON schema the model sees when it is not `inputSchema`'s own (an MCP tool's, which its server validates). */
  inputJsonSchema?: Record<string, unknown>;
  /** Whether the permission check runs before `run` (Write, Edit, Bash). */
  needsPermission: boolean;
  /** Changes nothing (Read, Glob, Grep): calls of one turn may run concurrently. */
  readOnly?: boolean;
  run(input: I, ctx: ToolContext): Promise<ToolResult>;
  /**
   * Checks that need no person (sandbox, role guard), run before the permission question so nobody is
   * asked about an action that would be refused anyway. Returns an error result to refuse.
   */
  preflight?(input: I, ctx: ToolContext): Promise<ToolResult | undefined>;
  /** One line for the permission question and the transcript. */
  summarize?(input: I, ctx: ToolContext): string;
  /**
   * Field names this tool took before it used Claude Code's (old → new), still accepted in a call, so
   * scripts and sessions written with the old names keep working; the model sees only the new names.
   */
  legacyFields?: Readonly<Record<string, string>>;
}

export interface PermissionRequest {
  tool: string;
  input: unknown;
  /** One human-readable line: what would happen. */
  summary: string;
  agentName?: string;
  /** What an `always` answer would allow from now on, e.g. `Bash(npm test:*)` or `Write(src/)`. */
  scope?: string;
  /** The `permissions.ask` rule that makes this call ask: no allow rule, worktree or "always" answer skips it. */
  askRule?: string;
  /** The model's tool_use id, for approvers that show or answer per call (the Agent SDK's canUseTool). */
  toolUseId?: string;
  /** Why a PreToolUse hook wants this call asked: asked whatever the mode, the allow rules or a protected path say. */
  hookAsk?: string;
}

/** `{ deny }` refuses with the approver's reason (a person's feedback, a timeout) for the model to read. */
export type ApproverAnswer = 'allow' | 'deny' | 'always' | { deny: string; deniedByClient?: boolean } | { allow: unknown };

/**
 * Who answers a permission request: the REPL asks the person; in a team a teammate's approver writes
 * a permission_request to the lead inbox and waits; the desktop app shows a card.
 */
export interface Approver {
  decide(req: PermissionRequest, signal: AbortSignal): Promise<ApproverAnswer>;
}

/** `input`: the approver allowed a changed input (the tool validates and preflights it again). */
export type PermissionDecision = { allowed: true; input?: unknown } | { allowed: false; reason: string; deniedByClient?: boolean };

export interface PermissionChecker {
  check(req: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision>;
  /** Whether an ask or deny rule covers a call of a tool that otherwise needs no permission (Read, WebFetch). */
  restricts?(req: PermissionRequest): boolean;
  /** Why a deny rule refuses this call, if one does: an approver's changed input is held to deny rules too. */
  denial?(req: PermissionRequest): string | undefined;
}
