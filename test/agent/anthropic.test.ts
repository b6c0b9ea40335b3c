import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLoop } from '../../src/core/agent/loop.js';
import { SessionPermissionChecker } from '../../src/core/agent/permissions.js';
import { AnthropicProvider } from '../../src/core/agent/providers/anthropic.js';
import type { ChatMessage } from '../../src/core/agent/providers/types.js';
import { builtinTools } from '../../src/core/agent/tools/index.js';
import { FakeAnthropic } from './fake-anthropic.js';
import { useFakeApiWorkspace } from './harness.js';

const retry = { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5 };

describe('anthropic provider through the real SDK against a fake Messages API', () => {
  let fake: FakeAnthropic;
  let root: string;
  useFakeApiWorkspace({ each: (w) => ({ dir: root, fake } = w) });

  const provider = (over: Partial<ConstructorParameters<typeof AnthropicProvider>[0]> = {}) =>
    new AnthropicProvider({ apiKey: 'test-key', baseURL: fake.url, retry, ...over });

  const loop = (prompt: string, messages: ChatMessage[] = [], p = provider()) => {
    const streamed: string[] = [];
    const run = runLoop(prompt, {
      provider: p,
      model: 'claude-sonnet-4-6',
      system: 'SYSTEM',
      tools: builtinTools(),
      messages,
      maxIterations: 5,
      maxTokens: 1000,
      toolOutputMaxChars: 10_000,
      context: { cwd: root, projectRoot: root, role: 'solo', permissions: new SessionPermissionChecker('auto', { decide: async () => 'deny' }) },
      signal: new AbortController().signal,
      events: { onText: (d) => streamed.push(d) },
    });
    return { run, streamed };
  };

  it('streams text and records usage, with caching on system and tools and Bearer auth', async () => {
    fake.enqueue({ text: 'Hello there, friend.', usage: { input_tokens: 100, output_tokens: 7, cache_read_input_tokens: 50, cache_creation_input_tokens: 20 } });
    const { run, streamed } = loop('hi');
    const r = await run;
    expect(r.stop).toBe('end_turn');
    expect(r.text).toBe('Hello there, friend.');
    expect(streamed.length).toBeGreaterThan(1);
    expect(streamed.join('')).toBe('Hello there, friend.');
    expect(r.usage).toEqual({ inputTokens: 100, outputTokens: 7, cacheReadTokens: 50, cacheWriteTokens: 20 });
    const req = fake.requests[0]!;
    expect(req.headers.authorization).toBe('Bearer test-key');
    expect(req.body.stream).toBe(true);
    expect(req.body.system[0]).toMatchObject({ text: 'SYSTEM', cache_control: { type: 'ephemeral' } });
    expect(req.body.tools.map((t: { name: string }) => t.name)).toEqual(['Read', 'Write', 'Edit', 'Bash', 'BashOutput', 'KillShell', 'Glob', 'Grep']);
    expect(req.body.tools.at(-1).cache_control).toEqual({ type: 'ephemeral' });
    expect(req.body.tools[0].input_schema).toMatchObject({ type: 'object', required: ['file_path'] });
    expect(req.body.messages.at(-1).content.at(-1).cache_control).toEqual({ type: 'ephemeral' });
  });

  it("takes the final input and cache counts today's message_delta repeats (cumulative), not only message_start's", async () => {
    fake.enqueue({ text: 'ok', usage: { input_tokens: 100, output_tokens: 9, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }, deltaUsage: { input_tokens: 180, cache_read_input_tokens: 40, cache_creation_input_tokens: 12 } });
    const r = await loop('hi').run;
    expect(r.usage).toEqual({ inputTokens: 180, outputTokens: 9, cacheReadTokens: 40, cacheWriteTokens: 12 });
  });

  it('runs a multi-turn tool use: write a file, read it back, answer', async () => {
    fake.enqueue(
      { text: 'Writing.', toolUses: [{ name: 'Write', input: { path: 'out/hello.txt', content: 'hi from the model\n' } }] },
      { toolUses: [{ name: 'Read', input: { path: 'out/hello.txt' } }] },
      { text: 'Done: the file says hi.' },
    );
    const { run } = loop('make a file');
    const r = await run;
    expect(r.stop).toBe('end_turn');
    expect(r.iterations).toBe(3);
    expect(r.text).toBe('Done: the file says hi.');
    expect(readFileSync(path.join(root, 'out/hello.txt'), 'utf8')).toBe('hi from the model\n');
    // The second request carries the tool result of the first call; the third the Read output.
    const second = fake.requests[1]!.body.messages as ChatMessage[];
    expect(second.at(-1)!.content[0]).toMatchObject({ type: 'tool_result', content: expect.stringMatching(/wrote 18 bytes/) });
    // Only the newest block carries the history breakpoint; the stored transcript has none.
    expect(JSON.stringify(fake.requests[2]!.body.messages).match(/cache_control/g)).toHaveLength(1);
    const third = fake.requests[2]!.body.messages as ChatMessage[];
    expect(third.at(-1)!.content[0]).toMatchObject({ type: 'tool_result', content: '     1\thi from the model' });
  });

  it('a bad tool input goes back to the model as an error', async () => {
    fake.enqueue({ toolUses: [{ name: 'Edit', input: { path: 'x' } }] }, { text: 'sorry' });
    const r = await loop('edit').run;
    expect(r.stop).toBe('end_turn');
    const result = (fake.requests[1]!.body.messages as ChatMessage[]).at(-1)!.content[0];
    expect(result).toMatchObject({ type: 'tool_result', is_error: true, content: expect.stringMatching(/invalid input for Edit: "old_string"/) });
  });

  it('retries 429 and 529 with backoff, then succeeds', async () => {
    fake.enqueue(
      { kind: 'error', status: 429, headers: { 'retry-after-ms': '1' } },
      { kind: 'error', status: 529 },
      { kind: 'error', status: 500 },
      { text: 'finally' },
    );
    const retries: number[] = [];
    const p = provider();
    const r = await p.complete({
      model: 'm', system: 's', messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], tools: [], maxTokens: 10,
      signal: new AbortController().signal,
      onRetry: (i) => retries.push(i.attempt),
    });
    expect(r.content).toEqual([{ type: 'text', text: 'finally' }]);
    expect(retries).toEqual([1, 2, 3]);
    expect(fake.requests).toHaveLength(4);
  });

  it('gives up after the retry budget with a clear message', async () => {
    fake.enqueue(...Array.from({ length: 5 }, () => ({ kind: 'error' as const, status: 529, message: 'Overloaded' })));
    const r = await loop('x', [], provider({ retry: { ...retry, maxRetries: 2 } })).run;
    expect(r.stop).toBe('error');
    expect(r.error).toBe('API error 529: Overloaded (gave up after 3 attempts)');
    expect(fake.requests).toHaveLength(3);
  });

  it('a request the server never answers times out, is retried, then reported as a timeout in one line', async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const { port } = silent.address() as { port: number };
      const retries: string[] = [];
      const p = new AnthropicProvider({ apiKey: 'k', baseURL: `http://127.0.0.1:${port}`, timeoutMs: 300, retry: { ...retry, maxRetries: 1 } });
      const err = await p
        .complete({ model: 'm', system: 's', messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], tools: [], maxTokens: 1, signal: new AbortController().signal, onRetry: (i) => retries.push(i.reason) })
        .then(() => null, (e: Error) => e);
      expect(err?.message).toMatch(/^connection error: .*timed out.*\(gave up after 2 attempts\)$/i);
      expect(retries).toHaveLength(1);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('retries a refused connection, then reports it', async () => {
    const closed = new FakeAnthropic();
    await closed.start();
    const url = closed.url;
    await closed.close();
    const retries: number[] = [];
    const p = new AnthropicProvider({ apiKey: 'k', baseURL: url, retry: { ...retry, maxRetries: 1 } });
    await expect(
      p.complete({
        model: 'm', system: 's', messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], tools: [], maxTokens: 1,
        signal: new AbortController().signal, onRetry: (i) => retries.push(i.attempt),
      }),
    ).rejects.toThrow(/^connection error: .*\(gave up after 2 attempts\)$/);
    expect(retries).toEqual([1]);
  });

  it('an error event mid-stream: overloaded before any text is retried; after text or of another type it fails', async () => {
    fake.enqueue({ streamError: { type: 'overloaded_error', message: 'Overloaded' } }, { text: 'recovered' });
    const retried = await loop('x').run;
    expect(retried).toMatchObject({ stop: 'end_turn', text: 'recovered' });
    expect(fake.requests).toHaveLength(2);

    fake.enqueue({ text: 'half an answer', streamError: { type: 'overloaded_error', message: 'Overloaded' } });
    const { run, streamed } = loop('y');
    const afterText = await run;
    expect(streamed.join('')).toBe('half an answer');
    expect(afterText).toMatchObject({ stop: 'error', error: 'API error (overloaded_error): Overloaded' });
    expect(fake.requests).toHaveLength(3);

    fake.enqueue({ streamError: { type: 'invalid_request_error', message: 'messages: text content blocks must be non-empty' } });
    const invalid = await loop('z').run;
    expect(invalid).toMatchObject({ stop: 'error', error: 'API error (invalid_request_error): messages: text content blocks must be non-empty' });
    expect(fake.requests).toHaveLength(4);
  });

  it('does not retry 401 or 400 and says what to do', async () => {
    fake.enqueue({ kind: 'error', status: 401, message: 'invalid x-api-key' });
    const r401 = await loop('x').run;
    expect(r401.error).toBe('authentication failed (401): check ANTHROPIC_API_KEY — invalid x-api-key');
    fake.enqueue({ kind: 'error', status: 400, message: 'messages: roles must alternate' });
    const r400 = await loop('x').run;
    expect(r400.error).toBe('bad request (400): messages: roles must alternate');
    expect(fake.requests).toHaveLength(2);
  });

  it('abort mid-stream ends the turn as aborted and keeps the transcript valid', async () => {
    fake.enqueue({ text: 'one two three four five six seven eight nine ten', chunkDelayMs: 100 });
    const ac = new AbortController();
    const messages: ChatMessage[] = [];
    const p = runLoop('count', {
      provider: provider(), model: 'm', system: 's', tools: [], messages, maxIterations: 3, maxTokens: 10, toolOutputMaxChars: 100,
      context: { cwd: root, projectRoot: root, role: 'solo', permissions: new SessionPermissionChecker('auto', { decide: async () => 'deny' }) },
      signal: ac.signal,
      events: { onText: () => ac.abort() },
    });
    const r = await p;
    expect(r.stop).toBe('aborted');
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});
