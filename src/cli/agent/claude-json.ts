/** Builds the Claude-Code-compatible messages of `-p --output-format json|stream-json` (src/core/agent/output-schema.ts). */
import { randomBytes, randomUUID } from 'node:crypto';
import type { PromptResult } from '../../core/agent/agent.js';
import type { LoopEvents } from '../../core/agent/loop.js';
import { API_STOP_REASONS } from '../../core/agent/output-schema.js';
import type { AssistantMessage, StreamJsonLine, ResultMessage, SystemInitMessage, SystemRetryMessage } from '../../core/agent/output-schema.js';
import type { z } from 'zod';
import type { AssistantBlock, ChatMessage, Usage } from '../../core/agent/providers/types.js';
import { ceilingCost, estimateCost } from '../../core/agent/cost.js';
import { modelInfo } from '../../contract/models.js';
import { VERSION } from '../version.js';
import { PartialEvents } from './partial-events.js';
import type { Runtime } from './setup.js';

/** Per-model totals of this process's session, as the Agent SDK's `modelUsage` (cumulative across turns). */
const modelUsageOf = new WeakMap<Runtime, Map<string, { u: Usage; cost: number; unpriced: boolean }>>();

function addModelUsage(rt: Runtime, model: string, u: Usage): void {
  let m = modelUsageOf.get(rt);
  if (!m) modelUsageOf.set(rt, (m = new Map()));
  const e = m.get(model) ?? { u: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, cost: 0, unpriced: false };
  e.u.inputTokens += u.inputTokens;
  e.u.outputTokens += u.outputTokens;
  e.u.cacheReadTokens += u.cacheReadTokens;
  e.u.cacheWriteTokens += u.cacheWriteTokens;
  const known = rt.agent.provider.name === 'scripted' ? 0 : estimateCost(model, u);
  // A model without a price: the SDK wants a number, so the honest one is an upper bound (flagged in the result).
  if (known === undefined) e.unpriced = true;
  e.cost = Math.round((e.cost + (known ?? ceilingCost(u))) * 1e6) / 1e6;
  m.set(model, e);
}

/** The result's cost: the estimate when every price is known; else an upper bound, flagged, never too low. */
function costFields(rt: Runtime, r: PromptResult): { total_cost_usd: number; cost_unknown?: true; unpriced_models?: string[] } {
  if (r.costUsd !== undefined) return { total_cost_usd: r.costUsd };
  const models = [...(modelUsageOf.get(rt) ?? [])];
  const total = models.reduce((n, [, e]) => n + e.cost, 0);
  return { total_cost_usd: Math.round(total * 1e6) / 1e6, cost_unknown: true, unpriced_models: models.filter(([, e]) => e.unpriced).map(([name]) => name) };
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
export function sdkModeName(mode: string): 'default' | 'bypassPermissions' | 'acceptEdits' | 'plan' {
  return mode === 'auto' ? 'bypassPermissions' : mode === 'acceptEdits' || mode === 'plan' ? mode : 'default';
}

/** Our loop's stop → the Agent SDK's `terminal_reason`. */
function terminalReason(r: PromptResult): ResultMessage['terminal_reason'] {
  switch (r.stop) {
    case 'end_turn':
      return 'completed';
    case 'max_iterations':
      return 'max_turns';
    case 'aborted':
      return 'aborted_streaming';
    case 'context_exceeded':
      return 'prompt_too_long';
    case 'budget':
      return 'budget_exhausted';
    case 'structured_output':
      return 'structured_output_retry_exhausted';
    default:
      return 'model_error';
  }
}

/** The API's usage object; our cache writes use the default (5-minute) cache lifetime. */
export function usageJson(u: Usage): AssistantMessage['message']['usage'] {
  return {
    input_tokens: u.inputTokens,
    output_tokens: u.outputTokens,
    cache_creation_input_tokens: u.cacheWriteTokens,
    cache_read_input_tokens: u.cacheReadTokens,
    cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: u.cacheWriteTokens },
    server_tool_use: { web_fetch_requests: 0, web_search_requests: 0 },
    output_tokens_details: { thinking_tokens: 0 },
    iterations: [],
    inference_geo: '',
    service_tier: 'standard',
    speed: 'standard',
    fallback_credit: null,
  };
}

export function subtypeOf(r: PromptResult): ResultMessage['subtype'] {
  if (r.stop === 'end_turn') return 'success';
  if (r.stop === 'budget') return 'error_max_budget_usd';
  if (r.stop === 'structured_output') return 'error_max_structured_output_retries';
  return r.stop === 'max_iterations' ? 'error_max_turns' : 'error_during_execution';
}

type ApiStopReason = (typeof API_STOP_REASONS)[number];
/** A provider's stop reason as one of the API's (an OpenAI-compatible provider's are mapped already). */
function apiStopReason(s: string): ApiStopReason {
  return (API_STOP_REASONS as readonly string[]).includes(s) ? (s as ApiStopReason) : 'end_turn';
}

/** A response block as the API returns it: text blocks carry `citations` (we never request any). */
function apiBlock(b: AssistantBlock): AssistantMessage['message']['content'][number] {
  return b.type === 'text' ? { type: 'text', text: b.text, citations: null } : b;
}

/** A failed attempt's HTTP status → the Agent SDK's error category. */
export function retryCategory(status: number | undefined): z.infer<typeof SystemRetryMessage>['error'] {
  if (status === undefined) return 'unknown';
  if (status === 401 || status === 403) return 'authentication_failed';
  if (status === 402) return 'billing_error';
  if (status === 404) return 'model_not_found';
  if (status === 429) return 'rate_limit';
  if (status === 529) return 'overloaded';
  if (status >= 500) return 'server_error';
  return status >= 400 ? 'invalid_request' : 'unknown';
}

/** A tool's input as the SDK's denial record takes it (an object; anything else is wrapped). */
function inputRecord(input: unknown): Record<string, unknown> {
  return input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : { input };
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
    const streamEvent = (event: Record<string, unknown>) => this.emit({ type: 'stream_event', event: event as never, parent_tool_use_id: null, ...this.common });
    // Providers without the API's own stream (OpenAI-compatible, scripted) get the same events built for them.
    const made = includePartial ? new PartialEvents(streamEvent, () => this.rt.agent.model) : undefined;
    return {
      // The API's own events, forwarded as received (the provider reads the same stream).
      ...(made
        ? {
            onStreamEvent: (event: Record<string, unknown>) => {
              made.sawRaw();
              streamEvent(event);
            },
            onText: (d: string) => made.text(d),
            onThinking: (d: string) => made.thinking(d),
          }
        : {}),
      onRetry: (i) =>
        this.emit({
          type: 'system',
          subtype: 'api_retry',
          attempt: i.attempt,
          max_retries: this.rt.info.settings.retry.maxRetries,
          retry_delay_ms: i.delayMs,
          error_status: i.status ?? null,
          error: retryCategory(i.status),
          error_message: i.reason,
          ...this.common,
        }),
      onModelFallback: ({ from, to, trigger }) =>
        this.emit({
          type: 'system',
          subtype: 'model_fallback',
          trigger,
          original_model: from,
          fallback_model: to,
          content: trigger === 'model_not_found' ? `Switched to ${to} because ${from} is not available` : `Switched to ${to} due to high demand for ${from}`,
          ...this.common,
        }),
      onToolCall: (c) => this.inputs.set(c.id, { name: c.name, input: c.input }),
      onToolResult: (r) => {
        if (r.isError && (r.deniedByClient || r.content.startsWith('permission denied:'))) {
          this.denials.push({ tool_name: r.name, tool_use_id: r.id, tool_input: inputRecord(this.inputs.get(r.id)?.input ?? {}) });
        }
      },
      onResponse: ({ message, stopReason, usage }) => {
        made?.end(message, apiStopReason(stopReason), usage);
        this.apiMs += Date.now() - this.requestStart;
        // The model that wrote it: a fallback's calls are counted under the fallback.
        const model = message.model ?? this.rt.agent.model;
        addModelUsage(this.rt, model, usage);
        const id = `msg_${randomBytes(12).toString('hex')}`;
        const content = (message.content as AssistantBlock[]).map(apiBlock);
        // Every block's line carries the response's id and usage; the stop reason is known at the last one.
        const parts = this.perBlock && content.length > 1 ? content.map((b) => [b]) : [content];
        parts.forEach((blocks, i) =>
          this.emit({
            type: 'assistant',
            message: {
              id,
              type: 'message',
              role: 'assistant',
              model,
              content: blocks,
              stop_reason: i === parts.length - 1 ? apiStopReason(stopReason) : null,
              stop_sequence: null,
              usage: usageJson(usage),
              container: null,
              context_management: null,
              diagnostics: null,
              stop_details: null,
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
    const common = {
      type: 'result' as const,
      is_error: r.stop !== 'end_turn',
      duration_ms: Date.now() - this.started,
      duration_api_ms: this.apiMs,
      num_turns: r.iterations,
      result: r.text,
      stop_reason: r.stop,
      session_id: this.rt.agent.session.id,
      ...costFields(this.rt, r),
      usage: usageJson(r.usage),
      permission_denials: this.denials,
      modelUsage: modelUsageJson(this.rt),
      terminal_reason: terminalReason(r),
      uuid: randomUUID(),
    };
    const subtype = subtypeOf(r);
    if (subtype === 'success') return { ...common, subtype, ...(r.structuredOutput ? { structured_output: r.structuredOutput.v } : {}) };
    // An error result always says what went wrong (the SDK requires `errors`).
    return { ...common, subtype, errors: [r.error ?? (r.stop === 'aborted' ? 'interrupted' : `the turn stopped: ${r.stop}`)] };
  }
}
