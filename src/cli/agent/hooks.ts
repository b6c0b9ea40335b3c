/**
 * Extension points for later issues (teams, desktop) without editing the agent CLI: extra tools, system
 * prompt addenda, the role guard, the approver, and slash commands. Register before the action runs.
 */
import type { Agent, PromptResult } from '../../core/agent/agent.js';
import type { RetryInfo, Usage } from '../../core/agent/providers/types.js';
import type { Approver, Tool } from '../../core/agent/types.js';
import type { Settings } from '../../core/agent/settings.js';
import type { CommandGuard, Role } from '../../core/guard/types.js';

export interface RuntimeInfo {
  role: Role;
  agentName?: string;
  cwd: string;
  projectRoot: string;
  settings: Settings;
  interactive: boolean;
  /** Root the file tools and Bash are confined to when it differs from projectRoot (a teammate's worktree). */
  sandboxRoot?: string;
}

export interface AgentHooks {
  /** Runs once after the role hooks and before the other hooks: may load modules and set up state asynchronously. */
  prepare?: (info: RuntimeInfo) => Promise<void>;
  /** May change the role computed from the flags (the team hooks: `lead` when teamEnabled and no team agent). */
  role?: (info: RuntimeInfo) => Role | undefined;
  /** Called once the role is known; may return a guard (the team hooks: createCommandGuard). */
  guard?: (info: RuntimeInfo) => CommandGuard | undefined;
  tools?: (info: RuntimeInfo) => Tool<any>[];
  /** May replace entries of the final tool list in place (team hooks wrap preflight for PreToolUse). */
  wrapTools?: (tools: Tool<any>[], info: RuntimeInfo) => void;
  systemAddenda?: (info: RuntimeInfo) => string[];
  /** Replaces the default approver (REPL question / deny) — e.g. a teammate's dashboard round trip. */
  approver?: (info: RuntimeInfo) => Approver | undefined;
  /** Each model call's usage and estimated USD (null: unknown price) — a team agent records it in its status. */
  onUsage?: (usage: Usage, costUsd: number | null) => void;
  /** A turn of the agent starts (true) or ends (false, with how it ended). */
  onTurn?: (working: boolean, result?: PromptResult) => void;
  /** Each retry wait of a model call (a team agent shows it in its status). */
  onRetry?: (info: RetryInfo) => void;
  /** The saved session the agent writes, once opened (created or resumed). */
  onSession?: (id: string) => void;
  /** Before each model call: why it must not start (the lead's spending limit), else undefined. */
  beforeModelCall?: () => Promise<string | undefined>;
}

export interface SlashContext {
  agent: Agent;
  args: string;
  print: (line: string) => void;
}

export interface SlashCommand {
  help: string;
  run(ctx: SlashContext): Promise<void> | void;
}

export const agentHooks: AgentHooks[] = [];
export const slashCommands = new Map<string, SlashCommand>();

export function registerAgentHooks(hooks: AgentHooks): void {
  agentHooks.push(hooks);
}

export function registerSlashCommand(name: string, command: SlashCommand): void {
  slashCommands.set(name.replace(/^\//, ''), command);
}

/** What a REPL extension (the team lead's inbox handling) may do with the running REPL. */
export interface ReplContext {
  agent: Agent;
  /** Runs `prompt` as a turn as soon as the REPL is idle (at once when it is waiting at the prompt); then `after`. */
  inject(prompt: string, after?: () => Promise<void>): void;
  print(line: string): void;
  ask(question: string): Promise<string | null>;
}

export interface ReplExtension {
  /** Runs when the person leaves the REPL, before it exits. */
  onExit?(): Promise<void>;
  /** Sees each prompt the person typed (not injected turns) before it runs. */
  onPersonPrompt?(text: string): void;
}

export const replExtensions: Array<(ctx: ReplContext) => ReplExtension | undefined> = [];
