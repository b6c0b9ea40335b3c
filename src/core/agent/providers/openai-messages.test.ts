import { describe, expect, it } from 'vitest';
import { ChunkAccumulator, toOpenAIMessages, usageOf } from './openai-messages.js';
import { emptyUsage } from './types.js';

const png = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'AAAA' } };

describe('toOpenAIMessages: images and documents', () => {
  it('a user message with an image becomes content parts with a data URL', () => {
    const out = toOpenAIMessages('sys', [{ role: 'user', content: [{ type: 'text', text: 'what is this?' }, png] }]);
    expect(out[1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      ],
    });
  });

  it("a tool result's image follows the tool message in a user message; the tool message keeps the text", () => {
    const out = toOpenAIMessages('sys', [
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/a.png' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'a.png' }, png] }] },
    ]);
    expect(out.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 't1', content: 'a.png' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
    ]);
  });

  it('a PDF is named as left out, never dropped silently; plain text stays one string', () => {
    const out = toOpenAIMessages('sys', [
      { role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' } }] },
      { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
    ]);
    expect(out[1]).toEqual({ role: 'user', content: '[a PDF document was left out: this provider takes no documents]' });
    expect(out[2]).toEqual({ role: 'user', content: 'a\n\nb' });
  });
});

const chunk = (delta: unknown, finish: string | null = null) => ({ choices: [{ index: 0, delta, finish_reason: finish }] });
const call = (index: number, id: string | undefined, name: string | undefined, args: unknown) => ({ index, ...(id !== undefined ? { id } : {}), type: 'function', function: { ...(name !== undefined ? { name } : {}), arguments: args } });
const accumulate = (...chunks: unknown[]) => {
  const acc = new ChunkAccumulator();
  for (const c of chunks) acc.add(c);
  return acc.result(emptyUsage());
};

describe('ChunkAccumulator: the shapes servers really stream', () => {
  it('parallel calls all at index 0, each with its own id, stay two calls', () => {
    const r = accumulate(
      chunk({ tool_calls: [call(0, 'call_a', 'Read', '{"file_path":')] }),
      chunk({ tool_calls: [call(0, undefined, undefined, '"a"}')] }),
      chunk({ tool_calls: [call(0, 'call_b', 'Read', '{"file_path":"b"}')] }),
      chunk({}, 'tool_calls'),
    );
    expect(r.content).toEqual([
      { type: 'tool_use', id: 'call_a', name: 'Read', input: { file_path: 'a' } },
      { type: 'tool_use', id: 'call_b', name: 'Read', input: { file_path: 'b' } },
    ]);
    expect(r.stopReason).toBe('tool_use');
  });

  it('a repeated id gets its own; arguments sent as an object are that object; a legacy function_call is a call', () => {
    const dup = accumulate(chunk({ tool_calls: [call(0, 'dup', 'Read', '{"file_path":"a"}'), call(1, 'dup', 'Read', '{"file_path":"b"}')] }), chunk({}, 'tool_calls'));
    expect(dup.content.map((b) => (b.type === 'tool_use' ? b.id : ''))).toEqual(['dup', 'dup_1']);
    const obj = accumulate(chunk({ tool_calls: [call(0, 'c0', 'Write', { file_path: 'x', content: 'y' })] }), chunk({}, 'tool_calls'));
    expect(obj.content).toEqual([{ type: 'tool_use', id: 'c0', name: 'Write', input: { file_path: 'x', content: 'y' } }]);
    const legacy = accumulate(chunk({ function_call: { name: 'Read', arguments: '{"file_path":' } }), chunk({ function_call: { arguments: '"a"}' } }), chunk({}, 'function_call'));
    expect(legacy.content).toEqual([{ type: 'tool_use', id: 'call_0', name: 'Read', input: { file_path: 'a' } }]);
  });

  it('a count that is not a plausible whole number makes the usage unknown, never a huge or wrong spend', () => {
    expect(usageOf({ prompt_tokens: 1e300, completion_tokens: 5 })).toBeUndefined();
    expect(usageOf({ prompt_tokens: -3, completion_tokens: 5 })).toBeUndefined();
    expect(usageOf({ prompt_tokens: 10.5, completion_tokens: 5 })).toBeUndefined();
    expect(usageOf({ prompt_tokens: 10, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 4 } })).toEqual({ inputTokens: 6, outputTokens: 5, cacheReadTokens: 4, cacheWriteTokens: 0 });
  });
});
