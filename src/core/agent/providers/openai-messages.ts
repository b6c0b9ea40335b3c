/**
 * The conversation (Anthropic-shaped, providers/types.ts) as OpenAI chat completions messages, and a
 * streamed response back. Pure: the provider (openai-compatible.ts) does the I/O.
 */
import type { AssistantBlock, ChatMessage, CompletionResponse, PromptBlock, ToolSpec, Usage } from './types.js';

export type OpenAIPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export type OpenAIMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | OpenAIPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAIToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface OpenAIToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A failed tool result has no flag in this API: the model reads it from the text. */
export const TOOL_ERROR_PREFIX = '[tool error] ';

/**
 * System prompt first; a user message's tool results become `tool` messages right after the assistant's
 * `tool_calls` (the API requires that order), its text a user message after them; thinking is left out
 * (it is bound to the model that wrote it and has no place in this API).
 */
export function toOpenAIMessages(system: string, messages: ChatMessage[]): OpenAIMessage[] {
  const out: OpenAIMessage[] = [{ role: 'system', content: system }];
  for (const m of messages) {
    if (m.role === 'assistant') {
      const text = m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
      const calls = m.content.flatMap((b) =>
        b.type === 'tool_use' ? [{ id: b.id, type: 'function' as const, function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } }] : [],
      );
      out.push({ role: 'assistant', content: text || (calls.length ? null : ''), ...(calls.length ? { tool_calls: calls } : {}) });
      continue;
    }
    // A `tool` message holds text only: a result's images (Read of a PNG) follow in the user message.
    const extra: PromptBlock[] = [];
    for (const b of m.content) {
      if (b.type !== 'tool_result') continue;
      const blocks: PromptBlock[] = typeof b.content === 'string' ? [{ type: 'text', text: b.content }] : b.content;
      const text = blocks.flatMap((x) => (x.type === 'text' ? [x.text] : [])).join('\n');
      extra.push(...blocks.filter((x) => x.type !== 'text'));
      out.push({ role: 'tool', tool_call_id: b.tool_use_id, content: b.is_error ? TOOL_ERROR_PREFIX + text : text });
    }
    const parts = [...extra, ...m.content.filter((b): b is PromptBlock => b.type === 'text' || b.type === 'image' || b.type === 'document')].flatMap(toOpenAIPart);
    if (parts.length && parts.every((x) => x.type === 'text')) out.push({ role: 'user', content: parts.map((x) => (x as { text: string }).text).join('\n\n') });
    else if (parts.length) out.push({ role: 'user', content: parts });
  }
  return out;
}

/** Images as data or remote URLs; a PDF has no chat-completions form, so the model is told it was left out. */
function toOpenAIPart(b: PromptBlock): OpenAIPart[] {
  if (b.type === 'text') return b.text ? [{ type: 'text', text: b.text }] : [];
  if (b.type === 'image') return [{ type: 'image_url', image_url: { url: b.source.type === 'url' ? b.source.url : `data:${b.source.media_type};base64,${b.source.data}` } }];
  if (b.source.type === 'text') return [{ type: 'text', text: b.source.data }];
  return [{ type: 'text', text: '[a PDF document was left out: this provider takes no documents]' }];
}

export function toOpenAITools(tools: ToolSpec[]): unknown[] {
  return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.input_schema } }));
}

/**
 * `finish_reason` as the loop's stop reasons: `length` is `max_tokens` (the loop continues the turn),
 * `content_filter` is a refusal, and tool calls are `tool_use` whatever the reason says (some servers
 * report `stop` with tool calls). Anything else ends the turn.
 */
export function mapFinishReason(finish: string, hasToolCalls: boolean): string {
  switch (finish) {
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    default:
      return hasToolCalls ? 'tool_use' : 'end_turn';
  }
}

/** One streamed response as it is put together from its chunks. */
export class ChunkAccumulator {
  text = '';
  finish: string | null = null;
  usage: Usage | undefined;
  private readonly calls: Array<{ id: string; name: string; args: string }> = [];
  /** A chunk's tool-call `index` → the call it feeds (a new id at a used index starts a new call). */
  private readonly slots = new Map<number, number>();

  /** Applies one chunk; returns the text and reasoning it added (for streaming to the screen). */
  add(chunk: any): { text?: string; reasoning?: string } {
    const out: { text?: string; reasoning?: string } = {};
    if (chunk?.usage) this.usage = usageOf(chunk.usage);
    const choice = chunk?.choices?.[0];
    if (!choice) return out;
    const d = choice.delta ?? {};
    if (typeof d.content === 'string' && d.content) {
      this.text += d.content;
      out.text = d.content;
    }
    // Reasoning text (vLLM, DeepSeek, Ollama, OpenRouter name it differently) is shown, not kept: it has no signature.
    const reasoning = d.reasoning_content ?? d.reasoning;
    if (typeof reasoning === 'string' && reasoning) out.reasoning = reasoning;
    const calls: any[] = Array.isArray(d.tool_calls) ? d.tool_calls : [];
    // The legacy single `function_call` delta is one tool call like any other.
    if (d.function_call && typeof d.function_call === 'object') calls.push({ index: -1, function: d.function_call });
    for (const tc of calls) this.addCall(tc);
    if (choice.finish_reason) this.finish = choice.finish_reason;
    return out;
  }

  private addCall(tc: any): void {
    const index = typeof tc.index === 'number' ? tc.index : this.calls.length;
    const id = typeof tc.id === 'string' ? tc.id : '';
    let at = this.slots.get(index);
    // Some servers send every parallel call at index 0, each with its own id: a new id is a new call.
    if (at === undefined || (id && this.calls[at]!.id && this.calls[at]!.id !== id)) {
      at = this.calls.push({ id: '', name: '', args: '' }) - 1;
      this.slots.set(index, at);
    }
    const cur = this.calls[at]!;
    if (id) cur.id = id;
    if (typeof tc.function?.name === 'string') cur.name += tc.function.name;
    const args = tc.function?.arguments;
    if (typeof args === 'string') cur.args += args;
    // Arguments sent as an object (some servers): the object itself, never `{}`.
    else if (args && typeof args === 'object' && !cur.args) cur.args = JSON.stringify(args);
  }

  /** The response; tool calls whose arguments do not parse (cut off, or malformed) are never run. */
  result(usage: Usage): CompletionResponse {
    const content: AssistantBlock[] = this.text ? [{ type: 'text', text: this.text }] : [];
    const incompleteToolUses: NonNullable<CompletionResponse['incompleteToolUses']> = [];
    const ids = new Set<string>();
    this.calls.forEach((c, i) => {
      // Tool results are matched back by id: a missing or repeated one gets its own.
      let id = c.id || `call_${i}`;
      if (ids.has(id)) id = `${id}_${i}`;
      ids.add(id);
      let input: unknown;
      try {
        input = c.args.trim() ? JSON.parse(c.args) : {};
      } catch {
        input = undefined;
      }
      if (!c.name || input === null || typeof input !== 'object' || Array.isArray(input)) {
        incompleteToolUses.push({ id, name: c.name || '(unnamed)', jsonChars: c.args.length });
        return;
      }
      content.push({ type: 'tool_use', id, name: c.name, input });
    });
    const stopReason = mapFinishReason(this.finish ?? 'stop', content.some((b) => b.type === 'tool_use'));
    return { content, stopReason, usage, ...(incompleteToolUses.length ? { incompleteToolUses } : {}) };
  }
}

/** Most tokens one model call is believed to use: a larger count is a broken server, not a spend. */
const MAX_CALL_TOKENS = 100_000_000;

/**
 * Cached prompt tokens (`prompt_tokens_details.cached_tokens`) count as cache reads, the rest as input.
 * Undefined when a count is not a plausible whole number: the usage is then unknown, never a wrong number.
 */
export function usageOf(u: any): Usage | undefined {
  const bad = (v: unknown) => v !== undefined && v !== null && !(Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= MAX_CALL_TOKENS);
  if ([u?.prompt_tokens, u?.completion_tokens, u?.prompt_tokens_details?.cached_tokens].some(bad)) return undefined;
  const n = (v: unknown) => (typeof v === 'number' ? v : 0);
  const prompt = n(u?.prompt_tokens);
  const cached = Math.min(prompt, n(u?.prompt_tokens_details?.cached_tokens));
  return { inputTokens: prompt - cached, outputTokens: n(u?.completion_tokens), cacheReadTokens: cached, cacheWriteTokens: 0 };
}
