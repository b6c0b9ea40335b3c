/** Provider-neutral conversation model. It mirrors the Anthropic Messages shape, which every provider maps to. */

export type TextBlock = { type: 'text'; text: string };
export type ToolUseBlock = { type: 'tool_use'; id: string; name: string; input: unknown };
export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
/** An image in a user message or a tool result (Read of a PNG), as the Messages API takes it. */
export type ImageBlock = { type: 'image'; source: { type: 'base64'; media_type: ImageMediaType; data: string } | { type: 'url'; url: string } };
/** A PDF (or plain text) document, as the Messages API takes it. */
export type DocumentBlock = {
  type: 'document';
  source: { type: 'base64'; media_type: 'application/pdf'; data: string } | { type: 'text'; media_type: 'text/plain'; data: string } | { type: 'url'; url: string };
};
/** What a person (or the Agent SDK) may put in a prompt, and a tool in its result. */
export type PromptBlock = TextBlock | ImageBlock | DocumentBlock;
export type ToolResultBlock = { type: 'tool_result'; tool_use_id: string; content: string | PromptBlock[]; is_error?: boolean };
/**
 * Thinking blocks are bound to the model and the conversation: they go back to the API exactly as received
 * (text and signature), in their original order, or the next request fails.
 */
export type ThinkingBlock = { type: 'thinking'; thinking: string; signature: string };
export type RedactedThinkingBlock = { type: 'redacted_thinking'; data: string };
export type AssistantBlock = TextBlock | ToolUseBlock | ThinkingBlock | RedactedThinkingBlock;
export type ContentBlock = AssistantBlock | ToolResultBlock | ImageBlock | DocumentBlock;

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: ContentBlock[];
  /** Model that wrote an assistant message; its thinking blocks go back only to that model. Not sent. */
  model?: string;
}

/** What the model is told about one tool. */
export interface ToolSpec {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export const emptyUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}

export interface CompletionRequest {
  model: string;
  system: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  maxTokens: number;
  signal: AbortSignal;
  /** `low` … `max`; absent = the model's default. Sent only to models that take it. */
  effort?: Effort;
  /** Whether thinking text is returned (`summarized`) or only its signature (`omitted`). */
  thinkingDisplay?: ThinkingDisplay;
  /** Asked-for thinking (the Agent SDK's `thinking` / `maxThinkingTokens`); absent = the model's default. */
  thinking?: ThinkingSetting;
  /** HTTP statuses not retried here (a fallback model takes over instead). */
  noRetryStatuses?: number[];
  /** Streamed text as it arrives. */
  onText?: (delta: string) => void;
  /** Streamed thinking text as it arrives. */
  onThinking?: (delta: string) => void;
  /** Told before a retry wait, so a UI can say why it is slow. */
  onRetry?: (info: RetryInfo) => void;
  /** Each raw event of the API's stream as it arrives (the Agent SDK's partial messages). */
  onStreamEvent?: (event: Record<string, unknown>) => void;
}

/** One retry wait: which attempt of how many (`of`: the policy's maxRetries), why, and the failed attempt's HTTP status (absent for a connection error). */
export interface RetryInfo {
  attempt: number;
  of: number;
  delayMs: number;
  reason: string;
  status?: number;
  /** The failure in a few words for a status line ("529 overloaded", "cannot reach …: ECONNREFUSED"). */
  brief?: string;
}

export type Effort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';
export type ThinkingDisplay = 'summarized' | 'omitted';
/**
 * `enabled` with a budget is sent as `budget_tokens` to a manual-budget model; an adaptive model takes any
 * budget as "on" (it refuses manual budgets). `disabled`: no thinking.
 */
export type ThinkingSetting = { type: 'adaptive' } | { type: 'disabled' } | { type: 'enabled'; budgetTokens: number };

export interface CompletionResponse {
  content: AssistantBlock[];
  /** `end_turn`, `tool_use`, `max_tokens`, `pause_turn`, `refusal`, `model_context_window_exceeded`, `stop_sequence`. */
  stopReason: string;
  usage: Usage;
  /**
   * Tool calls whose input JSON did not parse (cut off by max_tokens): left out of `content` so they are
   * never run, never sent back, and never reported to the model as a validation error.
   */
  incompleteToolUses?: Array<{ id: string; name: string; jsonChars: number }>;
  /** The server reported no usage: the tokens are an estimate and the cost is unknown (never guessed low). */
  usageUnknown?: boolean;
}

export interface Provider {
  readonly name: 'anthropic' | 'scripted' | 'openai-compatible';
  complete(req: CompletionRequest): Promise<CompletionResponse>;
}

/** A provider failure the user should read as one line (bad key, bad request, retries exhausted). */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    /** Set when the request did not fit the model's context window. */
    readonly contextExceeded = false,
    /** The failure in a few words for an agent's status ("API key refused (401)"); absent: the message's. */
    readonly brief?: string,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** Thrown when the signal aborts a request; the loop turns it into an aborted turn, not an error. */
/** The first cause in an error's `cause` chain with a system code (ECONNREFUSED, ENOTFOUND), else the deepest message. */
export function connectionCause(err: unknown): string {
  let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
  let last = '';
  for (let i = 0; e && i < 8; i++, e = e.cause as typeof e) {
    if (typeof e.code === 'string' && e.code) return e.code;
    if (typeof e.message === 'string' && e.message) last = e.message;
  }
  return last || 'connection failed';
}

export class AbortedError extends Error {
  constructor() {
    super('aborted');
    this.name = 'AbortedError';
  }
}
