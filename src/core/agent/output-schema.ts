/**
 * `thclaws -p --output-format json|stream-json`: the message types and field names of Claude Code's
 * `claude -p`, so scripts written for it parse ours. docs/agent.md shows this schema; tests validate our
 * output against it.
 */
import type { BetaRawMessageStreamEvent } from '@anthropic-ai/sdk/resources/beta/messages/messages.mjs';
import { z } from 'zod';

const count = z.number().int().min(0);
/**
 * The Messages API's usage object with every field present (the Agent SDK's result requires them non-null).
 * Fields we cannot know carry their neutral value: no server tools, no thinking-token split, one cache tier.
 */
export const UsageJson = z.object({
  input_tokens: count,
  output_tokens: count,
  cache_creation_input_tokens: count,
  cache_read_input_tokens: count,
  cache_creation: z.object({ ephemeral_1h_input_tokens: count, ephemeral_5m_input_tokens: count }),
  server_tool_use: z.object({ web_fetch_requests: count, web_search_requests: count }),
  output_tokens_details: z.object({ thinking_tokens: count }),
  /** Per-iteration usage of server-side compaction or fallback, which we never request. */
  iterations: z.array(z.never()),
  inference_geo: z.string(),
  service_tier: z.enum(['standard', 'priority', 'batch']),
  speed: z.enum(['standard', 'fast']),
  fallback_credit: z.null(),
});

/** Images and documents the Messages API takes (base64 is capped: the API's own limit is far lower). */
const MAX_MEDIA_CHARS = 48 * 1024 * 1024;
export const ImageBlockJson = z.object({
  type: z.literal('image'),
  source: z.discriminatedUnion('type', [
    z.object({ type: z.literal('base64'), media_type: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']), data: z.string().min(1).max(MAX_MEDIA_CHARS) }),
    z.object({ type: z.literal('url'), url: z.string().regex(/^https?:\/\//, 'an http(s) URL') }),
  ]),
});
export const DocumentBlockJson = z.object({
  type: z.literal('document'),
  source: z.discriminatedUnion('type', [
    z.object({ type: z.literal('base64'), media_type: z.literal('application/pdf'), data: z.string().min(1).max(MAX_MEDIA_CHARS) }),
    z.object({ type: z.literal('text'), media_type: z.literal('text/plain'), data: z.string() }),
    z.object({ type: z.literal('url'), url: z.string().regex(/^https?:\/\//, 'an http(s) URL') }),
  ]),
});
const TextBlockJson = z.object({ type: z.literal('text'), text: z.string() });
export const PromptBlockJson = z.discriminatedUnion('type', [TextBlockJson, ImageBlockJson, DocumentBlockJson]);

const ThinkingBlockJson = z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() });
const RedactedThinkingBlockJson = z.object({ type: z.literal('redacted_thinking'), data: z.string() });
const ToolUseBlockJson = z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() });

/** What an assistant message holds, as the API's response blocks (a text block carries `citations`). */
const AssistantBlockJson = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string(), citations: z.null() }),
  ThinkingBlockJson,
  RedactedThinkingBlockJson,
  ToolUseBlockJson,
]);

const ContentBlockJson = z.discriminatedUnion('type', [
  TextBlockJson,
  ImageBlockJson,
  DocumentBlockJson,
  ThinkingBlockJson,
  RedactedThinkingBlockJson,
  ToolUseBlockJson,
  z.object({ type: z.literal('tool_result'), tool_use_id: z.string(), content: z.union([z.string(), z.array(PromptBlockJson)]), is_error: z.boolean().optional() }),
]);

/** The Messages API's stop reasons (another provider's are mapped to these). */
export const API_STOP_REASONS = ['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'pause_turn', 'compaction', 'refusal', 'model_context_window_exceeded'] as const;

/** A UUID, typed as the template `randomUUID()` returns (the Agent SDK's `UUID`). */
type Uuid = `${string}-${string}-${string}-${string}-${string}`;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuidJson = z.custom<Uuid>((v) => typeof v === 'string' && UUID_RE.test(v), 'a UUID');
const common = { session_id: z.string().min(1), uuid: uuidJson };

export const SystemInitMessage = z.object({
  type: z.literal('system'),
  subtype: z.literal('init'),
  cwd: z.string(),
  tools: z.array(z.string()),
  mcp_servers: z.array(z.object({ name: z.string(), status: z.string() })),
  model: z.string(),
  permissionMode: z.enum(['default', 'acceptEdits', 'bypassPermissions', 'plan']),
  slash_commands: z.array(z.string()),
  /** The Agent SDK's values: a bearer token (ANTHROPIC_AUTH_TOKEN) counts as `none`, as Claude Code reports it. */
  apiKeySource: z.enum(['ANTHROPIC_API_KEY', 'none']),
  claude_code_version: z.string(),
  output_style: z.string(),
  skills: z.array(z.string()),
  plugins: z.array(z.object({ name: z.string(), path: z.string() })),
  agents: z.array(z.string()),
  ...common,
});

export const SystemRetryMessage = z.object({
  type: z.literal('system'),
  subtype: z.literal('api_retry'),
  attempt: z.number().int().min(1),
  max_retries: z.number().int().min(0),
  retry_delay_ms: z.number().min(0),
  /** The HTTP status of the failed attempt; null for a connection error (no response). */
  error_status: z.number().int().nullable(),
  /** The Agent SDK's error category (rate_limit, overloaded, server_error, …). */
  error: z.enum(['authentication_failed', 'billing_error', 'rate_limit', 'overloaded', 'invalid_request', 'model_not_found', 'server_error', 'unknown']),
  /** The failure in words (our addition; the SDK ignores it). */
  error_message: z.string(),
  ...common,
});

/**
 * `--fallback-model`: the turn goes on with the fallback, as Claude Code announces it (a line the Agent SDK
 * passes through; its exported types do not declare it).
 */
export const ModelFallbackMessage = z.object({
  type: z.literal('system'),
  subtype: z.literal('model_fallback'),
  trigger: z.enum(['overloaded', 'server_error', 'model_not_found']),
  original_model: z.string(),
  fallback_model: z.string(),
  /** In words: "Switched to X due to high demand for Y" / "… because Y is not available". */
  content: z.string(),
  ...common,
});

export const AssistantMessage = z.object({
  type: z.literal('assistant'),
  message: z.object({
    id: z.string(),
    type: z.literal('message'),
    role: z.literal('assistant'),
    model: z.string(),
    content: z.array(AssistantBlockJson),
    /** The API's stop reason; null on every block's line but the response's last. */
    stop_reason: z.enum(API_STOP_REASONS).nullable(),
    stop_sequence: z.string().nullable(),
    usage: UsageJson,
    // Beta features we never request: always null.
    container: z.null(),
    context_management: z.null(),
    diagnostics: z.null(),
    stop_details: z.null(),
  }),
  parent_tool_use_id: z.null(),
  ...common,
});

export const UserMessage = z.object({
  type: z.literal('user'),
  message: z.object({ role: z.literal('user'), content: z.array(ContentBlockJson) }),
  parent_tool_use_id: z.null(),
  ...common,
});

const ModelUsageJson = z.object({
  inputTokens: count,
  outputTokens: count,
  cacheReadInputTokens: count,
  cacheCreationInputTokens: count,
  webSearchRequests: count,
  costUSD: z.number().min(0),
  contextWindow: count,
  maxOutputTokens: count,
});

/** What every result carries, success or error. */
const resultCommon = {
  type: z.literal('result'),
  is_error: z.boolean(),
  duration_ms: z.number().min(0),
  duration_api_ms: z.number().min(0),
  num_turns: count,
  /** The turn's stop: end_turn, max_tokens, refusal, context_exceeded, max_iterations, error, aborted. */
  stop_reason: z.string(),
  session_id: z.string().min(1),
  /**
   * Estimated from list prices. A number, as the Agent SDK requires; when a call's cost is unknown (a model
   * without a price) it is an upper bound (those tokens at the dearest rates of the model table) and
   * `cost_unknown` says so: never a too-low number.
   */
  total_cost_usd: z.number().min(0),
  /** Present (true) when `total_cost_usd` is an upper bound: some call's price is unknown. */
  cost_unknown: z.literal(true).optional(),
  /** The models whose price is unknown (add a `price` to their provider profile to have an estimate). */
  unpriced_models: z.array(z.string()).optional(),
  usage: UsageJson,
  permission_denials: z.array(z.object({ tool_name: z.string(), tool_use_id: z.string(), tool_input: z.record(z.string(), z.unknown()) })),
  /** Per model, cumulative across the session's turns (the Agent SDK requires it). */
  modelUsage: z.record(z.string(), ModelUsageJson),
  /** Why the turn ended, in the Agent SDK's words. */
  terminal_reason: z.enum(['completed', 'max_turns', 'aborted_streaming', 'prompt_too_long', 'model_error', 'budget_exhausted', 'structured_output_retry_exhausted']),
  uuid: uuidJson,
};

/** The Agent SDK's SDKResultSuccess: the final text in `result`. */
export const ResultSuccess = z.object({
  ...resultCommon,
  subtype: z.literal('success'),
  /** Final text of the turn (with an output schema: the answer as JSON text). */
  result: z.string(),
  /** With an output schema (`--json-schema`): the answer, valid against it. */
  structured_output: z.unknown().optional(),
});

/** The Agent SDK's SDKResultError: `errors` says what went wrong, one line each (never empty). */
export const ResultError = z.object({
  ...resultCommon,
  subtype: z.enum(['error_max_turns', 'error_during_execution', 'error_max_budget_usd', 'error_max_structured_output_retries']),
  errors: z.array(z.string()).min(1),
  /** The turn's last text (may be empty); Claude Code's error results have none, scripts written for ours read it. */
  result: z.string(),
});

export const ResultMessage = z.union([ResultSuccess, ResultError]);

/** The API's raw stream events, checked for their kind and the fields each kind must carry. */
const RawStreamEvent = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('message_start'), message: z.looseObject({ id: z.string(), role: z.literal('assistant'), content: z.array(z.unknown()) }) }),
  z.looseObject({ type: z.literal('message_delta'), delta: z.looseObject({}), usage: z.looseObject({}) }),
  z.looseObject({ type: z.literal('message_stop') }),
  z.looseObject({ type: z.literal('content_block_start'), index: count, content_block: z.looseObject({ type: z.string() }) }),
  z.looseObject({ type: z.literal('content_block_delta'), index: count, delta: z.looseObject({ type: z.string() }) }),
  z.looseObject({ type: z.literal('content_block_stop'), index: count }),
]);

/** `--include-partial-messages`: one raw event of the API's stream, as Claude Code forwards it. */
export const StreamEventMessage = z.object({
  type: z.literal('stream_event'),
  event: z.custom<BetaRawMessageStreamEvent>((v) => RawStreamEvent.safeParse(v).success, 'a Messages API stream event'),
  parent_tool_use_id: z.null(),
  ...common,
});

/** One line of `--output-format stream-json`. */
export const StreamJsonLine = z.union([SystemInitMessage, SystemRetryMessage, ModelFallbackMessage, AssistantMessage, UserMessage, ResultMessage, StreamEventMessage]);

/** One line of `--input-format stream-json`: a user message, content as a string or text, image and document blocks. */
export const StreamJsonInput = z.object({
  type: z.literal('user'),
  message: z.object({
    role: z.literal('user'),
    content: z.union([z.string(), z.array(PromptBlockJson).min(1)]),
  }),
}).loose();

export type StreamJsonLine = z.infer<typeof StreamJsonLine>;
export type ResultMessage = z.infer<typeof ResultMessage>;
export type ResultSuccess = z.infer<typeof ResultSuccess>;
export type ResultError = z.infer<typeof ResultError>;
export type AssistantMessage = z.infer<typeof AssistantMessage>;
export type SystemInitMessage = z.infer<typeof SystemInitMessage>;
