/**
 * The tool loop: ask the model, run the tools it calls (validate → preflight → permission → run), feed the
 * results back, until the model answers without tools, the iteration budget is spent, or the signal aborts.
 */
import { z } from 'zod';
import type { Tool, ToolContext, ToolResult } from './types.js';
import type { ChatMessage, Provider, TextBlock, ToolResultBlock, ToolSpec, ToolUseBlock, Usage } from './providers/types.js';
import { AbortedError, addUsage, emptyUsage, ProviderError } from './providers/types.js';

export interface LoopEvents {
  onText?(delta: string): void;
  onToolCall?(call: { id: string; name: string; input: unknown; summary: string }): void;
  onToolResult?(result: { id: string; name: string; content: string; isError: boolean }): void;
  onRetry?(info: { attempt: number; delayMs: number; reason: string }): void;
  /** Usage of one model call. */
  onUsage?(usage: Usage): void;
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
  /** Tool context without the signal (the loop passes its own). */
  context: Omit<ToolContext, 'signal'>;
  signal: AbortSignal;
  events?: LoopEvents;
  /** Called after each round of tool results: urgent messages to deliver as text beside those results. */
  onToolBoundary?: () => Promise<string[] | undefined>;
}

export type LoopStop = 'end_turn' | 'max_iterations' | 'aborted' | 'error';

export interface LoopResult {
  stop: LoopStop;
  /** Text of the last assistant message. */
  text: string;
  usage: Usage;
  iterations: number;
  error?: string;
}

export const INTERRUPTED = '[interrupted by the user]';

const specCache = new WeakMap<Tool<any>, ToolSpec>();

export function toolSpec(tool: Tool<any>): ToolSpec {
  let spec = specCache.get(tool);
  if (!spec) {
    const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.inputSchema as z.ZodType, { io: 'input' }) as Record<string, unknown>;
    spec = { name: tool.name, description: tool.description, input_schema: schema };
    specCache.set(tool, spec);
  }
  return spec;
}

export function capOutput(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[output truncated: ${text.length - max} more characters not shown]`;
}

function describeIssues(err: z.ZodError): string {
  return err.issues
    .slice(0, 5)
    .map((i) => `"${i.path.join('.') || '(input)'}": ${i.message}`)
    .join('; ');
}

/** Runs one tool call; never throws (a failure is a tool error the model reads). */
export async function runToolCall(call: ToolUseBlock, tools: Tool<any>[], ctx: ToolContext, events?: LoopEvents): Promise<ToolResult> {
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) return { content: `unknown tool "${call.name}"; available: ${tools.map((t) => t.name).join(', ')}`, isError: true };
  const parsed = tool.inputSchema.safeParse(call.input);
  if (!parsed.success) {
    events?.onToolCall?.({ id: call.id, name: call.name, input: call.input, summary: '(invalid input)' });
    return { content: `invalid input for ${tool.name}: ${describeIssues(parsed.error as z.ZodError)}`, isError: true };
  }
  const input = parsed.data;
  const summary = tool.summarize?.(input, ctx) ?? `${tool.name} ${JSON.stringify(input).slice(0, 200)}`;
  events?.onToolCall?.({ id: call.id, name: tool.name, input, summary });
  try {
    const refused = await tool.preflight?.(input, ctx);
    if (refused) return refused;
    if (tool.needsPermission) {
      const decision = await ctx.permissions.check({ tool: tool.name, input, summary, agentName: ctx.agentName }, ctx.signal);
      if (!decision.allowed) return { content: `permission denied: ${decision.reason}`, isError: true };
    }
    return await tool.run(input, ctx);
  } catch (err) {
    return { content: `${tool.name} failed: ${err instanceof Error ? err.message : String(err)}`, isError: true };
  }
}

function lastText(messages: ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'assistant') continue;
    return m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  }
  return '';
}

/** Appends `prompt` and runs the loop to completion. */
export async function runLoop(prompt: string, opts: LoopOptions): Promise<LoopResult> {
  const { messages, events, signal } = opts;
  const push = (m: ChatMessage) => {
    messages.push(m);
    events?.onMessage?.(m);
  };
  const interrupted = (usage: Usage, iterations: number): LoopResult => {
    push({ role: 'assistant', content: [{ type: 'text', text: INTERRUPTED }] });
    return { stop: 'aborted', text: '', usage, iterations };
  };
  push({ role: 'user', content: [{ type: 'text', text: prompt }] });
  const specs = opts.tools.map(toolSpec);
  const ctx: ToolContext = { ...opts.context, signal };
  let usage = emptyUsage();
  for (let iteration = 1; ; iteration++) {
    if (iteration > opts.maxIterations) {
      return { stop: 'max_iterations', text: lastText(messages), usage, iterations: iteration - 1, error: `stopped after ${opts.maxIterations} iterations (--max-iterations)` };
    }
    if (signal.aborted) return interrupted(usage, iteration - 1);
    let response;
    try {
      response = await opts.provider.complete({
        model: opts.model,
        system: opts.system,
        messages,
        tools: specs,
        maxTokens: opts.maxTokens,
        signal,
        onText: events?.onText,
        onRetry: events?.onRetry,
      });
    } catch (err) {
      if (err instanceof AbortedError || signal.aborted) return interrupted(usage, iteration - 1);
      const message = err instanceof ProviderError ? err.message : `provider failed: ${(err as Error).message}`;
      // Keep the conversation valid for the next prompt: a user message must be answered.
      push({ role: 'assistant', content: [{ type: 'text', text: `[error: ${message}]` }] });
      return { stop: 'error', text: '', usage, iterations: iteration, error: message };
    }
    if (signal.aborted) return interrupted(usage, iteration - 1);
    usage = addUsage(usage, response.usage);
    events?.onUsage?.(response.usage);
    const content: Array<TextBlock | ToolUseBlock> = response.content.length ? response.content : [{ type: 'text', text: '(empty response)' }];
    push({ role: 'assistant', content });
    const calls = content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    if (calls.length === 0) return { stop: 'end_turn', text: lastText(messages), usage, iterations: iteration };
    const results: ToolResultBlock[] = [];
    for (const call of calls) {
      const r: ToolResult = signal.aborted
        ? { content: 'not run: aborted by the user', isError: true }
        : await runToolCall(call, opts.tools, ctx, events);
      const text = capOutput(r.content, opts.toolOutputMaxChars);
      events?.onToolResult?.({ id: call.id, name: call.name, content: text, isError: !!r.isError });
      results.push({ type: 'tool_result', tool_use_id: call.id, content: text, ...(r.isError ? { is_error: true } : {}) });
    }
    const urgent = signal.aborted ? undefined : await opts.onToolBoundary?.();
    push({ role: 'user', content: [...results, ...(urgent ?? []).map((text): TextBlock => ({ type: 'text', text }))] });
    if (signal.aborted) return interrupted(usage, iteration);
  }
}
