/**
 * The tool loop: ask the model, run the tools it calls, feed the results back, until the model ends its
 * turn, a stop reason ends it (refusal, truncation, context window), the iteration budget is spent, or the
 * signal aborts. Thinking blocks stay in the conversation exactly as the API returned them.
 */
import { modelInfo } from '../../contract/models.js';
import type { AssistantBlock, ChatMessage, CompletionResponse, RetryInfo, Effort, PromptBlock, Provider, ThinkingDisplay, ThinkingSetting, ToolResultBlock, ToolUseBlock, Usage } from './providers/types.js';
import { AbortedError, addUsage, emptyUsage, ProviderError } from './providers/types.js';
import { capOutput, runToolBatch, runToolCall, toolSpec } from './tool-run.js';
import type { Tool, ToolContext } from './types.js';

export { capOutput, runToolCall, toolSpec };

export interface LoopEvents {
  onText?(delta: string): void;
  onThinking?(delta: string): void;
  onToolCall?(call: { id: string; name: string; input: unknown; summary: string }): void;
  onToolResult?(result: { id: string; name: string; content: string; isError: boolean; deniedByClient?: boolean }): void;
  /** Output of a call still running (Bash), as it comes; its `onToolResult` follows. */
  onToolOutput?(output: { id: string; chunk: string }): void;
  onRetry?(info: RetryInfo): void;
  /** Each raw event of the model's stream (`--include-partial-messages`). */
  onStreamEvent?(event: Record<string, unknown>): void;
  /** Usage of one model call by `model`; `unknown`: the server reported none (tokens estimated, cost unknown). */
  onUsage?(usage: Usage, unknown: boolean, model: string): void;
  /** The turn goes on with a fallback model (`--fallback-model`): the one it used is overloaded or unavailable. */
  onModelFallback?(info: { from: string; to: string; trigger: FallbackTrigger }): void;
  /** One complete model response as it joins the conversation (stream-json `assistant` messages). */
  onResponse?(response: { message: ChatMessage; stopReason: string; usage: Usage }): void;
  /** Every message appended to the conversation (session persistence). */
  onMessage?(message: ChatMessage): void;
}

export interface LoopOptions {
  provider: Provider;
  model: string;
  system: string;
  tools: Tool<any>[];
  /** The conversation so far; the prompt and everything after it are appended in place. */
  messages: ChatMessage[];
  maxIterations: number;
  maxTokens: number;
  toolOutputMaxChars: number;
  effort?: Effort;
  thinkingDisplay?: ThinkingDisplay;
  thinking?: ThinkingSetting;
  /** Tried in order, for the rest of the turn, when the model is overloaded or unavailable. */
  fallbackModels?: string[];
  /** The provider of a fallback model (a `<profile>/<model>` id); absent: `provider`. */
  providerFor?: (model: string) => Provider;
  /** Continuations after a response cut off by max_tokens before the turn is reported truncated. */
  maxContinuations?: number;
  /**
   * Called at each tool boundary (after a batch of tool results, before the next model request). Strings
   * it returns are appended as text blocks to the same user message as the tool results: the way to hand
   * the model an urgent message mid-turn.
   */
  onToolBoundary?: () => Promise<string[] | undefined>;
  /**
   * Asked before every model call: a reason stops the turn there (a spending budget reached), after the
   * tool calls of the last response have all run, so no tool is ever cut in half.
   */
  beforeModelCall?: () => Promise<string | undefined>;
  /** A turn that must end with a given answer (structured output): how it ends, or fails. */
  finish?: TurnFinish;
  /** Tool context without the signal (the loop passes its own). */
  context: Omit<ToolContext, 'signal'>;
  signal: AbortSignal;
  events?: LoopEvents;
}

export type LoopStop = 'end_turn' | 'max_iterations' | 'aborted' | 'error' | 'max_tokens' | 'refusal' | 'context_exceeded' | 'budget' | 'structured_output';

/** How a turn that must end with a given answer ends (structured output). */
export interface TurnFinish {
  /** After a batch of tool results: `done` (the answer as text) ends the turn; `failed` ends it as failed. */
  afterTools(): { done: string } | { failed: string } | undefined;
  /** The model ended its turn without the answer: a reminder to send as the next user message, or a failure. */
  onEndTurn(): { nudge: string } | { failed: string };
}

export interface LoopResult {
  stop: LoopStop;
  /** Text of the last assistant message. */
  text: string;
  usage: Usage;
  iterations: number;
  error?: string;
  /** Set when the model could not be called (stop `error`): the failure in a few words, for a status line. */
  modelFailure?: string;
}

export const INTERRUPTED = '[interrupted by the user]';

export type FallbackTrigger = 'overloaded' | 'server_error' | 'model_not_found';

/** As Claude Code: overloaded (529, after its retries), unavailable (503) or not found (404) moves to the fallback. */
export function fallbackTrigger(err: unknown): FallbackTrigger | undefined {
  if (!(err instanceof ProviderError)) return undefined;
  return err.status === 529 ? 'overloaded' : err.status === 503 ? 'server_error' : err.status === 404 ? 'model_not_found' : undefined;
}
export const DEFAULT_MAX_CONTINUATIONS = 3;

function lastText(messages: ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'assistant') continue;
    return m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  }
  return '';
}

/** A conversation's size in tokens: the last call's prompt when known, else ~4 characters a token. */
export function sessionTokens(messages: ChatMessage[], lastPromptTokens = 0): number {
  return Math.max(lastPromptTokens, Math.ceil(JSON.stringify(messages).length / 4));
}

/** The prompt size the API reports in its refusal ("prompt is too long: 250000 tokens > 200000 maximum"), else 0. */
export function reportedPromptTokens(apiMessage: string): number {
  const m = /(\d[\d,]*) tokens? >/.exec(apiMessage);
  return m ? Number(m[1]!.replaceAll(',', '')) : 0;
}

export function contextExceededMessage(model: string, messages: ChatMessage[], lastPromptTokens = 0): string {
  const window = modelInfo(model)?.contextWindow;
  const size = sessionTokens(messages, lastPromptTokens);
  return (
    `context window exceeded: this session is about ${size.toLocaleString('en-US')} tokens (${messages.length} messages)` +
    `${window ? `, ${model} takes ${window.toLocaleString('en-US')}` : ''}; start a new session (/clear in the REPL, or run without --resume)`
  );
}

/** Content that may stand as an assistant message: never empty, tool calls only when they will be answered. */
function closedContent(content: AssistantBlock[], placeholder: string): AssistantBlock[] {
  const kept = content.filter((b) => b.type !== 'tool_use');
  return kept.some((b) => b.type === 'text') ? kept : [...kept, { type: 'text', text: placeholder }];
}

function truncationNote(r: CompletionResponse, maxTokens: number): string {
  const cut = r.incompleteToolUses?.[0];
  if (cut) {
    return (
      `[Your last response was cut off at the output limit (max_tokens ${maxTokens}) while writing the input of a ${cut.name} call ` +
      `(${cut.jsonChars} characters so far); that call was not run. Continue, and split large content into several smaller tool calls.]`
    );
  }
  return `[Your last response was cut off at the output limit (max_tokens ${maxTokens}). Continue exactly where you stopped, without repeating.]`;
}

/** Appends `prompt` and runs the loop to completion. */
export async function runLoop(prompt: string | PromptBlock[], opts: LoopOptions): Promise<LoopResult> {
  const { messages, events, signal } = opts;
  const push = (m: ChatMessage) => {
    messages.push(m);
    events?.onMessage?.(m);
  };
  const interrupted = (usage: Usage, iterations: number): LoopResult => {
    push({ role: 'assistant', content: [{ type: 'text', text: INTERRUPTED }] });
    return { stop: 'aborted', text: '', usage, iterations };
  };
  push({ role: 'user', content: typeof prompt === 'string' ? [{ type: 'text', text: prompt }] : prompt });
  const specs = opts.tools.map(toolSpec);
  const ctx: ToolContext = { ...opts.context, signal };
  const maxContinuations = opts.maxContinuations ?? DEFAULT_MAX_CONTINUATIONS;
  let usage = emptyUsage();
  let continuations = 0;
  let lastPromptTokens = 0;
  // The main model again at each turn's start; a fallback, once taken, serves the rest of the turn.
  let model = opts.model;
  let provider = opts.provider;
  const fallbacks = [...(opts.fallbackModels ?? [])].filter((m) => m !== model);
  for (let iteration = 1; ; iteration++) {
    if (iteration > opts.maxIterations) {
      return { stop: 'max_iterations', text: lastText(messages), usage, iterations: iteration - 1, error: `stopped after ${opts.maxIterations} iterations (--max-iterations)` };
    }
    if (signal.aborted) return interrupted(usage, iteration - 1);
    const held = await opts.beforeModelCall?.();
    if (held) {
      // Answered like an interruption, so the conversation stays valid for the turn that resumes it.
      push({ role: 'assistant', content: [{ type: 'text', text: `[paused: ${held}]` }] });
      return { stop: 'budget', text: lastText(messages), usage, iterations: iteration - 1, error: held };
    }
    let response: CompletionResponse | undefined;
    while (!response) {
      try {
        response = await provider.complete({
          model,
          system: opts.system,
          messages,
          tools: specs,
          // A fallback may take less output than the main model.
          maxTokens: Math.min(opts.maxTokens, modelInfo(model)?.maxOutput ?? opts.maxTokens),
          signal,
          ...(opts.effort ? { effort: opts.effort } : {}),
          ...(opts.thinkingDisplay ? { thinkingDisplay: opts.thinkingDisplay } : {}),
          ...(opts.thinking ? { thinking: opts.thinking } : {}),
          // With a fallback waiting, an unavailable model (503) is left at once, as Claude Code does.
          ...(fallbacks.length ? { noRetryStatuses: [503] } : {}),
          onText: events?.onText,
          onThinking: events?.onThinking,
          onRetry: events?.onRetry,
          ...(events?.onStreamEvent ? { onStreamEvent: events.onStreamEvent } : {}),
        });
      } catch (err) {
        if (err instanceof AbortedError || signal.aborted) return interrupted(usage, iteration - 1);
        const trigger = fallbackTrigger(err);
        if (trigger && fallbacks.length) {
          const to = fallbacks.shift()!;
          events?.onModelFallback?.({ from: model, to, trigger });
          model = to;
          provider = opts.providerFor?.(to) ?? opts.provider;
          continue;
        }
        const exceeded = err instanceof ProviderError && err.contextExceeded;
        const message = exceeded
          ? contextExceededMessage(model, messages, Math.max(lastPromptTokens, reportedPromptTokens(err.message)))
          : err instanceof ProviderError
            ? err.message
            : `provider failed: ${(err as Error).message}`;
        // Keep the conversation valid for the next prompt: a user message must be answered.
        push({ role: 'assistant', content: [{ type: 'text', text: `[error: ${message}]` }] });
        if (exceeded) return { stop: 'context_exceeded', text: '', usage, iterations: iteration, error: message };
        const brief = err instanceof ProviderError && err.brief ? err.brief : message;
        return { stop: 'error', text: '', usage, iterations: iteration, error: message, modelFailure: brief };
      }
    }
    if (signal.aborted) return interrupted(usage, iteration - 1);
    usage = addUsage(usage, response.usage);
    lastPromptTokens = response.usage.inputTokens + response.usage.cacheReadTokens + response.usage.cacheWriteTokens + response.usage.outputTokens;
    events?.onUsage?.(response.usage, response.usageUnknown === true, model);
    const stop = response.stopReason;
    const respond = (content: AssistantBlock[]) => {
      const message: ChatMessage = { role: 'assistant', content, model };
      push(message);
      events?.onResponse?.({ message, stopReason: stop, usage: response.usage });
    };

    if (stop === 'refusal') {
      respond(closedContent(response.content, '[refused]'));
      return { stop: 'refusal', text: lastText(messages), usage, iterations: iteration, error: 'the model refused to continue (stop_reason: refusal)' };
    }
    if (stop === 'model_context_window_exceeded') {
      respond(closedContent(response.content, '[context window exceeded]'));
      return { stop: 'context_exceeded', text: lastText(messages), usage, iterations: iteration, error: contextExceededMessage(model, messages, lastPromptTokens) };
    }
    const truncated = stop === 'max_tokens';
    if (truncated && ++continuations > maxContinuations) {
      respond(closedContent(response.content, '[output truncated]'));
      return {
        stop: 'max_tokens',
        text: lastText(messages),
        usage,
        iterations: iteration,
        error: `output truncated: the model reached max_tokens (${opts.maxTokens}) ${continuations} times in a row; raise maxTokens or ask for less at once`,
      };
    }
    if (!truncated) continuations = 0;
    if (stop === 'pause_turn') {
      // A long server-side turn paused: sending the response back as-is lets the model continue.
      respond(response.content.length ? response.content : [{ type: 'text', text: '(paused)' }]);
      continue;
    }

    const calls = response.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    const content = calls.length || response.content.some((b) => b.type === 'text') || truncated ? response.content : [...response.content, { type: 'text' as const, text: '(empty response)' }];
    respond(truncated && calls.length === 0 ? closedContent(content, '(output cut off)') : content);
    const extra: string[] = [];
    if (truncated) extra.push(truncationNote(response, opts.maxTokens));
    else if (response.incompleteToolUses?.length) {
      extra.push(`[${response.incompleteToolUses.map((c) => c.name).join(', ')} call input was not valid JSON and was not run.]`);
    }
    if (calls.length === 0 && extra.length === 0) {
      if (!opts.finish) return { stop: 'end_turn', text: lastText(messages), usage, iterations: iteration };
      const f = opts.finish.onEndTurn();
      if ('failed' in f) return { stop: 'structured_output', text: lastText(messages), usage, iterations: iteration, error: f.failed };
      push({ role: 'user', content: [{ type: 'text', text: f.nudge }] });
      continue;
    }

    const results: ToolResultBlock[] = [];
    await runToolBatch(calls, opts.tools, ctx, events, (call, r) => {
      const text = capOutput(r.content, opts.toolOutputMaxChars);
      events?.onToolResult?.({ id: call.id, name: call.name, content: text, isError: !!r.isError, ...(r.deniedByClient ? { deniedByClient: true } : {}) });
      results.push({ type: 'tool_result', tool_use_id: call.id, content: r.blocks ?? text, ...(r.isError ? { is_error: true } : {}) });
    });
    if (calls.length && !signal.aborted) extra.push(...((await opts.onToolBoundary?.()) ?? []));
    push({ role: 'user', content: [...results, ...extra.map((text) => ({ type: 'text' as const, text }))] });
    if (signal.aborted) return interrupted(usage, iteration);
    const finished = calls.length ? opts.finish?.afterTools() : undefined;
    if (finished) {
      // The answer (or the failure) closes the turn without another model call; the conversation stays valid.
      const text = 'done' in finished ? finished.done : '[no valid structured output]';
      push({ role: 'assistant', content: [{ type: 'text', text }], model });
      if ('done' in finished) return { stop: 'end_turn', text, usage, iterations: iteration };
      return { stop: 'structured_output', text: '', usage, iterations: iteration, error: finished.failed };
    }
  }
}
