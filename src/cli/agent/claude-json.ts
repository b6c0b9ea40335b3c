/** Builds the Claude-Code-compatible messages of `-p --output-format json|stream-json` (src/core/agent/output-schema.ts). */
import { randomBytes, randomUUID } from 'node:crypto';
import type { PromptResult } from '../../core/agent/agent.js';
import type { LoopEvents } from '../../core/agent/loop.js';
import type { AssistantMessage, StreamJsonLine, ResultMessage, SystemInitMessage } from '../../core/agent/output-schema.js';
import type { ChatMessage, Usage } from '../../core/agent/providers/types.js';
import { estimateCost } from '../../core/agent/cost.js';
import { modelInfo } from '../../core/agent/models.js';
import { VERSION } from '../version.js';
import type { Runtime } from './setup.js';

/** Per-model totals of this process's session, as the Agent SDK's `modelUsage` (cumulative across turns). */
const modelUsageOf = new WeakMap<Runtime, Map<string, { u: Usage; cost: number }>>();

function addModelUsage(rt: Runtime, model: string, u: Usage): void {
  let m = modelUsageOf.get(rt);
  if (!m) modelUsageOf.set(rt, (m = new Map()));
  const e = m.get(model) ?? { u: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, cost: 0 };
  e.u.inputTokens += u.inputTokens;
  e.u.outputTokens += u.outputTokens;
  e.u.cacheReadTokens += u.cacheReadTokens;
  e.u.cacheWriteTokens += u.cacheWriteTokens;
  e.cost += (rt.agent.provider.name === 'scripted' ? 0 : estimateCost(model, u)) ?? 0;
  m.set(model, e);
}

function modelUsageJson(rt: Runtime) {
  const out: ResultMessage['modelUsage'] = {};
  for (const [model, { u, cost }] of modelUsageOf.get(rt) ?? []) {
    const info = modelInfo(model);
    out[model] = {
      inputTokens: u.inputTokens,
      outputTokens: u.outputTokens,
      cacheReadInputTokens: u.cacheReadTokens,
      cacheCreationInputTokens: u.cacheWriteTokens,
      webSearchRequests: 0,
      costUSD: cost,
      contextWindow: info?.contextWindow ?? 0,
      maxOutputTokens: info?.maxOutput ?? 0,
    };
  }
  return out;
}

/** Our permission mode → the Agent SDK's name for it. */
function sdkModeName(mode: string): 'default' | 'bypassPermissions' | 'acceptEdits' | 'plan' {
  return mode === 'auto' ? 'bypassPermissions' : mode === 'acceptEdits' || mode === 'plan' ? mode : 'default';
}

/** Our loop's stop → the Agent SDK's `terminal_reason`. */
function terminalReason(r: PromptResult): string {
  switch (r.stop) {
    case 'end_turn':
      return 'completed';
    case 'max_iterations':
      return 'max_turns';
    case 'aborted':
      return 'aborted_streaming';
    case 'context_exceeded':
      return 'prompt_too_long';
    default:
      return 'model_error';
  }
}

export function usageJson(u: Usage) {
  return {
    input_tokens: u.inputTokens,
    output_tokens: u.outputTokens,
    cache_creation_input_tokens: u.cacheWriteTokens,
    cache_read_input_tokens: u.cacheReadTokens,
  };
}

export function subtypeOf(r: PromptResult): ResultMessage['subtype'] {
  if (r.stop === 'end_turn') return 'success';
  return r.stop === 'max_iterations' ? 'error_max_turns' : 'error_during_execution';
}

/** Collects one turn's messages; `emit` receives each as it happens. */
export class ClaudeJsonTurn {
  private apiMs = 0;
  private requestStart = Date.now();
  private readonly started = Date.now();
  private sawPrompt = false;
  private readonly denials: ResultMessage['permission_denials'] = [];
  private readonly inputs = new Map<string, { name: string; input: unknown }>();

  constructor(
    private readonly rt: Runtime,
    private readonly emit: (m: StreamJsonLine) => void,
    /** stream-json: one `assistant` line per content block (as Claude Code streams them); json keeps one per response. */
    private readonly perBlock = false,
  ) {}

  private get common() {
    return { session_id: this.rt.agent.session.id, uuid: randomUUID() };
  }

  static init(rt: Runtime): SystemInitMessage {
    const { agent } = rt;
    return {
      type: 'system',
      subtype: 'init',
      cwd: rt.info.cwd,
      tools: agent.tools.map((t) => t.name),
      mcp_servers: rt.mcp.status().map((s) => ({ name: s.name, status: s.status })),
      model: agent.model,
      permissionMode: sdkModeName(rt.permissions.currentMode),
      slash_commands: [],
      claude_code_version: VERSION,
      output_style: 'default',
      skills: [],
      plugins: [],
      agents: [],
      apiKeySource: agent.provider.name !== 'scripted' && process.env.ANTHROPIC_API_KEY ? 'ANTHROPIC_API_KEY' : 'none',
      session_id: agent.session.id,
      uuid: randomUUID(),
    };
  }

  events(includePartial = false): LoopEvents {
    return {
      ...(includePartial ? { onStreamEvent: (event: Record<string, unknown>) => this.emit({ type: 'stream_event', event: event as { type: string }, parent_tool_use_id: null, ...this.common }) } : {}),
      onRetry: (i) =>
        this.emit({ type: 'system', subtype: 'api_retry', attempt: i.attempt, max_retries: this.rt.info.settings.retry.maxRetries, retry_delay_ms: i.delayMs, error: i.reason, ...this.common }),
      onToolCall: (c) => this.inputs.set(c.id, { name: c.name, input: c.input }),
      onToolResult: (r) => {
        if (r.isError && r.content.startsWith('permission denied:')) {
          this.denials.push({ tool_name: r.name, tool_use_id: r.id, tool_input: this.inputs.get(r.id)?.input ?? null });
        }
      },
      onResponse: ({ message, stopReason, usage }) => {
        this.apiMs += Date.now() - this.requestStart;
        addModelUsage(this.rt, this.rt.agent.model, usage);
        const id = `msg_${randomBytes(12).toString('hex')}`;
        const content = message.content as AssistantMessage['message']['content'];
        // Every block's line carries the response's id and usage; the stop reason is known at the last one.
        const parts = this.perBlock && content.length > 1 ? content.map((b) => [b]) : [content];
        parts.forEach((blocks, i) =>
          this.emit({
            type: 'assistant',
            message: {
              id,
              type: 'message',
              role: 'assistant',
              model: this.rt.agent.model,
              content: blocks,
              stop_reason: i === parts.length - 1 ? stopReason : null,
              stop_sequence: null,
              usage: usageJson(usage),
            },
            parent_tool_use_id: null,
            ...this.common,
          }),
        );
      },
      onMessage: (m: ChatMessage) => {
        if (m.role !== 'user') return;
        this.requestStart = Date.now();
        // The prompt itself is not echoed (as `claude -p` without --replay-user-messages).
        if (!this.sawPrompt) {
          this.sawPrompt = true;
          return;
        }
        this.emit({ type: 'user', message: { role: 'user', content: m.content as never }, parent_tool_use_id: null, ...this.common });
      },
    };
  }

  result(r: PromptResult): ResultMessage {
    const error = r.error ?? (r.stop === 'aborted' ? 'interrupted' : undefined);
    return {
      type: 'result',
      subtype: subtypeOf(r),
      is_error: r.stop !== 'end_turn',
      duration_ms: Date.now() - this.started,
      duration_api_ms: this.apiMs,
      num_turns: r.iterations,
      result: r.text,
      stop_reason: r.stop,
      session_id: this.rt.agent.session.id,
      total_cost_usd: r.costUsd ?? 0,
      usage: usageJson(r.usage),
      permission_denials: this.denials,
      modelUsage: modelUsageJson(this.rt),
      terminal_reason: terminalReason(r),
      ...(r.stop !== 'end_turn' && error ? { errors: [error] } : {}),
      uuid: randomUUID(),
    };
  }
}
