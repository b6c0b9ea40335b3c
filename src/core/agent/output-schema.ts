/**
 * `thclaws -p --output-format json|stream-json`: the message types and field names of Claude Code's
 * `claude -p`, so scripts written for it parse ours. docs/agent.md shows this schema; tests validate our
 * output against it.
 */
import { z } from 'zod';

export const UsageJson = z.object({
  input_tokens: z.number().int().min(0),
  output_tokens: z.number().int().min(0),
  cache_creation_input_tokens: z.number().int().min(0),
  cache_read_input_tokens: z.number().int().min(0),
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
const PromptBlockJson = z.discriminatedUnion('type', [TextBlockJson, ImageBlockJson, DocumentBlockJson]);

const ContentBlockJson = z.discriminatedUnion('type', [
  TextBlockJson,
  ImageBlockJson,
  DocumentBlockJson,
  z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
  z.object({ type: z.literal('redacted_thinking'), data: z.string() }),
  z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() }),
  z.object({ type: z.literal('tool_result'), tool_use_id: z.string(), content: z.union([z.string(), z.array(PromptBlockJson)]), is_error: z.boolean().optional() }),
]);

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
  error: z.string(),
  ...common,
});

export const AssistantMessage = z.object({
  type: z.literal('assistant'),
  message: z.object({
    id: z.string(),
    type: z.literal('message'),
    role: z.literal('assistant'),
    model: z.string(),
    content: z.array(ContentBlockJson),
    stop_reason: z.string().nullable(),
    stop_sequence: z.string().nullable(),
    usage: UsageJson,
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

export const ResultMessage = z.object({
  type: z.literal('result'),
  subtype: z.enum(['success', 'error_max_turns', 'error_during_execution']),
  is_error: z.boolean(),
  duration_ms: z.number().min(0),
  duration_api_ms: z.number().min(0),
  num_turns: z.number().int().min(0),
  /** Final text of the turn (may be empty on error). */
  result: z.string(),
  /** The turn's stop: end_turn, max_tokens, refusal, context_exceeded, max_iterations, error, aborted. */
  stop_reason: z.string(),
  session_id: z.string().min(1),
  /** Estimated from list prices; 0 for a model without a known price. */
  total_cost_usd: z.number().min(0),
  usage: UsageJson,
  permission_denials: z.array(z.object({ tool_name: z.string(), tool_use_id: z.string(), tool_input: z.unknown() })),
  /** Per model, cumulative across the session's turns (the Agent SDK requires it). */
  modelUsage: z.record(
    z.string(),
    z.object({
      inputTokens: z.number().int().min(0),
      outputTokens: z.number().int().min(0),
      cacheReadInputTokens: z.number().int().min(0),
      cacheCreationInputTokens: z.number().int().min(0),
      webSearchRequests: z.number().int().min(0),
      costUSD: z.number().min(0),
      contextWindow: z.number().int().min(0),
      maxOutputTokens: z.number().int().min(0),
    }),
  ),
  /** Why the turn ended, in the Agent SDK's words: completed, max_turns, aborted_streaming, prompt_too_long, model_error. */
  terminal_reason: z.string(),
  /** Present when is_error: what went wrong, one line each. */
  errors: z.array(z.string()).optional(),
  uuid: uuidJson,
});

/** One line of `--output-format stream-json`. */
/** `--include-partial-messages`: one raw event of the API's stream, as Claude Code forwards it. */
export const StreamEventMessage = z.object({
  type: z.literal('stream_event'),
  event: z.looseObject({ type: z.string() }),
  parent_tool_use_id: z.null(),
  ...common,
});

export const StreamJsonLine = z.union([SystemInitMessage, SystemRetryMessage, AssistantMessage, UserMessage, ResultMessage, StreamEventMessage]);

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
export type AssistantMessage = z.infer<typeof AssistantMessage>;
export type SystemInitMessage = z.infer<typeof SystemInitMessage>;
