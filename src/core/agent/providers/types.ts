/** Provider-neutral conversation model. It mirrors the Anthropic Messages shape, which every provider maps to. */

export type TextBlock = { type: 'text'; text: string };
export type ToolUseBlock = { type: 'tool_use'; id: string; name: string; input: unknown };
export type ToolResultBlock = { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean };
export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock;

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: ContentBlock[];
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
  /** Streamed text as it arrives. */
  onText?: (delta: string) => void;
  /** Told before a retry wait, so a UI can say why it is slow. */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
}

export interface CompletionResponse {
  content: Array<TextBlock | ToolUseBlock>;
  stopReason: string;
  usage: Usage;
}

export interface Provider {
  readonly name: 'anthropic' | 'scripted';
  complete(req: CompletionRequest): Promise<CompletionResponse>;
}

/** A provider failure the user should read as one line (bad key, bad request, retries exhausted). */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** Thrown when the signal aborts a request; the loop turns it into an aborted turn, not an error. */
export class AbortedError extends Error {
  constructor() {
    super('aborted');
    this.name = 'AbortedError';
  }
}
