/**
 * A turn's overhead on each provider path, in-process against the local fakes: the same prompt and the same
 * reply (text, or one tool call then text) through the real @anthropic-ai/sdk and the real openai package.
 * What differs is the SDK, the request mapping and the stream parsing; the fakes answer at once.
 */
import { runLoop } from '../src/core/agent/loop.js';
import { SessionPermissionChecker } from '../src/core/agent/permissions.js';
import { AnthropicProvider } from '../src/core/agent/providers/anthropic.js';
import { OpenAICompatibleProvider } from '../src/core/agent/providers/openai-compatible.js';
import type { ChatMessage, Provider } from '../src/core/agent/providers/types.js';
import { builtinTools } from '../src/core/agent/tools/index.js';
import { FakeAnthropic } from '../test/agent/fake-anthropic.js';
import { FakeOpenAI } from '../test/agent/fake-openai.js';

const RUNS = 40;
const TEXT = 'The answer is in src/index.ts, where the server starts; nothing else needs to change.';

async function timeTurns(provider: Provider, model: string, cwd: string, enqueue: (tool: boolean) => void, tool: boolean): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    enqueue(tool);
    const messages: ChatMessage[] = [];
    const t0 = performance.now();
    const r = await runLoop('where does the server start?', {
      provider, model, system: 'You are a coding agent.', tools: builtinTools(), messages, maxIterations: 5, maxTokens: 1000, toolOutputMaxChars: 10_000,
      context: { cwd, projectRoot: cwd, role: 'solo', permissions: new SessionPermissionChecker('auto', { decide: async () => 'deny' }) },
      signal: new AbortController().signal,
    });
    if (r.stop !== 'end_turn') throw new Error(`bench turn ended ${r.stop}: ${r.error}`);
    // The first turns pay for loading the SDK and opening the connection.
    if (i >= 3) out.push(performance.now() - t0);
  }
  return out;
}

export async function providerTurnSamples(cwd: string): Promise<Record<string, number[]>> {
  const [anthropic, openai] = await Promise.all([new FakeAnthropic().start(), new FakeOpenAI().start()]);
  const retry = { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 };
  try {
    const a = new AnthropicProvider({ apiKey: 'k', baseURL: anthropic.url, retry });
    const o = new OpenAICompatibleProvider({ profile: 'local', baseURL: openai.url, retry });
    const enqA = (tool: boolean) => anthropic.enqueue(...(tool ? [{ toolUses: [{ name: 'Glob', input: { pattern: '*.md' } }] }] : []), { text: TEXT });
    const enqO = (tool: boolean) => openai.enqueue(...(tool ? [{ toolCalls: [{ name: 'Glob', arguments: { pattern: '*.md' } }] }] : []), { text: TEXT });
    return {
      anthropicText: await timeTurns(a, 'claude-sonnet-5-5', cwd, enqA, false),
      openaiText: await timeTurns(o, 'local/qwen3-coder', cwd, enqO, false),
      anthropicTool: await timeTurns(a, 'claude-sonnet-5-5', cwd, enqA, true),
      openaiTool: await timeTurns(o, 'local/qwen3-coder', cwd, enqO, true),
    };
  } finally {
    await Promise.all([anthropic.close(), openai.close()]);
  }
}
