/**
 * Deterministic provider: plays a JSON script of assistant turns (docs/scripted-provider.md).
 * Stateless across calls: the position in a rule's turns is the number of assistant messages since the
 * last person prompt, so a resumed session continues correctly.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { ChatMessage, CompletionRequest, CompletionResponse, Provider, TextBlock, ToolUseBlock, Usage } from './types.js';
import { sleep } from './retry.js';
import { AbortedError, ProviderError, emptyUsage } from './types.js';

const ToolCallSchema = z.object({
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()).default({}),
});

const TurnSchema = z
  .object({
    text: z.string().optional(),
    tool_calls: z.array(ToolCallSchema).optional(),
    /** Pause between streamed chunks, to make streaming and Ctrl-C observable. */
    delay_ms: z.number().int().min(0).max(60_000).optional(),
    /** Fail this call with a message (tests of the error path). */
    error: z.string().optional(),
  })
  .strict();

const RuleSchema = z
  .object({
    /** Case-insensitive substring of the prompt, or `/regex/flags`; absent matches every prompt. */
    match: z.string().optional(),
    turns: z.array(TurnSchema).min(1),
  })
  .strict();

export const ScriptSchema = z
  .object({
    rules: z.array(RuleSchema).min(1),
    /** Turns played when no rule matches. */
    fallback: z.array(TurnSchema).optional(),
  })
  .strict();

export type Script = z.infer<typeof ScriptSchema>;
type Turn = z.infer<typeof TurnSchema>;

/** The demo script used by `--provider scripted` without `--script`. */
export const DEFAULT_SCRIPT: Script = {
  rules: [
    {
      match: 'hello',
      turns: [{ text: 'Hello! I am thclaws running the scripted provider. Ask me to "list files" to see a tool call.' }],
    },
    {
      match: 'list files',
      turns: [
        { text: 'Let me list the files here.', tool_calls: [{ name: 'Bash', input: { command: 'ls' } }] },
        { text: 'That is what is in this directory.' },
      ],
    },
  ],
  fallback: [{ text: 'This is the scripted demo provider: try "hello" or "list files". Set ANTHROPIC_API_KEY for a real model.' }],
};

export function parseScript(json: unknown, source = 'script'): Script {
  const res = ScriptSchema.safeParse(json);
  if (!res.success) {
    const issue = res.error.issues[0]!;
    throw new ProviderError(`invalid ${source}: at "${issue.path.join('.') || '(root)'}": ${issue.message}`);
  }
  return res.data;
}

export function loadScriptFile(file: string): Script {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ProviderError(`cannot read script ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ProviderError(`invalid script ${file}: ${(err as Error).message}`);
  }
  return parseScript(json, `script ${file}`);
}

function matches(pattern: string | undefined, prompt: string): boolean {
  if (pattern === undefined) return true;
  const re = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  if (re) return new RegExp(re[1]!, re[2]).test(prompt);
  return prompt.toLowerCase().includes(pattern.toLowerCase());
}

/** The last person prompt and how many assistant turns followed it. */
function position(messages: ChatMessage[]): { prompt: string; played: number } {
  let played = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'assistant') played++;
    else if (m.content.some((b) => b.type === 'text')) {
      const prompt = m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
      return { prompt, played };
    }
  }
  return { prompt: '', played };
}

function chunks(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** The retry module's abortable sleep, with the provider's own abort error. */
async function wait(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, signal).catch(() => {
    throw new AbortedError();
  });
}

export class ScriptedProvider implements Provider {
  readonly name = 'scripted' as const;
  private callCount = 0;
  private calls = 0;
  /** Tool ids must stay unique across resumed sessions too. */
  private readonly idPrefix = randomBytes(4).toString('hex');

  constructor(private readonly script: Script) {}

  async complete(req: CompletionRequest): Promise<CompletionResponse> {
    if (req.signal.aborted) throw new AbortedError();
    const { prompt, played } = position(req.messages);
    const rule = this.script.rules.find((r) => matches(r.match, prompt));
    const turns: Turn[] = rule?.turns ?? this.script.fallback ?? [{ text: '(no scripted answer for this prompt)' }];
    const turn: Turn = turns[played] ?? { text: '(script ended)' };
    if (turn.error) throw new ProviderError(turn.error);
    const content: Array<TextBlock | ToolUseBlock> = [];
    if (turn.text) {
      for (const c of chunks(turn.text)) {
        if (turn.delay_ms) await wait(turn.delay_ms, req.signal);
        if (req.signal.aborted) throw new AbortedError();
        req.onText?.(c);
      }
      content.push({ type: 'text', text: turn.text });
    }
    for (const call of turn.tool_calls ?? []) {
      content.push({ type: 'tool_use', id: `toolu_scripted_${this.idPrefix}_${++this.callCount}`, name: call.name, input: call.input });
    }
    return { content, stopReason: turn.tool_calls?.length ? 'tool_use' : 'end_turn', usage: scriptedUsage(req, content, this.calls++ === 0) };
  }
}

/**
 * Plausible figures (about 4 characters a token) so dashboards and summaries show what a real run would:
 * system prompt and tools written to the cache on the first call and read from it after, the conversation as
 * input, the reply as output.
 */
function scriptedUsage(req: CompletionRequest, content: Array<TextBlock | ToolUseBlock>, first: boolean): Usage {
  const t = (chars: number) => Math.ceil(chars / 4);
  const prefix = t(req.system.length + JSON.stringify(req.tools).length);
  const usage = emptyUsage();
  usage.inputTokens = t(JSON.stringify(req.messages).length);
  usage.outputTokens = t(JSON.stringify(content).length);
  if (first) usage.cacheWriteTokens = prefix;
  else usage.cacheReadTokens = prefix;
  return usage;
}
