import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runLoop, type LoopOptions } from '../../src/core/agent/loop.js';
import type { ChatMessage } from '../../src/core/agent/providers/types.js';
import { SessionStore, readSession } from '../../src/core/agent/sessions.js';
import type { Tool } from '../../src/core/agent/types.js';
import type { FakeAnthropic } from './fake-anthropic.js';
import { fakeLoopOptions, useFakeApiWorkspace } from './harness.js';


describe('today\'s Messages API shapes through the real SDK: thinking, stop reasons, truncation', () => {
  let fake: FakeAnthropic;
  let root: string;
  useFakeApiWorkspace({ each: (w) => ({ dir: root, fake } = w) });

  const run = (prompt: string, over: Partial<LoopOptions> = {}) => {
    const thinking: string[] = [];
    const messages: ChatMessage[] = over.messages ?? [];
    const result = runLoop(prompt, {
      ...fakeLoopOptions(fake, root),
      thinkingDisplay: 'summarized',
      ...over,
      events: { onThinking: (d) => thinking.push(d), ...over.events },
      messages,
    });
    return { result, thinking, messages };
  };

  const lastUser = (i: number) => (fake.requests[i]!.body.messages as ChatMessage[]).at(-1)!;

  it('keeps thinking and redacted thinking byte for byte, in the conversation and the session file, and sends them back', async () => {
    const odd = 'Hmm…  the file\tmight be \n\n  "quoted" — check ✓ ';
    fake.enqueue(
      {
        thinking: [{ thinking: odd, signature: 'EqQBCkYIBxgCKkD/sig+with/slashes==' }, { redacted: 'RW5jcnlwdGVkIGJsb2I=' }],
        text: 'Reading it.',
        toolUses: [{ id: 'toolu_1', name: 'Read', input: { path: 'missing.txt' } }],
      },
      { thinking: [{ thinking: 'Not there.', signature: 'sig2' }], text: 'It does not exist.' },
    );
    const store = SessionStore.create(root, { model: 'claude-sonnet-5-5', provider: 'anthropic', cwd: root });
    const { result, thinking, messages } = run('read missing.txt', { events: { onMessage: (m) => store.appendMessage(m) } });
    const r = await result;
    expect(r).toMatchObject({ stop: 'end_turn', text: 'It does not exist.' });
    expect(thinking.join('')).toBe(`${odd}Not there.`);
    const expected = [
      { type: 'thinking', thinking: odd, signature: 'EqQBCkYIBxgCKkD/sig+with/slashes==' },
      { type: 'redacted_thinking', data: 'RW5jcnlwdGVkIGJsb2I=' },
      { type: 'text', text: 'Reading it.' },
      { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'missing.txt' } },
    ];
    // The second request carries the first response unchanged, signature included.
    expect(fake.requests[1]!.body.messages[1]).toEqual({ role: 'assistant', content: expected });
    expect(messages[1]!.content).toEqual(expected);
    expect(readSession(store.file).messages[1]!.content).toEqual(expected);
    // Adaptive thinking for a 5.x model, never a manual budget or sampling parameters.
    const body = fake.requests[0]!.body;
    expect(body.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
    expect(body).not.toHaveProperty('temperature');
    expect(JSON.stringify(body)).not.toMatch(/budget_tokens/);
  });

  it('sends no thinking parameters to a model outside the adaptive set, and the effort only when set', async () => {
    fake.enqueue({ text: 'a' }, { text: 'b' });
    await run('x', { model: 'claude-haiku-4-5' }).result;
    expect(fake.requests[0]!.body).not.toHaveProperty('thinking');
    expect(fake.requests[0]!.body).not.toHaveProperty('output_config');
    await run('y', { effort: 'low' }).result;
    expect(fake.requests[1]!.body.output_config).toEqual({ effort: 'low' });
  });

  it('max_tokens mid-answer: continues the turn, and says so to the model', async () => {
    fake.enqueue({ text: 'The first half', stopReason: 'max_tokens' }, { text: ' and the rest.' });
    const r = await run('long answer').result;
    expect(r).toMatchObject({ stop: 'end_turn', text: ' and the rest.', iterations: 2 });
    const second = fake.requests[1]!.body.messages as ChatMessage[];
    expect(second.at(-2)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'The first half' }] });
    expect(second.at(-1)!.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/cut off at the output limit \(max_tokens 1000\)\. Continue/) });
  });

  it('max_tokens again and again: reports truncation after the bound', async () => {
    fake.enqueue(...Array.from({ length: 6 }, () => ({ text: 'more', stopReason: 'max_tokens' })));
    const r = await run('endless', { maxContinuations: 2 }).result;
    expect(r.stop).toBe('max_tokens');
    expect(r.error).toMatch(/^output truncated: the model reached max_tokens \(1000\) 3 times in a row/);
    expect(fake.requests).toHaveLength(3);
  });

  it('a tool_use cut off by max_tokens is never run and never reported as a validation error', async () => {
    fake.enqueue(
      { text: 'Writing the file.', toolUses: [{ id: 'toolu_cut', name: 'Write', input: { path: 'big.txt', content: 'x'.repeat(500) }, cutAt: 120 }], stopReason: 'max_tokens' },
      { text: 'I will write it in parts.' },
    );
    const r = await run('write big').result;
    expect(r).toMatchObject({ stop: 'end_turn', text: 'I will write it in parts.' });
    expect(existsSync(path.join(root, 'big.txt'))).toBe(false);
    const second = fake.requests[1]!.body.messages as ChatMessage[];
    expect(second.at(-2)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Writing the file.' }] });
    const note = JSON.stringify(second.at(-1));
    expect(note).toMatch(/while writing the input of a Write call \(120 characters so far\); that call was not run/);
    expect(note).not.toMatch(/invalid input|__invalid_json|tool_result/);
  });

  it('refusal is an error result that says so', async () => {
    fake.enqueue({ text: '', stopReason: 'refusal' });
    const { result, messages } = run('something bad');
    const r = await result;
    expect(r).toMatchObject({ stop: 'refusal', error: 'the model refused to continue (stop_reason: refusal)' });
    expect(messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: '[refused]' }], model: 'claude-sonnet-5-5' });
  });

  it('pause_turn: the paused response goes back as-is and the turn resumes', async () => {
    fake.enqueue({ thinking: [{ thinking: 'searching', signature: 's1' }], text: 'Still working', stopReason: 'pause_turn' }, { text: 'Finished.' });
    const r = await run('long task').result;
    expect(r).toMatchObject({ stop: 'end_turn', text: 'Finished.', iterations: 2 });
    const second = fake.requests[1]!.body.messages as ChatMessage[];
    expect(second).toHaveLength(2);
    expect(second[1]).toMatchObject({ role: 'assistant', content: [{ type: 'thinking', signature: 's1' }, { type: 'text', text: 'Still working' }] });
    // The history cache breakpoint goes on the text, never on a thinking block (the API rejects that).
    expect(second[1]!.content[0]).not.toHaveProperty('cache_control');
    fake.enqueue({ thinking: [{ thinking: 'only thinking', signature: 's2' }], stopReason: 'pause_turn' }, { text: 'Done.' });
    await run('again').result;
    expect(fake.requests[3]!.body.messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'thinking', thinking: 'only thinking', signature: 's2' }] });
  });

  it('context window exceeded (stop reason or a 400) is a clear error naming the session size', async () => {
    fake.enqueue({ text: 'partial', stopReason: 'model_context_window_exceeded', usage: { input_tokens: 999_000, output_tokens: 900 } });
    const a = await run('big').result;
    expect(a.stop).toBe('context_exceeded');
    expect(a.error).toMatch(/^context window exceeded: this session is about 999,900 tokens \(2 messages\), claude-sonnet-5-5 takes 1,000,000; start a new session/);
    fake.enqueue({ kind: 'error', status: 400, message: 'prompt is too long: 1000500 tokens > 1000000 maximum' });
    const b = await run('bigger').result;
    expect(b.stop).toBe('context_exceeded');
    // The size the API measured, not the local estimate of one short prompt.
    expect(b.error).toMatch(/^context window exceeded: this session is about 1,000,500 tokens \(1 messages\)/);
    expect(fake.requests).toHaveLength(2);
  });

  it('a tool boundary may append urgent text to the tool results message', async () => {
    fake.enqueue({ toolUses: [{ id: 'toolu_r', name: 'Glob', input: { pattern: '*' } }] }, { text: 'ok' });
    let calls = 0;
    await run('look', { onToolBoundary: async () => (++calls === 1 ? ['URGENT from lead: stop and report'] : undefined) }).result;
    expect(calls).toBe(1);
    expect(lastUser(1).content).toEqual([
      expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_r' }),
      expect.objectContaining({ type: 'text', text: 'URGENT from lead: stop and report' }),
    ]);
  });

  it('read-only tools of one turn run concurrently, results in request order; others stay sequential', async () => {
    // A waits for B to start: run one after the other, A would time out.
    let bStarted!: () => void;
    const started = new Promise<void>((f) => (bStarted = f));
    const tool = (name: string, readOnly: boolean, body: () => Promise<string>): Tool<{}> => ({
      name, description: name, inputSchema: z.object({}), needsPermission: false, readOnly, run: async () => ({ content: await body() }),
    });
    const waitB = () => Promise.race([started.then(() => 'A saw B running'), new Promise<string>((f) => setTimeout(() => f('A ran alone'), 5000))]);
    const tools = [tool('A', true, waitB), tool('B', true, async () => (bStarted(), 'B ran')), tool('W', false, waitB)];
    fake.enqueue({ toolUses: [{ name: 'A', input: {} }, { name: 'B', input: {} }] }, { text: 'done' });
    await run('both', { tools }).result;
    expect(lastUser(1).content.map((b) => (b as { content: string }).content)).toEqual(['A saw B running', 'B ran']);
  });

  it('abort ends the turn while the stream is stalled between tokens (the server would wait 60 s)', async () => {
    fake.enqueue({ thinking: [{ thinking: 'hmm', signature: 's' }], text: 'first second third', chunkDelayMs: 60_000 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    const { result, messages } = run('stall', { signal: ac.signal });
    const r = await result;
    expect(r.stop).toBe('aborted');
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  }, 10_000);


  it('thinking blocks go back only to the model that wrote them (after /model they are left out)', async () => {
    fake.enqueue({ thinking: [{ thinking: 'sonnet thoughts', signature: 'sig-s' }], text: 'first' }, { text: 'second' }, { text: 'third' });
    const { result, messages } = run('one');
    await result;
    expect(messages[1]).toMatchObject({ model: 'claude-sonnet-5-5' });
    await run('two', { messages, model: 'claude-opus-5-5' }).result;
    expect(fake.requests[1]!.body.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'first' }] });
    await run('three', { messages, model: 'claude-sonnet-5-5' }).result;
    expect(fake.requests[2]!.body.messages[1].content[0]).toEqual({ type: 'thinking', thinking: 'sonnet thoughts', signature: 'sig-s' });
    expect(JSON.stringify(fake.requests.map((r) => r.body.messages))).not.toMatch(/"model"/);
  });

});
