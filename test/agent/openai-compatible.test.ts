import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { estimateCost } from '../../src/core/agent/cost.js';
import { runLoop, type LoopOptions } from '../../src/core/agent/loop.js';
import { SessionPermissionChecker } from '../../src/core/agent/permissions.js';
import { registerProfileModels } from '../../src/core/agent/provider-profiles.js';
import { OpenAICompatibleProvider } from '../../src/core/agent/providers/openai-compatible.js';
import type { ChatMessage, Usage } from '../../src/core/agent/providers/types.js';
import { builtinTools } from '../../src/core/agent/tools/index.js';
import { FakeOpenAI } from './fake-openai.js';
import { tempDir } from './helpers.js';

describe('OpenAI-compatible provider through the real openai package against a local fake server', () => {
  let fake: FakeOpenAI;
  let root: string;
  let cleanup: () => void;
  beforeAll(async () => {
    fake = await new FakeOpenAI().start();
    ({ dir: root, cleanup } = tempDir());
    registerProfileModels({
      local: { type: 'openai-compatible', baseURL: fake.url, maxTokensParam: 'max_tokens', models: { 'qwen3-coder': { contextWindow: 32768, maxOutput: 8192, price: { input: 1, output: 4 } }, free: {} } },
    });
  });
  afterAll(async () => {
    await fake.close();
    cleanup();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.requiredKey = undefined;
  });

  const provider = (over: Partial<ConstructorParameters<typeof OpenAICompatibleProvider>[0]> = {}) =>
    new OpenAICompatibleProvider({ profile: 'local', baseURL: fake.url, retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2000 }, ...over });

  const run = (prompt: string, over: Partial<LoopOptions> = {}) => {
    const text: string[] = [];
    const usages: Array<{ usage: Usage; unknown: boolean | undefined }> = [];
    const retries: Array<{ delayMs: number; reason: string }> = [];
    const messages: ChatMessage[] = [];
    const result = runLoop(prompt, {
      provider: provider(),
      model: 'local/qwen3-coder',
      system: 'S',
      tools: builtinTools(),
      maxIterations: 10,
      maxTokens: 1000,
      toolOutputMaxChars: 10_000,
      context: { cwd: root, projectRoot: root, role: 'solo', permissions: new SessionPermissionChecker('auto', { decide: async () => 'deny' }) },
      signal: new AbortController().signal,
      messages,
      events: { onText: (d) => text.push(d), onUsage: (usage, unknown) => usages.push({ usage, unknown }), onRetry: (r) => retries.push(r) },
      ...over,
    });
    return { result, text, usages, retries, messages };
  };

  it('streams text, sends the profile model without its prefix, no key when none is set, and prices usage from the table', async () => {
    fake.enqueue({ text: 'Hello from the local model.', usage: { prompt_tokens: 1000, completion_tokens: 200, cached_tokens: 400 } });
    const { result, text, usages } = run('hi');
    const r = await result;
    expect(r).toMatchObject({ stop: 'end_turn', text: 'Hello from the local model.' });
    expect(text.length).toBeGreaterThan(2);
    expect(text.join('')).toBe('Hello from the local model.');
    const req = fake.requests[0]!;
    expect(req.body).toMatchObject({ model: 'qwen3-coder', stream: true, stream_options: { include_usage: true }, max_tokens: 1000 });
    expect(req.body.messages.slice(0, 2)).toEqual([{ role: 'system', content: 'S' }, { role: 'user', content: 'hi' }]);
    expect(req.body.tools[0]).toMatchObject({ type: 'function', function: { name: expect.any(String), parameters: expect.any(Object) } });
    expect(req.headers.authorization).toBeUndefined();
    // Cached prompt tokens are cache reads; the rest is input.
    expect(usages).toEqual([{ usage: { inputTokens: 600, outputTokens: 200, cacheReadTokens: 400, cacheWriteTokens: 0 }, unknown: false }]);
    // 1000 prompt tokens at $1/M (cachedInput defaults to input) + 200 at $4/M.
    expect(estimateCost('local/qwen3-coder', usages[0]!.usage)).toBeCloseTo(0.0018, 9);
    // A model missing from the table, or one without a price: unknown, never a too-low number.
    expect(estimateCost('local/free', usages[0]!.usage)).toBeUndefined();
    expect(estimateCost('local/not-in-table', usages[0]!.usage)).toBeUndefined();
  });

  it('sends the key of apiKeyEnv as a bearer token; a 401 names the variable to check, in one line', async () => {
    fake.requiredKey = 'sk-right';
    fake.enqueue({ text: 'ok' });
    expect(await run('x', { provider: provider({ apiKey: 'sk-right', apiKeyEnv: 'LOCAL_API_KEY' }) }).result).toMatchObject({ stop: 'end_turn', text: 'ok' });
    const bad = await run('x', { provider: provider({ apiKey: 'sk-wrong', apiKeyEnv: 'LOCAL_API_KEY' }) }).result;
    expect(bad.stop).toBe('error');
    expect(bad.error).toBe(`authentication failed (401) at ${fake.url} (provider profile 'local'): check LOCAL_API_KEY — Incorrect API key provided`);
    expect(fake.requests).toHaveLength(2);
  });

  it('parallel tool calls split over chunks run through the same tools and go back as tool messages in order', async () => {
    fake.enqueue(
      {
        text: 'Writing two files.',
        toolCalls: [
          { id: 'call_a', name: 'Write', arguments: { path: 'a.txt', content: 'alpha\n' } },
          { id: 'call_b', name: 'Write', arguments: { path: 'b.txt', content: 'beta\n' } },
          { id: 'call_c', name: 'Read', arguments: { nonsense: true } },
        ],
      },
      { text: 'Both written.' },
    );
    const r = await run('write a and b').result;
    expect(r).toMatchObject({ stop: 'end_turn', text: 'Both written.', iterations: 2 });
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('alpha\n');
    expect(readFileSync(path.join(root, 'b.txt'), 'utf8')).toBe('beta\n');
    const second = fake.requests[1]!.body.messages as any[];
    expect(second[2]).toEqual({
      role: 'assistant',
      content: 'Writing two files.',
      tool_calls: [
        { id: 'call_a', type: 'function', function: { name: 'Write', arguments: JSON.stringify({ path: 'a.txt', content: 'alpha\n' }) } },
        { id: 'call_b', type: 'function', function: { name: 'Write', arguments: JSON.stringify({ path: 'b.txt', content: 'beta\n' }) } },
        { id: 'call_c', type: 'function', function: { name: 'Read', arguments: '{"nonsense":true}' } },
      ],
    });
    expect(second.slice(3).map((m) => [m.role, m.tool_call_id])).toEqual([['tool', 'call_a'], ['tool', 'call_b'], ['tool', 'call_c']]);
    // The input validation of the loop answered the bad call; the failure is marked for the model.
    expect(second[5].content).toMatch(/^\[tool error\] .*invalid input/i);
  });

  it('a permission denial goes back to the model as a failed tool result, and nothing is written', async () => {
    fake.enqueue({ toolCalls: [{ id: 'call_w', name: 'Write', arguments: { path: 'denied.txt', content: 'x' } }] }, { text: 'Understood.' });
    const permissions = new SessionPermissionChecker('ask', { decide: async () => 'deny' });
    const r = await run('write', { context: { cwd: root, projectRoot: root, role: 'solo', permissions } }).result;
    expect(r.text).toBe('Understood.');
    expect(existsSync(path.join(root, 'denied.txt'))).toBe(false);
    expect(fake.requests[1]!.body.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_w', content: expect.stringMatching(/^\[tool error\] .*denied/i) });
  });

  it('finish_reason length continues the turn like max_tokens; a tool call cut off by it is never run', async () => {
    fake.enqueue(
      { text: 'First half', finishReason: 'length' },
      { toolCalls: [{ id: 'call_cut', name: 'Write', arguments: '{"path":"cut.txt","content":"xx' }], finishReason: 'length' },
      { text: ' and the rest.' },
    );
    const r = await run('long').result;
    expect(r).toMatchObject({ stop: 'end_turn', text: ' and the rest.', iterations: 3 });
    expect(existsSync(path.join(root, 'cut.txt'))).toBe(false);
    expect(fake.requests[1]!.body.messages.at(-1).content).toMatch(/cut off at the output limit \(max_tokens 1000\)\. Continue/);
    expect(fake.requests[2]!.body.messages.at(-1).content).toMatch(/while writing the input of a Write call .*that call was not run/);
  });

  it('content_filter is a refusal; a stream that ends without a finish_reason is an error, not a complete answer', async () => {
    fake.enqueue({ text: 'I will not', finishReason: 'content_filter' });
    expect(await run('bad').result).toMatchObject({ stop: 'refusal', error: 'the model refused to continue (stop_reason: refusal)' });
    fake.enqueue({ text: 'cut', finishReason: null });
    const cut = await run('cut').result;
    expect(cut.stop).toBe('error');
    expect(cut.error).toMatch(/ended without a finish_reason/);
  });

  it('429 and 503 are retried, waiting at least the retry-after the server asked for; usage missing leaves the cost unknown', async () => {
    fake.enqueue({ kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after': '1' } }, { kind: 'error', status: 503, message: 'loading model' }, { text: 'done', noUsage: true });
    const { result, retries, usages } = run('x');
    expect(await result).toMatchObject({ stop: 'end_turn', text: 'done' });
    expect(retries).toHaveLength(2);
    expect(retries[0]!.delayMs).toBeGreaterThanOrEqual(1000);
    expect(retries[0]!.reason).toMatch(/^rate limited \(429\) at .*: slow down$/);
    expect(retries[1]!.reason).toMatch(/^API error 503 at .*: loading model$/);
    expect(usages[0]!.unknown).toBe(true);
    expect(usages[0]!.usage.outputTokens).toBeGreaterThan(0);
  });

  it('one-line errors: unknown model (404), a model that cannot call tools, an unreachable server', async () => {
    fake.enqueue({ kind: 'error', status: 404, message: 'model "qwen3-coder" not found, try pulling it first' });
    expect((await run('x').result).error).toBe(
      `unknown model 'qwen3-coder' at ${fake.url} (provider profile 'local') (404): check the model name and that baseURL ends in /v1 — model "qwen3-coder" not found, try pulling it first`,
    );
    fake.enqueue({ kind: 'error', status: 400, message: 'registry.ollama.ai/library/gemma:2b does not support tools' });
    expect((await run('x').result).error).toMatch(/^model 'qwen3-coder' cannot call tools \(.* said: .*does not support tools\): pick a model with tool calling$/);
    const dead = await run('x', { provider: provider({ baseURL: 'http://127.0.0.1:9/v1', retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 2 } }) }).result;
    expect(dead.error).toMatch(/^cannot reach http:\/\/127\.0\.0\.1:9\/v1 \(provider profile 'local'\): is the server running and is baseURL right\? \(.+\) \(gave up after 2 attempts\)$/);
    expect(dead.error).not.toMatch(/\n/);
  });

  it('a server that says the context is too long (400 or 413) ends the turn as context_exceeded, naming the session size, not as a plain API error', async () => {
    fake.enqueue({ kind: 'error', status: 400, message: "This model's maximum context length is 32768 tokens. However, you requested 40000 tokens." });
    const a = await run('x').result;
    expect(a.stop).toBe('context_exceeded');
    expect(a.error).toMatch(/^context window exceeded: this session is about [\d,]+ tokens \(1 messages\)/);
    fake.enqueue({ kind: 'error', status: 413, message: 'too many tokens in the request' });
    const b = await run('x').result;
    expect(b.stop).toBe('context_exceeded');
  });

  it('an error sent inside the stream is named as such and judged by its code; a cut before any output is retried; finish_reason error is no answer', async () => {
    fake.enqueue({ kind: 'stream-error', error: { message: 'model qwen9 not found', code: 404 } });
    const notFound = run('x');
    expect((await notFound.result).error).toMatch(/^unknown model 'qwen3-coder' at .* \(404\): .*model qwen9 not found \(sent inside the stream\)$/);
    expect(fake.requests).toHaveLength(1);
    fake.enqueue({ kind: 'stream-error', error: { message: 'Provider returned error' } });
    expect((await run('x').result).error).toBe(`${fake.url} (provider profile 'local') sent an error inside its stream: Provider returned error`);
    // Mid-answer, a retryable code is not retried either: the text was already shown.
    fake.enqueue({ kind: 'stream-error', text: 'Hello ', error: { message: 'upstream failed', code: 502 } });
    expect((await run('x').result).error).toMatch(/^API error 502 at .*: upstream failed \(sent inside the stream\)$/);
    fake.requests.length = 0;
    fake.enqueue({ kind: 'cut' }, { finishReason: null, noUsage: true }, { text: 'after two cuts' });
    const cut = run('x');
    expect(await cut.result).toMatchObject({ stop: 'end_turn', text: 'after two cuts' });
    fake.requests.length = 0;
    fake.enqueue({ kind: 'cut' }, { kind: 'cut' }, { kind: 'cut' });
    expect((await run('x').result).error).toMatch(/^the connection to .* failed: .* \(is the server still running\?\) \(gave up after 3 attempts\)$/);
    fake.enqueue({ text: 'partial', finishReason: 'error' });
    expect(await run('x').result).toMatchObject({ stop: 'error', error: `${fake.url} ended its answer with finish_reason "error": the answer is incomplete` });
  });
  it('abort mid-stream ends the turn as aborted (not an error), with no retry, also when no retry is left', async () => {
    fake.enqueue({ text: 'one two three four five six seven eight nine ten', chunkDelayMs: 100 });
    const ac = new AbortController();
    const noRetry = provider({ retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 } });
    const { result, messages } = run('count', { provider: noRetry, signal: ac.signal, events: { onText: () => ac.abort() } });
    const r = await result;
    expect(r.stop).toBe('aborted');
    expect(r.error ?? null).toBeNull();
    expect(fake.requests).toHaveLength(1);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});
