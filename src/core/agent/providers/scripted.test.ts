import { describe, expect, it } from 'vitest';
import type { ChatMessage, CompletionRequest } from './types.js';
import { DEFAULT_SCRIPT, ScriptedProvider, parseScript } from './scripted.js';

const req = (messages: ChatMessage[], signal = new AbortController().signal): CompletionRequest => ({
  model: 'm', system: '', messages, tools: [], maxTokens: 1, signal,
});
const user = (text: string): ChatMessage => ({ role: 'user', content: [{ type: 'text', text }] });

describe('scripted provider', () => {
  const script = parseScript({
    rules: [
      { match: '/^deploy (\\w+)$/i', turns: [{ text: 'regex' }] },
      { match: 'Files', turns: [{ text: 'listing', tool_calls: [{ name: 'Glob', input: { pattern: '*' } }] }, { text: 'done' }] },
    ],
    fallback: [{ text: 'fallback' }],
  });

  it('matches substrings case-insensitively and regexes, else the fallback', async () => {
    const p = new ScriptedProvider(script);
    expect((await p.complete(req([user('Deploy prod')]))).content).toEqual([{ type: 'text', text: 'regex' }]);
    expect((await p.complete(req([user('list the files')]))).content[0]).toEqual({ type: 'text', text: 'listing' });
    expect((await p.complete(req([user('what?')]))).content).toEqual([{ type: 'text', text: 'fallback' }]);
  });

  it('plays turns in order after the prompt, from the transcript alone', async () => {
    const p = new ScriptedProvider(script);
    const first = await p.complete(req([user('files')]));
    expect(first.stopReason).toBe('tool_use');
    const call = first.content[1]!;
    expect(call).toMatchObject({ type: 'tool_use', name: 'Glob', input: { pattern: '*' } });
    const history: ChatMessage[] = [
      user('files'),
      { role: 'assistant', content: first.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: (call as { id: string }).id, content: 'a' }] },
    ];
    const second = await p.complete(req(history));
    expect(second.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(second.stopReason).toBe('end_turn');
  });

  it('rejects a malformed script with the path of the problem', () => {
    expect(() => parseScript({ rules: [{ turns: [{ text: 1 }] }] })).toThrow(/at "rules\.0\.turns\.0\.text"/);
    expect(() => parseScript({ rules: [] })).toThrow(/at "rules"/);
  });

  it('the embedded demo answers hello and shows a tool call', async () => {
    const p = new ScriptedProvider(DEFAULT_SCRIPT);
    expect(JSON.stringify((await p.complete(req([user('hello')]))).content)).toContain('Hello');
    expect((await p.complete(req([user('list files')]))).content.some((b) => b.type === 'tool_use')).toBe(true);
  });

  it('reports plausible usage: the conversation as input, the reply as output, the system prompt cached after the first call', async () => {
    const p = new ScriptedProvider(script);
    const withSystem = (m: ChatMessage[]) => ({ ...req(m), system: 'S'.repeat(4000) });
    const a = (await p.complete(withSystem([user('list the files please')]))).usage;
    expect(a.inputTokens).toBeGreaterThan(0);
    expect(a.outputTokens).toBeGreaterThan(0);
    expect(a).toMatchObject({ cacheWriteTokens: 1001, cacheReadTokens: 0 });
    const b = (await p.complete(withSystem([user('what?')]))).usage;
    expect(b).toMatchObject({ cacheWriteTokens: 0, cacheReadTokens: 1001 });
  });
});
