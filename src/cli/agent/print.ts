/** `thclaws -p`: one prompt to completion; text, json or stream-json on stdout. */
import type { PromptResult } from '../../core/agent/agent.js';
import type { Usage } from '../../core/agent/providers/types.js';
import type { Runtime } from './setup.js';

export function usageJson(u: Usage) {
  return {
    input_tokens: u.inputTokens,
    output_tokens: u.outputTokens,
    cache_read_input_tokens: u.cacheReadTokens,
    cache_creation_input_tokens: u.cacheWriteTokens,
  };
}

/** 0 = done, 1 = failed (provider error, iteration budget), 130 = interrupted. */
export function exitCodeOf(r: PromptResult): number {
  if (r.stop === 'end_turn') return 0;
  return r.stop === 'aborted' ? 130 : 1;
}

export async function runPrint(rt: Runtime, prompt: string, format: 'text' | 'json' | 'stream-json'): Promise<number> {
  const { agent } = rt;
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  const emit = (obj: unknown) => process.stdout.write(`${JSON.stringify(obj)}\n`);
  if (format === 'stream-json') {
    emit({ type: 'init', session_id: agent.session.id, model: agent.model, provider: agent.provider.name, tools: agent.tools.map((t) => t.name) });
  }
  const events =
    format === 'stream-json'
      ? {
          onText: (text: string) => emit({ type: 'text', text }),
          onToolCall: (c: { id: string; name: string; input: unknown }) => emit({ type: 'tool_use', id: c.id, name: c.name, input: c.input }),
          onToolResult: (r: { id: string; name: string; content: string; isError: boolean }) =>
            emit({ type: 'tool_result', id: r.id, name: r.name, content: r.content, is_error: r.isError }),
          onRetry: (i: { attempt: number; delayMs: number; reason: string }) => emit({ type: 'retry', attempt: i.attempt, delay_ms: i.delayMs, reason: i.reason }),
          onUsage: (u: Usage) => emit({ type: 'usage', usage: usageJson(u) }),
        }
      : {
          onRetry: (i: { attempt: number; delayMs: number; reason: string }) =>
            process.stderr.write(`thclaws: retry ${i.attempt} in ${(i.delayMs / 1000).toFixed(1)} s: ${i.reason}\n`),
        };
  let result: PromptResult;
  try {
    result = await agent.prompt(prompt, controller.signal, events);
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
  const isError = result.stop !== 'end_turn';
  const error = result.error ?? (result.stop === 'aborted' ? 'interrupted' : undefined);
  const summary = {
    result: result.text,
    session_id: agent.session.id,
    usage: usageJson(result.usage),
    cost_usd: result.costUsd ?? null,
    is_error: isError,
    stop_reason: result.stop,
    iterations: result.iterations,
    ...(error ? { error } : {}),
  };
  if (format === 'json') emit(summary);
  else if (format === 'stream-json') emit({ type: 'result', ...summary });
  else if (result.text) process.stdout.write(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
  if (isError && format === 'text') process.stderr.write(`thclaws: ${error}\n`);
  return exitCodeOf(result);
}
