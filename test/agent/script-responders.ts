/**
 * The local fake servers answering from a scripted-provider script (the same rules the team tests and the demo
 * play): each request's conversation picks the rule and the turn, so several real processes can share one
 * fake server without queueing replies in a fixed order.
 */
import { parseScript, ScriptedProvider } from '../../src/core/agent/providers/scripted.js';
import type { ChatMessage } from '../../src/core/agent/providers/types.js';
import type { FakeReply } from './fake-anthropic.js';
import type { FakeOpenAIReply } from './fake-openai.js';

async function play(provider: ScriptedProvider, messages: ChatMessage[]) {
  const r = await provider.complete({ model: 'm', system: '', messages, tools: [], maxTokens: 1000, signal: new AbortController().signal });
  const text = r.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  const calls = r.content.flatMap((b) => (b.type === 'tool_use' ? [{ name: b.name, input: b.input }] : []));
  return { text, calls };
}

/** For FakeAnthropic.respond: its request messages are already blocks. */
export function anthropicResponder(script: unknown): (body: any) => Promise<FakeReply> {
  const provider = new ScriptedProvider(parseScript(script));
  return async (body) => {
    const { text, calls } = await play(provider, body.messages as ChatMessage[]);
    return { ...(text ? { text } : {}), toolUses: calls };
  };
}

/** For FakeOpenAI.respond: tool messages count as part of the user side, user strings as text prompts. */
export function openAIResponder(script: unknown): (body: any) => Promise<FakeOpenAIReply> {
  const provider = new ScriptedProvider(parseScript(script));
  return async (body) => {
    const messages: ChatMessage[] = (body.messages as Array<{ role: string; content: string | null }>)
      .filter((m) => m.role !== 'system')
      .map((m) =>
        m.role === 'assistant'
          ? { role: 'assistant' as const, content: [] }
          : m.role === 'user'
            ? { role: 'user' as const, content: [{ type: 'text' as const, text: m.content ?? '' }] }
            : { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: 'x', content: m.content ?? '' }] },
      );
    // Consecutive tool messages are one user turn of the loop: fold them so the turn count matches.
    const folded = messages.filter((m, i) => !(m.content[0]?.type === 'tool_result' && messages[i - 1]?.content[0]?.type === 'tool_result'));
    const { text, calls } = await play(provider, folded);
    return { ...(text ? { text } : {}), toolCalls: calls.map((c) => ({ name: c.name, arguments: c.input })) };
  };
}
