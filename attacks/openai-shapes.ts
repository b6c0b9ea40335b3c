/**
 * Attack: today's OpenAI-compatible streaming shapes, served raw (SSE written by hand) to the real `openai`
 * package through OpenAICompatibleProvider. Run: npx tsx attacks/openai-shapes.ts
 * Prints one line per case: what the provider returned or threw.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAICompatibleProvider } from '../src/core/agent/providers/openai-compatible.js';

type Case = { name: string; chunks?: unknown[]; raw?: string; status?: number; headers?: Record<string, string>; expect: string; cutFirst?: boolean };
const c = (delta: unknown, finish: string | null = null, extra: object = {}) => ({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }], ...extra });
const usage = { id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } };

const cases: Case[] = [
  {
    name: 'parallel calls all at index 0 with distinct ids (Gemini/older Ollama style)',
    chunks: [
      c({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'Read', arguments: '{"file_path":"a"}' } }] }),
      c({ tool_calls: [{ index: 0, id: 'call_b', type: 'function', function: { name: 'Read', arguments: '{"file_path":"b"}' } }] }),
      c({}, 'tool_calls'),
      usage,
    ],
    expect: 'two tool_use blocks (call_a, call_b)',
  },
  {
    name: 'tool call index gap (0 and 2)',
    chunks: [
      c({ tool_calls: [{ index: 0, id: 'c0', type: 'function', function: { name: 'Read', arguments: '{"file_path":"a"}' } }] }),
      c({ tool_calls: [{ index: 2, id: 'c2', type: 'function', function: { name: 'Read', arguments: '{"file_path":"b"}' } }] }),
      c({}, 'tool_calls'),
      usage,
    ],
    expect: 'two tool_use blocks',
  },
  {
    name: 'arguments sent as an object, not a string',
    chunks: [c({ tool_calls: [{ index: 0, id: 'c0', type: 'function', function: { name: 'Write', arguments: { file_path: 'x', content: 'y' } } }] }), c({}, 'tool_calls'), usage],
    expect: 'input {file_path,content} or the call reported as malformed — never run with {}',
  },
  {
    name: 'duplicate tool call ids in one response',
    chunks: [
      c({ tool_calls: [{ index: 0, id: 'dup', type: 'function', function: { name: 'Read', arguments: '{"file_path":"a"}' } }] }),
      c({ tool_calls: [{ index: 1, id: 'dup', type: 'function', function: { name: 'Read', arguments: '{"file_path":"b"}' } }] }),
      c({}, 'tool_calls'),
      usage,
    ],
    expect: 'distinct ids (the tool results must be matched back)',
  },
  {
    name: 'tool call with empty id in two consecutive responses',
    chunks: [c({ tool_calls: [{ index: 0, id: '', type: 'function', function: { name: 'Read', arguments: '{"file_path":"a"}' } }] }), c({}, 'tool_calls'), usage],
    expect: 'an id unique across the conversation (call_0 repeats every turn)',
  },
  {
    name: 'text, then a streamed error object (OpenRouter mid-stream error)',
    chunks: [c({ content: 'Hello ' }), { error: { message: 'Provider returned error', code: 502 } }],
    expect: 'one-line error naming the server error, not "cannot reach"',
  },
  {
    name: 'streamed error before any output (upstream model not found)',
    chunks: [{ error: { message: 'model qwen9 not found', code: 404 } }],
    expect: 'not retried, "unknown model" or the server message; not "cannot reach"',
  },
  {
    name: 'non-streamed JSON body (server ignores stream:true)',
    raw: JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1 } }),
    headers: { 'content-type': 'application/json' },
    expect: 'text "hi" or a clear error saying the server does not stream',
  },
  {
    name: 'finish_reason tool_calls with no tool_calls and no text',
    chunks: [c({ role: 'assistant' }, 'tool_calls'), usage],
    expect: 'end_turn with empty content, or an error — not an infinite loop',
  },
  {
    name: 'reasoning only, finish stop, no content',
    chunks: [c({ reasoning_content: 'thinking...' }), c({}, 'stop'), usage],
    expect: 'empty answer reported',
  },
  {
    name: 'usage with negative / huge tokens',
    chunks: [c({ content: 'hi' }, 'stop'), { ...usage, usage: { prompt_tokens: 1e300, completion_tokens: -5 } }],
    expect: 'rejected or clamped; never Infinity cost',
  },
  {
    name: 'finish_reason function_call (legacy) with a legacy function_call delta',
    chunks: [c({ function_call: { name: 'Read', arguments: '{"file_path":"a"}' } }), c({}, 'function_call'), usage],
    expect: 'the call, or an error — not a silent end_turn',
  },
  {
    name: 'unknown finish_reason "error" (some servers) after partial text',
    chunks: [c({ content: 'partial' }), c({}, 'error'), usage],
    expect: 'an error, not a complete end_turn answer',
  },
  {
    name: 'connection cut right after the headers, before any chunk (first attempt only)',
    cutFirst: true,
    chunks: [c({ content: 'hello' }, 'stop'), usage],
    expect: 'retried like any network failure (nothing was shown yet): 2 requests, text "hello"',
  },
  {
    name: '429 with retry-after 3600',
    status: 429,
    headers: { 'retry-after': '3600' },
    raw: JSON.stringify({ error: { message: 'slow down' } }),
    expect: 'gives up with a clear line (no hour-long wait)',
  },
];

let current: Case = cases[0]!;
let hits = 0;
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    hits++;
    if (current.status) {
      res.writeHead(current.status, { 'content-type': 'application/json', ...(current.headers ?? {}) });
      return res.end(current.raw ?? '{}');
    }
    if (current.raw !== undefined) {
      res.writeHead(200, current.headers ?? {});
      return res.end(current.raw);
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (current.cutFirst && hits === 1) {
      res.flushHeaders();
      return void setTimeout(() => res.socket?.destroy(), 20);
    }
    for (const ch of current.chunks ?? []) res.write(`data: ${JSON.stringify(ch)}\n\n`);
    res.end('data: [DONE]\n\n');
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
const provider = new OpenAICompatibleProvider({ profile: 'p', baseURL: url, retry: { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 200 } });
for (const k of cases) {
  current = k;
  hits = 0;
  const t0 = Date.now();
  let out: string;
  try {
    const r = await provider.complete({ model: 'p/m', system: 's', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [], maxTokens: 100, signal: new AbortController().signal, onRetry: () => undefined } as never);
    out = JSON.stringify({ content: r.content, stop: r.stopReason, usage: r.usage, incomplete: r.incompleteToolUses, usageUnknown: r.usageUnknown });
  } catch (e) {
    out = `THREW ${(e as Error).name}: ${(e as Error).message}`;
  }
  console.log(`\n## ${k.name}\n  expect: ${k.expect}\n  got (${hits} request(s), ${Date.now() - t0} ms): ${out}`);
}
server.close();
