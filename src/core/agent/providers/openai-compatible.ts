/**
 * OpenAI-compatible chat completions (Ollama, vLLM, LM Studio, llama.cpp, OpenRouter, OpenAI) through the
 * official `openai` package, streamed, for one provider profile. The SDK is imported lazily and its own
 * retries are off: our policy (retry.ts) decides, honouring `retry-after`. Messages are mapped by
 * openai-messages.ts; the loop sees the same tool_use / tool_result blocks as with Anthropic.
 */
import type { CompletionRequest, CompletionResponse, Provider } from './types.js';
import { AbortedError, ProviderError, connectionCause, emptyUsage } from './types.js';
import { backoffDelay, briefFailure, isRetryableStatus, parseRetryAfter, sleep, type RetryPolicy } from './retry.js';
import { ChunkAccumulator, toOpenAIMessages, toOpenAITools } from './openai-messages.js';

export interface OpenAICompatibleOptions {
  /** The profile's name: the `<profile>/` prefix of model ids, stripped before the request. */
  profile: string;
  baseURL: string;
  /** Absent: no Authorization header at all (local servers). */
  apiKey?: string;
  /** Named in the 401 message. */
  apiKeyEnv?: string;
  maxTokensParam?: 'max_tokens' | 'max_completion_tokens';
  retry: RetryPolicy;
  timeoutMs?: number;
}

type SdkModule = typeof import('openai');
type SdkClient = InstanceType<SdkModule['default']>;

interface ApiErrorLike {
  status?: number;
  message: string;
  headers?: { get(name: string): string | null };
  error?: { message?: string } | null;
  cause?: unknown;
}

/** A stream that ended before its finish_reason: retried when nothing of it was shown yet. */
class StreamCutError extends ProviderError {}

const CONTEXT_EXCEEDED = /context length|context window|maximum context|too many tokens|prompt is too long/i;
const NO_TOOLS = /does not support tools|tools? (are |is )?not supported|tool[_ ]choice|function calling is not (supported|enabled)/i;
const UNKNOWN_MODEL = /model .*(not found|does not exist)|no such model|unknown model|model_not_found/i;

export class OpenAICompatibleProvider implements Provider {
  readonly name = 'openai-compatible' as const;
  private client?: SdkClient;
  private sdk?: SdkModule;

  constructor(private readonly opts: OpenAICompatibleOptions) {}

  /** The model id the server knows: the request's without its `<profile>/` prefix. */
  serverModel(model: string): string {
    const prefix = `${this.opts.profile}/`;
    return model.startsWith(prefix) ? model.slice(prefix.length) : model;
  }

  private async getClient(): Promise<{ client: SdkClient; sdk: SdkModule }> {
    if (!this.client || !this.sdk) {
      this.sdk = await import('openai');
      const OpenAI = this.sdk.default;
      this.client = new OpenAI({
        // The SDK insists on a key; with none configured the header is removed below, so none is sent.
        apiKey: this.opts.apiKey ?? 'no-key',
        // Never pick up OPENAI_* from the environment: the profile says where code goes and with which key.
        adminAPIKey: null,
        organization: null,
        project: null,
        baseURL: this.opts.baseURL,
        maxRetries: 0,
        // The SDK's own console lines ("Could not parse message into JSON", its chunk) would reach stderr on
        // every attempt: the failure is ours to say, once, in our words (failure() below).
        logLevel: 'off',
        timeout: this.opts.timeoutMs ?? 10 * 60_000,
        ...(this.opts.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
      });
    }
    return { client: this.client, sdk: this.sdk };
  }

  /** One line a person can act on: where, what happened, what to check. */
  describe(err: ApiErrorLike, model: string): string {
    const detail = err.error?.message ?? err.message;
    const where = `${this.opts.baseURL} (provider profile '${this.opts.profile}')`;
    const m = this.serverModel(model);
    switch (err.status) {
      case undefined: {
        const cause = (err.cause as { code?: string; message?: string } | undefined)?.code ?? (err.cause as Error | undefined)?.message ?? detail;
        return `cannot reach ${where}: is the server running and is baseURL right? (${cause})`;
      }
      case 401:
        return `authentication failed (401) at ${where}: ${this.opts.apiKeyEnv ? `check ${this.opts.apiKeyEnv}` : 'the profile sends no key; set apiKeyEnv'} — ${detail}`;
      case 403:
        return `permission denied (403) at ${where}: ${detail}`;
      case 404:
        return `unknown model '${m}' at ${where} (404): check the model name and that baseURL ends in /v1 — ${detail}`;
      case 429:
        return `rate limited (429) at ${where}: ${detail}`;
      default:
        if (err.status === 400 && NO_TOOLS.test(detail)) return `model '${m}' cannot call tools (${where} said: ${detail}): pick a model with tool calling`;
        if (err.status === 400 && UNKNOWN_MODEL.test(detail)) return `unknown model '${m}' at ${where}: ${detail}`;
        return `API error ${err.status} at ${where}: ${detail}`;
    }
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
        if (err instanceof ProviderError && !(err instanceof StreamCutError)) throw err;
        const f = this.failure(err, sdk, req.model);
        const connection = f.status === undefined && (err instanceof sdk.APIConnectionError || !(err instanceof sdk.APIError || err instanceof SyntaxError || err instanceof StreamCutError));
        const brief = connection || f.status !== undefined ? briefFailure({ ...(f.status !== undefined ? { status: f.status } : {}), base: this.opts.baseURL, cause: connectionCause(err) }) : f.message;
        // Once text reached the screen a retry would print it twice; fail instead.
        const retryable = !sawOutput && f.retryable;
        if (!retryable || attempt >= this.opts.retry.maxRetries) {
          const suffix = retryable && attempt > 0 ? ` (gave up after ${attempt + 1} attempts)` : '';
          throw new ProviderError(f.message + suffix, f.status, f.exceeded, brief + suffix);
        }
        const delayMs = backoffDelay(this.opts.retry, attempt + 1, parseRetryAfter(f.headers));
        req.onRetry?.({ attempt: attempt + 1, of: this.opts.retry.maxRetries, delayMs, reason: f.message, brief, ...(f.status !== undefined ? { status: f.status } : {}) });
        try {
          await sleep(delayMs, req.signal);
        } catch {
          throw new AbortedError();
        }
      }
    }
  }

  /**
   * What went wrong, in one line, and whether trying again may help: a refused connection or one cut before
   * the answer ended may; an error the server sent inside its stream is judged by the code it carries.
   */
  private failure(err: unknown, sdk: SdkModule, model: string): { message: string; retryable: boolean; status?: number; exceeded?: boolean; headers?: ApiErrorLike['headers'] } {
    const where = `${this.opts.baseURL} (provider profile '${this.opts.profile}')`;
    if (err instanceof StreamCutError) return { message: err.message, retryable: true };
    if (err instanceof SyntaxError) return { message: `${where} sent a stream chunk that is not JSON (${err.message.replace(/\s+/g, ' ').slice(0, 200)})`, retryable: true };
    if (!(err instanceof sdk.APIError)) return { message: `the connection to ${where} failed: ${(err as Error).message} (is the server still running?)`, retryable: true };
    const apiErr = err as unknown as ApiErrorLike;
    if (apiErr.status === undefined && !(err instanceof sdk.APIConnectionError)) {
      // `data: {"error": …}` in a 200 stream: the SDK gives no status; the error's own code may be one.
      const code = Number((apiErr.error as { code?: unknown } | null | undefined)?.code);
      if (Number.isInteger(code) && code >= 400 && code < 600) return { message: `${this.describe({ ...apiErr, message: apiErr.message, status: code }, model)} (sent inside the stream)`, retryable: isRetryableStatus(code), status: code };
      const detail = (apiErr.error?.message ?? apiErr.message).replace(/\s+/g, ' ');
      return { message: `${where} sent an error inside its stream: ${detail}`, retryable: false };
    }
    const message = this.describe(apiErr, model);
    const exceeded = (apiErr.status === 400 || apiErr.status === 413) && CONTEXT_EXCEEDED.test(apiErr.error?.message ?? apiErr.message);
    return { message, retryable: isRetryableStatus(apiErr.status), ...(apiErr.status !== undefined ? { status: apiErr.status } : {}), exceeded, ...(apiErr.headers ? { headers: apiErr.headers } : {}) };
  }

  private async once(client: SdkClient, req: CompletionRequest, markOutput: () => void): Promise<CompletionResponse> {
    const messages = toOpenAIMessages(req.system, req.messages);
    const body = {
      model: this.serverModel(req.model),
      messages,
      ...(req.tools.length ? { tools: toOpenAITools(req.tools) } : {}),
      [this.opts.maxTokensParam ?? 'max_tokens']: req.maxTokens,
      stream: true,
      stream_options: { include_usage: true },
    };
    // The SDK never removes the abort listener it adds to the signal it is given: each call gets its own
    // signal, tied to the turn's for the call's length only (else a turn of 11+ calls warns MaxListeners).
    const call = new AbortController();
    const forward = () => call.abort(req.signal.reason);
    req.signal.addEventListener('abort', forward, { once: true });
    const acc = new ChunkAccumulator();
    try {
      const stream = await client.chat.completions.create(body as never, { signal: call.signal, maxRetries: 0 });
      for await (const chunk of stream as unknown as AsyncIterable<unknown>) {
        const added = acc.add(chunk);
        if (added.text) {
          markOutput();
          req.onText?.(added.text);
        }
        if (added.reasoning) {
          markOutput();
          req.onThinking?.(added.reasoning);
        }
      }
    } finally {
      req.signal.removeEventListener('abort', forward);
    }
    // The SDK ends the iteration quietly on abort: a cut-off message must not pass as complete.
    if (req.signal.aborted) throw new AbortedError();
    if (acc.finish === null) throw new StreamCutError(`the stream from ${this.opts.baseURL} ended without a finish_reason (connection cut?)`);
    // `error` (vLLM, some proxies): the server gave up mid-answer; what came is not a complete answer.
    if (acc.finish === 'error') throw new ProviderError(`${this.opts.baseURL} ended its answer with finish_reason "error": the answer is incomplete`);
    if (acc.usage) return acc.result(acc.usage);
    // A server that ignores include_usage: tokens estimated (~4 characters each) for budgets, cost unknown.
    const estimate = emptyUsage();
    estimate.inputTokens = Math.ceil(JSON.stringify(messages).length / 4);
    const r = acc.result(estimate);
    r.usage.outputTokens = Math.ceil(JSON.stringify(r.content).length / 4);
    return { ...r, usageUnknown: true };
  }
}
