/**
 * One agent session: conversation, provider, tools, permissions and transcript together. The CLI (REPL
 * and -p), and later the teammate loop, drive it one prompt at a time.
 */
import type { CommandGuard, Role } from '../guard/types.js';
import { estimateCost } from './cost.js';
import { runLoop, type LoopEvents, type LoopOptions, type LoopResult } from './loop.js';
import { modelInfo } from '../../contract/models.js';
import type { SessionPermissionChecker } from './permissions.js';
import type { ChatMessage, Effort, PromptBlock, Provider, RetryInfo, ThinkingDisplay, ThinkingSetting, Usage } from './providers/types.js';
import { addUsage, emptyUsage } from './providers/types.js';
import { SessionStore } from './sessions.js';
import type { Settings } from './settings.js';
import type { StructuredOutput } from './structured-output.js';
import type { ShellRegistry } from './tools/shells.js';
import type { BashSandbox, BeforeTool, Tool } from './types.js';
import { modelNameProblem } from '../../contract/model-name.js';

export interface AgentConfig {
  provider: Provider;
  /**
   * The provider of a `<profile>/<model>` id (throws a one-line ProviderError for an unknown profile);
   * undefined for a plain model id, which uses `provider`. Lets /model switch providers mid-session.
   */
  providerFor?: (model: string) => Provider | undefined;
  model: string;
  settings: Settings;
  cwd: string;
  projectRoot: string;
  /** `--add-dir`: directories the tools may use like the workspace (canonical). */
  additionalDirs?: string[];
  /** Sandbox root of the tools when narrower than projectRoot (a teammate's worktree). */
  sandboxRoot?: string;
  role: Role;
  agentName?: string;
  permissions: SessionPermissionChecker;
  guard?: CommandGuard;
  sandbox?: BashSandbox;
  tools: Tool<any>[];
  system: string;
  session: SessionStore;
  /** Messages of a resumed session. */
  messages?: ChatMessage[];
  usage?: Usage;
  maxIterations?: number;
  /** `--effort`; else settings `effort`. */
  effort?: Effort;
  /** `--thinking-display`; else settings `thinkingDisplay`. */
  thinkingDisplay?: ThinkingDisplay;
  /** `--max-thinking-tokens` / `--thinking`; absent = the model's default. */
  thinking?: ThinkingSetting;
  /** `--fallback-model`: tried in order within a turn when the model is overloaded or unavailable. */
  fallbackModels?: string[];
  /** `--max-budget-usd`: no model call starts once this process's session has spent this much. */
  maxBudgetUsd?: number;
  /** Background shells; killed by `dispose()`. */
  shells?: ShellRegistry;
  /** Every model call's usage and estimated USD (null: no known price), e.g. for a team agent's status. */
  onUsage?: (usage: Usage, costUsd: number | null) => void;
  /** A prompt's turn starts (true) or ends (false, with how it ended): the lead's status says working while it runs. */
  onTurn?: (working: boolean, result?: PromptResult) => void;
  /** Each retry wait of a model call, whoever renders the turn: a team agent's status shows it. */
  onRetry?: (info: RetryInfo) => void;
  /** Before each model call: why it must not start (a spending limit reached), else undefined. */
  beforeModelCall?: () => Promise<string | undefined>;
}

export interface PromptResult extends LoopResult {
  /** Estimated USD of this prompt; undefined when the model has no known price. */
  costUsd?: number;
  /** With an output schema: the answer the model gave through StructuredOutput. */
  structuredOutput?: { v: unknown };
}

export class Agent {
  readonly messages: ChatMessage[];
  model: string;
  session: SessionStore;
  /** Totals of the session (including what a resumed session had). */
  usage: Usage;
  costUsd = 0;
  /** False once a call's cost was unknown: `costUsd` is then a lower bound, shown as `$?`. */
  costKnown = true;

  readonly effort?: Effort;
  /** Asked-for thinking; the Agent SDK's `set_max_thinking_tokens` changes it mid-session. */
  thinking?: ThinkingSetting;
  /** Asked before each tool call (the Agent SDK's PreToolUse callbacks). */
  beforeTool?: BeforeTool;
  /** The model the session started with (`set_model` with no model goes back to it). */
  readonly defaultModel: string;
  private system: string;
  private structured?: StructuredOutput;

  constructor(private readonly cfg: AgentConfig) {
    this.effort = cfg.effort ?? cfg.settings.effort;
    if (cfg.thinking) this.thinking = cfg.thinking;
    this.defaultModel = cfg.model;
    this.system = cfg.system;
    this.messages = cfg.messages ?? [];
    this.model = cfg.model;
    this.session = cfg.session;
    this.usage = cfg.usage ?? emptyUsage();
  }

  get provider(): Provider {
    return this.cfg.providerFor?.(this.model) ?? this.cfg.provider;
  }

  /** The provider a model id would talk to (its profile's, or the plain one); throws for an unusable profile. */
  providerOf(model: string): Provider {
    return this.cfg.providerFor?.(model) ?? this.cfg.provider;
  }

  /** Switches the model (and with a `<profile>/` prefix, the provider); throws for an unknown profile. */
  setModel(model: string): void {
    const problem = modelNameProblem(model);
    if (problem) throw new Error(problem);
    this.cfg.providerFor?.(model);
    this.model = model;
  }

  get tools(): Tool<any>[] {
    return this.cfg.tools;
  }

  /** `--json-schema` / the Agent SDK's output format: every turn must end with an answer valid against it. */
  setOutputSchema(structured: StructuredOutput): void {
    const at = this.cfg.tools.findIndex((t) => t.name === structured.tool.name);
    if (at >= 0) this.cfg.tools.splice(at, 1);
    this.cfg.tools.push(structured.tool);
    this.structured = structured;
  }

  /** The Agent SDK's `systemPrompt` string: replaces ours from the next model call on. */
  replaceSystemPrompt(text: string): void {
    this.system = text;
  }

  /** `--append-system-prompt` / the SDK's preset `append`: added after ours. */
  appendSystemPrompt(text: string): void {
    this.system = `${this.system}\n\n${text}`;
  }

  /** Forget the conversation and continue in a new transcript. */
  clear(): void {
    this.messages.length = 0;
    this.session = SessionStore.create(
      this.cfg.projectRoot,
      { model: this.model, provider: this.provider.name, cwd: this.cfg.cwd, ...(this.cfg.agentName ? { agentName: this.cfg.agentName } : {}) },
      { persist: this.session.persisted },
    );
  }

  /** Why the next model call must not start under `maxBudgetUsd` (checked between calls: never mid-tool). */
  private overBudget(): string | undefined {
    const max = this.cfg.maxBudgetUsd;
    if (max === undefined) return undefined;
    if (!this.costKnown) return `the cost of a model call is unknown, so the budget ($${max}) cannot be kept`;
    return this.costUsd >= max ? `Reached maximum budget ($${max})` : undefined;
  }

  async prompt(text: string | PromptBlock[], signal: AbortSignal, events: LoopEvents = {}, extra: Pick<LoopOptions, 'onToolBoundary' | 'beforeModelCall'> = {}): Promise<PromptResult> {
    this.cfg.onTurn?.(true);
    let result: PromptResult | undefined;
    try {
      result = await this.run(text, signal, events, extra);
      return result;
    } finally {
      this.cfg.onTurn?.(false, result);
    }
  }

  private async run(text: string | PromptBlock[], signal: AbortSignal, events: LoopEvents, extra: Pick<LoopOptions, 'onToolBoundary' | 'beforeModelCall'>): Promise<PromptResult> {
    const s = this.cfg.settings;
    let cost: number | undefined = 0;
    const maxOutput = modelInfo(this.model)?.maxOutput;
    const provider = this.provider;
    const finish = this.structured?.begin();
    const result = await runLoop(text, {
      ...extra,
      provider,
      model: this.model,
      system: this.system,
      tools: this.cfg.tools,
      messages: this.messages,
      maxIterations: this.cfg.maxIterations ?? s.maxIterations,
      maxTokens: maxOutput ? Math.min(s.maxTokens, maxOutput) : s.maxTokens,
      ...(this.effort ? { effort: this.effort } : {}),
      thinkingDisplay: this.cfg.thinkingDisplay ?? s.thinkingDisplay,
      ...(this.thinking ? { thinking: this.thinking } : {}),
      ...(this.cfg.fallbackModels?.length ? { fallbackModels: this.cfg.fallbackModels, providerFor: (m: string) => this.cfg.providerFor?.(m) ?? this.cfg.provider } : {}),
      toolOutputMaxChars: s.toolOutputMaxChars,
      context: {
        cwd: this.cfg.cwd,
        projectRoot: this.cfg.sandboxRoot ?? this.cfg.projectRoot,
        ...(this.cfg.additionalDirs?.length ? { additionalDirs: this.cfg.additionalDirs } : {}),
        role: this.cfg.role,
        permissions: this.cfg.permissions,
        limits: s,
        ...(this.cfg.shells ? { shells: this.cfg.shells } : {}),
        ...(this.cfg.agentName ? { agentName: this.cfg.agentName } : {}),
        ...(this.cfg.guard ? { guard: this.cfg.guard } : {}),
        ...(this.cfg.sandbox ? { sandbox: this.cfg.sandbox } : {}),
        ...(this.beforeTool ? { beforeTool: this.beforeTool } : {}),
      },
      signal,
      ...(extra.onToolBoundary ? { onToolBoundary: extra.onToolBoundary } : {}),
      beforeModelCall: async () => this.overBudget() ?? (await this.cfg.beforeModelCall?.()) ?? (await extra.beforeModelCall?.()),
      ...(finish ? { finish } : {}),
      events: {
        ...events,
        ...(this.cfg.onRetry
          ? {
              onRetry: (i: RetryInfo) => {
                this.cfg.onRetry?.(i);
                events.onRetry?.(i);
              },
            }
          : {}),
        onMessage: (m) => {
          this.session.appendMessage(m);
          events.onMessage?.(m);
        },
        onUsage: (u, unknown, model) => {
          const scripted = (this.cfg.providerFor?.(model) ?? this.cfg.provider).name === 'scripted';
          const c = scripted ? 0 : unknown ? undefined : estimateCost(model, u);
          cost = cost === undefined || c === undefined ? undefined : cost + c;
          if (c !== undefined) this.costUsd += c;
          else this.costKnown = false;
          this.session.append({ type: 'usage', at: new Date().toISOString(), model, usage: u, ...(c !== undefined ? { costUsd: c } : {}) });
          this.cfg.onUsage?.(u, c ?? null);
          events.onUsage?.(u, unknown, model);
        },
      },
    });
    this.usage = addUsage(this.usage, result.usage);
    const answer = result.stop === 'end_turn' ? this.structured?.output : undefined;
    return { ...result, ...(cost !== undefined ? { costUsd: Math.round(cost * 1e6) / 1e6 } : {}), ...(answer ? { structuredOutput: answer } : {}) };
  }
}
