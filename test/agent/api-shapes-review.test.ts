/**
 * Today's response shapes the first tests did not stream: thinking interleaved with tool calls across
 * several tool loops, thinking cut off by max_tokens before its signature, empty thinking, unknown block
 * types, pause_turn again and again. Real SDK against the fake server.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLoop, type LoopOptions } from '../../src/core/agent/loop.js';
import { SessionPermissionChecker } from '../../src/core/agent/permissions.js';
import { AnthropicProvider } from '../../src/core/agent/providers/anthropic.js';
import type { ChatMessage } from '../../src/core/agent/providers/types.js';
import { FakeAnthropic } from './fake-anthropic.js';
import { fakeLoopOptions, useFakeApiWorkspace } from './harness.js';
import { tempDir } from './helpers.js';

const retry = { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 };

describe('thinking across tool loops and cut-off shapes (real SDK, fake server)', () => {
  let fake: FakeAnthropic;
  let root: string;
  useFakeApiWorkspace({
    each: (w) => {
      ({ dir: root, fake } = w);
      writeFileSync(path.join(root, 'a.txt'), 'alpha\n');
    },
  });

  const run = (prompt: string, over: Partial<LoopOptions> = {}) => {
    const messages: ChatMessage[] = over.messages ?? [];
    const result = runLoop(prompt, {
      ...fakeLoopOptions(fake, root),
      ...over,
      messages,
    });
    return { result, messages };
  };

  /** Assistant messages of a request, without the cache breakpoint the client adds to the last block. */
  const assistantsOf = (i: number) =>
    (fake.requests[i]!.body.messages as ChatMessage[])
      .filter((m) => m.role === 'assistant')
      .map((m) => m.content.map(({ cache_control: _c, ...b }: any) => b));

  it('thinking and redacted thinking interleaved with tool calls: every request carries every earlier block, in order', async () => {
    const r1 = [
      { type: 'thinking', thinking: 'First I read.', signature: 'sigA==' },
      { type: 'tool_use', id: 't1', name: 'Read', input: { path: 'a.txt' } },
      { type: 'redacted_thinking', data: 'UkVEQUNURUQx' },
      { type: 'thinking', thinking: '', signature: 'sigEmpty' },
      { type: 'tool_use', id: 't2', name: 'Glob', input: { pattern: '*.txt' } },
    ];
    const r2 = [
      { type: 'thinking', thinking: 'Now grep. ✓\n', signature: 'sigB/+' },
      { type: 'tool_use', id: 't3', name: 'Grep', input: { pattern: 'alpha' } },
    ];
    const r3 = [
      { type: 'redacted_thinking', data: 'UkVEQUNURUQy' },
      { type: 'tool_use', id: 't4', name: 'Read', input: { path: 'a.txt' } },
    ];
    const toBlocks = (bs: any[]) =>
      bs.map((b) =>
        b.type === 'thinking'
          ? { thinking: b.thinking, signature: b.signature }
          : b.type === 'redacted_thinking'
            ? { redacted: b.data }
            : { toolUse: { id: b.id, name: b.name, input: b.input } },
      );
    fake.enqueue({ blocks: toBlocks(r1) }, { blocks: toBlocks(r2) }, { blocks: toBlocks(r3) }, { blocks: [{ thinking: 'done', signature: 'z' }, { text: 'Done.' }] });
    const r = await run('look around').result;
    expect(r).toMatchObject({ stop: 'end_turn', text: 'Done.' });
    expect(fake.requests).toHaveLength(4);
    expect(assistantsOf(1)).toEqual([r1]);
    expect(assistantsOf(2)).toEqual([r1, r2]);
    expect(assistantsOf(3)).toEqual([r1, r2, r3]);
  });

  it('max_tokens inside a thinking block: the unsigned thinking is never sent back, the turn continues', async () => {
    fake.enqueue(
      { blocks: [{ thinking: 'Whole thought.', signature: 'sig1' }, { text: 'Part one' }, { thinking: 'half a thou' }], stopReason: 'max_tokens' },
      { blocks: [{ thinking: 'again, cut' }], stopReason: 'max_tokens' },
      { blocks: [{ thinking: 'ok', signature: 'sig3' }, { text: 'Answer.' }] },
    );
    const { result, messages } = run('think hard');
    const r = await result;
    expect(r).toMatchObject({ stop: 'end_turn', text: 'Answer.' });
    expect(fake.requests).toHaveLength(3);
    for (const req of fake.requests) {
      for (const m of req.body.messages as ChatMessage[]) {
        for (const b of m.content) if (b.type === 'thinking') expect(b.signature).not.toBe('');
      }
    }
    // The signed thinking before the cut stays, byte for byte.
    expect(assistantsOf(1)[0]).toEqual([
      { type: 'thinking', thinking: 'Whole thought.', signature: 'sig1' },
      { type: 'text', text: 'Part one' },
    ]);
    for (const m of messages) for (const b of m.content) if (b.type === 'thinking') expect(b.signature).not.toBe('');
  });

  it('an unknown content block type neither crashes the turn nor reaches the next request half-understood', async () => {
    fake.enqueue(
      { blocks: [{ raw: { type: 'future_block', payload: { x: 1 } } }, { thinking: 't', signature: 's' }, { toolUse: { id: 'u1', name: 'Read', input: { path: 'a.txt' } } }] },
      { blocks: [{ text: 'Read it.' }] },
    );
    const r = await run('read').result;
    expect(r).toMatchObject({ stop: 'end_turn', text: 'Read it.' });
    expect(assistantsOf(1)).toEqual([
      [
        { type: 'thinking', thinking: 't', signature: 's' },
        { type: 'tool_use', id: 'u1', name: 'Read', input: { path: 'a.txt' } },
      ],
    ]);
  });

  it('pause_turn several times in a row: each paused response goes back, in order, and the turn ends', async () => {
    fake.enqueue(
      { blocks: [{ thinking: 'p1', signature: 's1' }, { text: 'one' }], stopReason: 'pause_turn' },
      { blocks: [{ redacted: 'UjI=' }], stopReason: 'pause_turn' },
      { blocks: [{ thinking: 'p3', signature: 's3' }, { text: 'three' }], stopReason: 'pause_turn' },
      { blocks: [{ text: 'Finished.' }] },
    );
    const r = await run('long').result;
    expect(r).toMatchObject({ stop: 'end_turn', text: 'Finished.', iterations: 4 });
    expect(assistantsOf(3)).toEqual([
      [{ type: 'thinking', thinking: 'p1', signature: 's1' }, { type: 'text', text: 'one' }],
      [{ type: 'redacted_thinking', data: 'UjI=' }],
      [{ type: 'thinking', thinking: 'p3', signature: 's3' }, { type: 'text', text: 'three' }],
    ]);
  });
});

describe('a 400 "prompt is too long" names the size the API measured', () => {
  it('takes the API\'s token count over the local estimate', async () => {
    const fake = await new FakeAnthropic().start();
    const { dir, cleanup } = tempDir();
    try {
      fake.enqueue({ kind: 'error', status: 400, message: 'prompt is too long: 250000 tokens > 200000 maximum' });
      const r = await runLoop('hi', {
        provider: new AnthropicProvider({ apiKey: 'k', baseURL: fake.url, retry }),
        model: 'claude-sonnet-5-5',
        system: 'S',
        tools: [],
        messages: [],
        maxIterations: 3,
        maxTokens: 1000,
        toolOutputMaxChars: 10_000,
        context: { cwd: dir, projectRoot: dir, role: 'solo', permissions: new SessionPermissionChecker('auto', { decide: async () => 'deny' }) },
        signal: new AbortController().signal,
      });
      expect(r.stop).toBe('context_exceeded');
      expect(r.error).toMatch(/^context window exceeded: this session is about 250,000 tokens \(1 messages\)/);
    } finally {
      await fake.close();
      cleanup();
    }
  });
});

describe('429/529 with retry-after (real SDK, fake server)', () => {
  it('waits what the server asks (seconds or ms), capped by maxDelayMs', async () => {
    const fake = await new FakeAnthropic().start();
    try {
      fake.enqueue(
        { kind: 'error', status: 429, headers: { 'retry-after': '1' } },
        { kind: 'error', status: 529, headers: { 'retry-after-ms': '700' } },
        { kind: 'error', status: 529, headers: { 'retry-after': '3600' } },
        { text: 'ok' },
      );
      const delays: number[] = [];
      const p = new AnthropicProvider({ apiKey: 'k', baseURL: fake.url, retry: { maxRetries: 5, baseDelayMs: 1, maxDelayMs: 1500 } });
      const r = await p.complete({
        model: 'm', system: 's', messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], tools: [], maxTokens: 10,
        signal: new AbortController().signal,
        onRetry: (i) => delays.push(i.delayMs),
      });
      expect(r.content).toEqual([{ type: 'text', text: 'ok' }]);
      // The backoff alone would be a millisecond or two: these are the server's values.
      expect(delays).toEqual([1000, 700, 1500]);
    } finally {
      await fake.close();
    }
  });
});
