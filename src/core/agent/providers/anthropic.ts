/**
 * Anthropic Messages API through @anthropic-ai/sdk, streamed. The SDK is imported lazily so that
 * `--version` and the REPL prompt do not pay for it. SDK retries are off: our policy (retry.ts) decides.
 */
import { modelInfo } from '../../../contract/models.js';
import type { AssistantBlock, CompletionRequest, CompletionResponse, Provider, Usage } from './types.js';
import { AbortedError, ProviderError, connectionCause, emptyUsage } from './types.js';
import { backoffDelay, briefFailure, isRetryableStatus, parseRetryAfter, sleep, type RetryPolicy } from './retry.js';

export interface AnthropicOptions {
  apiKey?: string;
  authToken?: string;
  baseURL?: string;
  retry: RetryPolicy;
  /** Per-request timeout; long because a streamed turn with a big tool call can take minutes. */
  timeoutMs?: number;
}

type SdkModule = typeof import('@anthropic-ai/sdk');
type SdkClient = InstanceType<SdkModule['default']>;

interface ApiErrorLike {
  status?: number;
  message: string;
  headers?: { get(name: string): string | null };
  error?: { error?: { message?: string; type?: string } };
}

/** One line a person can act on. */
export function describeApiError(err: ApiErrorLike): string {
  const detail = err.error?.error?.message ?? err.message;
  switch (err.status) {
    case 401:
      return `authentication failed (401): check ANTHROPIC_API_KEY — ${detail}`;
    case 403:
      return `permission denied (403): ${detail}`;
    case 400:
      return `bad request (400): ${detail}`;
    case 404:
      return `not found (404): check --model and ANTHROPIC_BASE_URL — ${detail}`;
    case 413:
      return `request too large (413): ${detail}`;
    default:
      if (err.status) return `API error ${err.status}: ${detail}`;
      // An SSE `error` event mid-stream has a type but no status.
      return err.error?.error?.type ? `API error (${err.error.error.type}): ${detail}` : `connection error: ${detail}`;
  }
}

/** The API's wording when a request does not fit the context window (400, or an error event mid-stream). */
const CONTEXT_EXCEEDED = /prompt is too long|context window|context length|too many (input )?tokens/i;

export function isContextExceeded(err: ApiErrorLike): boolean {
  // Mid-stream errors have no status: only an invalid request can mean the context (not a rate limit on tokens).
  const relevant = err.status === 400 || err.status === 413 || (err.status === undefined && err.error?.error?.type === 'invalid_request_error');
  return relevant && CONTEXT_EXCEEDED.test(err.error?.error?.message ?? err.message);
}

/** The API's smallest `budget_tokens`. */
export const MIN_THINKING_BUDGET = 1024;

/**
 * Thinking parameters the model accepts. Adaptive models get `{type: 'adaptive', display}` and the effort (a
 * budget asked for only turns thinking on: they refuse manual budgets); manual-budget models think only when
 * a budget was asked for, sent as `budget_tokens` (at least the API's minimum, below max_tokens, which grows
 * to fit it). `disabled` is sent as such; a model not in the table gets no thinking parameters.
 */
export function thinkingParams(req: Pick<CompletionRequest, 'model' | 'effort' | 'thinkingDisplay' | 'thinking' | 'maxTokens'>): Record<string, unknown> {
  const info = modelInfo(req.model);
  if (!info) return {};
  const display = req.thinkingDisplay ? { display: req.thinkingDisplay } : {};
  const effort = info.thinking === 'adaptive' && req.effort ? { output_config: { effort: req.effort } } : {};
  if (req.thinking?.type === 'disabled') return { thinking: { type: 'disabled' }, ...effort };
  if (info.thinking === 'adaptive') return { thinking: { type: 'adaptive', ...display }, ...effort };
  if (req.thinking?.type !== 'enabled') return {};
  const budget = Math.max(MIN_THINKING_BUDGET, Math.min(req.thinking.budgetTokens, req.maxTokens - 1));
  return { thinking: { type: 'enabled', budget_tokens: budget, ...display }, ...(budget >= req.maxTokens ? { max_tokens: budget + 1 } : {}) };
}

/** Error types of a mid-stream `error` event worth another attempt; the others would fail the same way. */
const RETRYABLE_STREAM_ERRORS = new Set(['overloaded_error', 'api_error', 'rate_limit_error']);

function isRetryable(err: ApiErrorLike): boolean {
  const type = err.error?.error?.type;
  if (err.status === undefined && type) return RETRYABLE_STREAM_ERRORS.has(type);
  return isRetryableStatus(err.status);
}

/**
 * A cache breakpoint on the last block of the conversation: each call of a tool loop re-reads the history
 * from the cache instead of paying full input price again (3 breakpoints of 4 used with system and tools).
 */
/**
 * The conversation as the API takes it: our `model` tag removed, and thinking blocks written by another
 * model (after /model) left out, since thinking blocks are bound to the model that wrote them.
 */
export function apiMessages(messages: CompletionRequest['messages'], model: string): CompletionRequest['messages'] {
  return messages.map(({ model: from, ...m }) => {
    if (!from || from === model) return m;
    const content = m.content.filter((b) => b.type !== 'thinking' && b.type !== 'redacted_thinking');
    return { ...m, content: content.length ? content : [{ type: 'text' as const, text: '(thinking omitted)' }] };
  });
}

export function withHistoryBreakpoint(messages: CompletionRequest['messages']): unknown[] {
  return messages.map((m, i) => {
    if (i !== messages.length - 1) return m;
    // Thinking blocks cannot carry cache_control: the breakpoint goes on the last other block.
    let at = -1;
    m.content.forEach((b, j) => {
      if (b.type !== 'thinking' && b.type !== 'redacted_thinking') at = j;
    });
    if (at < 0) return m;
    return { ...m, content: m.content.map((b, j) => (j === at ? { ...b, cache_control: { type: 'ephemeral' } } : b)) };
  });
}

export class AnthropicProvider implements Provider {
  readonly name = 'anthropic' as const;
  private client?: SdkClient;
  private sdk?: SdkModule;

  constructor(private readonly opts: AnthropicOptions) {}

  private async getClient(): Promise<{ client: SdkClient; sdk: SdkModule }> {
    if (!this.client || !this.sdk) {
      this.sdk = await import('@anthropic-ai/sdk');
      const Anthropic = this.sdk.default;
      this.client = new Anthropic({
        ...(this.opts.apiKey ? { apiKey: this.opts.apiKey } : { apiKey: null, authToken: this.opts.authToken ?? null }),
        baseURL: this.opts.baseURL ?? null,
        maxRetries: 0,
        timeout: this.opts.timeoutMs ?? 10 * 60_000,
      });
    }
    return { client: this.client, sdk: this.sdk };
  }

  async complete(req: CompletionRequest): Promise<CompletionResponse> {
    const { client, sdk } = await this.getClient();
    for (let attempt = 0; ; attempt++) {
      if (req.signal.aborted) throw new AbortedError();
      let sawOutput = false;
      try {
        return await this.once(client, req, () => (sawOutput = true));
      } catch (err) {
        if (req.signal.aborted || err instanceof sdk.APIUserAbortError) throw new AbortedError();
        if (err instanceof ProviderError) throw err;
        const apiErr = err instanceof sdk.APIError ? (err as unknown as ApiErrorLike) : undefined;
        const status = apiErr?.status;
        const brief = briefFailure({ ...(status !== undefined ? { status } : {}), base: this.opts.baseURL ?? 'https://api.anthropic.com', cause: connectionCause(err), ...(apiErr?.error?.error?.type ? { type: apiErr.error.error.type } : {}) });
        // The SDK says only "Connection error.": where and why (ECONNREFUSED, ENOTFOUND) is what a person can act on.
        const unreached = err instanceof sdk.APIConnectionError && !(err instanceof sdk.APIConnectionTimeoutError);
        const message = unreached ? `connection error: ${brief}: is the server running, is ANTHROPIC_BASE_URL right?` : apiErr ? describeApiError(apiErr) : `connection error: ${(err as Error).message}`;
        // Once text reached the screen a retry would print it twice; fail instead.
        // Only API errors (which include connection errors, status undefined) are retried; our own bugs are not.
        const retryable = !sawOutput && apiErr !== undefined && isRetryable(apiErr) && !(status !== undefined && req.noRetryStatuses?.includes(status));
        if (!retryable || attempt >= this.opts.retry.maxRetries) {
          const suffix = retryable && attempt > 0 ? ` (gave up after ${attempt + 1} attempts)` : '';
          throw new ProviderError(message + suffix, status, apiErr !== undefined && isContextExceeded(apiErr), brief + suffix);
        }
        const delayMs = backoffDelay(this.opts.retry, attempt + 1, parseRetryAfter(apiErr?.headers));
        req.onRetry?.({ attempt: attempt + 1, of: this.opts.retry.maxRetries, delayMs, reason: message, brief, ...(status !== undefined ? { status } : {}) });
        try {
          await sleep(delayMs, req.signal);
        } catch {
          throw new AbortedError();
        }
      }
    }
  }

  private async once(client: SdkClient, req: CompletionRequest, markOutput: () => void): Promise<CompletionResponse> {
    const tools = req.tools.map((t, i) => ({
      name: t.name,
      description: t.description,
      input_schema: t.input_schema as { type: 'object'; [k: string]: unknown },
      // One breakpoint on the last tool caches the whole tool list.
      ...(i === req.tools.length - 1 ? { cache_control: { type: 'ephemeral' as const } } : {}),
    }));
    const stream = await client.messages.create(
      {
        model: req.model,
        max_tokens: req.maxTokens,
        system: [{ type: 'text', text: req.system, cache_control: { type: 'ephemeral' } }],
        messages: withHistoryBreakpoint(apiMessages(req.messages, req.model)) as never,
        tools: tools as never,
        stream: true,
        ...thinkingParams(req),
      } as never,
      { signal: req.signal, maxRetries: 0 },
    );
    const usage: Usage = emptyUsage();
    type Partial =
      | { kind: 'block'; block: AssistantBlock }
      | { kind: 'tool'; id: string; name: string; json: string };
    const blocks: Partial[] = [];
    let stopReason = 'end_turn';
    for await (const ev of stream as unknown as AsyncIterable<Record<string, any>>) {
      req.onStreamEvent?.(ev);
      switch (ev.type) {
        case 'message_start': {
          const u = ev.message?.usage ?? {};
          usage.inputTokens = u.input_tokens ?? 0;
          usage.outputTokens = u.output_tokens ?? 0;
          usage.cacheReadTokens = u.cache_read_input_tokens ?? 0;
          usage.cacheWriteTokens = u.cache_creation_input_tokens ?? 0;
          break;
        }
        case 'content_block_start': {
          const b = ev.content_block;
          if (b?.type === 'text') {
            blocks[ev.index] = { kind: 'block', block: { type: 'text', text: b.text ?? '' } };
          } else if (b?.type === 'tool_use') {
            blocks[ev.index] = { kind: 'tool', id: b.id, name: b.name, json: '' };
          } else if (b?.type === 'thinking') {
            blocks[ev.index] = { kind: 'block', block: { type: 'thinking', thinking: b.thinking ?? '', signature: b.signature ?? '' } };
          } else if (b?.type === 'redacted_thinking') {
            // Opaque: kept exactly as it arrived.
            blocks[ev.index] = { kind: 'block', block: { type: 'redacted_thinking', data: b.data } };
          }
          break;
        }
        case 'content_block_delta': {
          const cur = blocks[ev.index];
          const d = ev.delta;
          if (cur?.kind === 'tool') {
            if (d?.type === 'input_json_delta') cur.json += d.partial_json;
          } else if (cur?.block.type === 'text' && d?.type === 'text_delta') {
            cur.block.text += d.text;
            markOutput();
            req.onText?.(d.text);
          } else if (cur?.block.type === 'thinking') {
            if (d?.type === 'thinking_delta') {
              cur.block.thinking += d.thinking;
              markOutput();
              req.onThinking?.(d.thinking);
            } else if (d?.type === 'signature_delta') {
              cur.block.signature += d.signature;
            }
          }
          break;
        }
        case 'message_delta': {
          if (ev.delta?.stop_reason) stopReason = ev.delta.stop_reason;
          // Today's API repeats the cumulative input and cache counts here (null when unchanged/unknown).
          const u = ev.usage ?? {};
          const n = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
          if (n(u.output_tokens)) usage.outputTokens = u.output_tokens;
          if (n(u.input_tokens)) usage.inputTokens = u.input_tokens;
          if (n(u.cache_read_input_tokens)) usage.cacheReadTokens = u.cache_read_input_tokens;
          if (n(u.cache_creation_input_tokens)) usage.cacheWriteTokens = u.cache_creation_input_tokens;
          break;
        }
        case 'error':
          throw new ProviderError(`stream error: ${ev.error?.message ?? 'unknown'}`);
        default:
          break;
      }
    }
    // The SDK ends the iteration quietly on abort: a cut-off message must not pass as complete.
    if (req.signal.aborted) throw new AbortedError();
    const content: AssistantBlock[] = [];
    const incompleteToolUses: NonNullable<CompletionResponse['incompleteToolUses']> = [];
    for (const b of blocks) {
      if (!b) continue;
      if (b.kind === 'block') {
        // An empty text block is noise the API rejects on the way back. A thinking block is kept whatever it
        // holds, except one cut off (max_tokens) before its signature arrived: the API refuses it unsigned.
        if (b.block.type === 'text' ? b.block.text : b.block.type !== 'thinking' || b.block.signature) content.push(b.block);
        continue;
      }
      let input: unknown;
      try {
        input = b.json ? JSON.parse(b.json) : {};
      } catch {
        incompleteToolUses.push({ id: b.id, name: b.name, jsonChars: b.json.length });
        continue;
      }
      content.push({ type: 'tool_use', id: b.id, name: b.name, input });
    }
    return { content, stopReason, usage, ...(incompleteToolUses.length ? { incompleteToolUses } : {}) };
  }
}
