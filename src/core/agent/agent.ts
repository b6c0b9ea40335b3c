/**
 * One agent session: conversation, provider, tools, permissions and transcript together. The CLI (REPL
 * and -p), and later the teammate loop, drive it one prompt at a time.
 */
import type { CommandGuard, Role } from '../guard/types.js';
import { estimateCost } from './cost.js';
import { runLoop, type LoopEvents, type LoopOptions, type LoopResult } from './loop.js';
import { modelInfo } from './models.js';
import type { SessionPermissionChecker } from './permissions.js';
import type { ChatMessage, Effort, PromptBlock, Provider, ThinkingDisplay, Usage } from './providers/types.js';
import { addUsage, emptyUsage } from './providers/types.js';
import { SessionStore } from './sessions.js';
import type { Settings } from './settings.js';
import type { ShellRegistry } from './tools/shells.js';
import type { BashSandbox, BeforeTool, Tool } from './types.js';

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
  /** Background shells; killed by `dispose()`. */
  shells?: ShellRegistry;
  /** Every model call's usage and estimated USD (null: no known price), e.g. for a team agent's status. */
  onUsage?: (usage: Usage, costUsd: number | null) => void;
  /** A prompt's turn starts (true) or ends (false): the lead's status says working while it runs. */
  onTurn?: (working: boolean) => void;
}

export interface PromptResult extends LoopResult {
  /** Estimated USD of this prompt; undefined when the model has no known price. */
  costUsd?: number;
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
  /** Asked before each tool call (the Agent SDK's PreToolUse callbacks). */
  beforeTool?: BeforeTool;
  /** The model the session started with (`set_model` with no model goes back to it). */
  readonly defaultModel: string;
  private system: string;

  constructor(private readonly cfg: AgentConfig) {
    this.effort = cfg.effort ?? cfg.settings.effort;
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
    this.cfg.providerFor?.(model);
    this.model = model;
  }

  get tools(): Tool<any>[] {
    return this.cfg.tools;
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
    this.session = SessionStore.create(this.cfg.projectRoot, {
      model: this.model,
      provider: this.provider.name,
      cwd: this.cfg.cwd,
      ...(this.cfg.agentName ? { agentName: this.cfg.agentName } : {}),
    });
  }

  async prompt(text: string | PromptBlock[], signal: AbortSignal, events: LoopEvents = {}, extra: Pick<LoopOptions, 'onToolBoundary' | 'beforeModelCall'> = {}): Promise<PromptResult> {
    this.cfg.onTurn?.(true);
    try {
      return await this.run(text, signal, events, extra);
    } finally {
      this.cfg.onTurn?.(false);
    }
  }

  private async run(text: string | PromptBlock[], signal: AbortSignal, events: LoopEvents, extra: Pick<LoopOptions, 'onToolBoundary' | 'beforeModelCall'>): Promise<PromptResult> {
    const s = this.cfg.settings;
    let cost: number | undefined = 0;
    const maxOutput = modelInfo(this.model)?.maxOutput;
    const provider = this.provider;
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
      toolOutputMaxChars: s.toolOutputMaxChars,
      context: {
        cwd: this.cfg.cwd,
        projectRoot: this.cfg.sandboxRoot ?? this.cfg.projectRoot,
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
      ...(extra.beforeModelCall ? { beforeModelCall: extra.beforeModelCall } : {}),
      events: {
        ...events,
        onMessage: (m) => {
          this.session.appendMessage(m);
          events.onMessage?.(m);
        },
        onUsage: (u, unknown) => {
          const c = provider.name === 'scripted' ? 0 : unknown ? undefined : estimateCost(this.model, u);
          cost = cost === undefined || c === undefined ? undefined : cost + c;
          if (c !== undefined) this.costUsd += c;
          else this.costKnown = false;
          this.session.append({ type: 'usage', at: new Date().toISOString(), model: this.model, usage: u, ...(c !== undefined ? { costUsd: c } : {}) });
          this.cfg.onUsage?.(u, c ?? null);
          events.onUsage?.(u, unknown);
        },
      },
    });
    this.usage = addUsage(this.usage, result.usage);
    return { ...result, ...(cost !== undefined ? { costUsd: Math.round(cost * 1e6) / 1e6 } : {}) };
  }
}
