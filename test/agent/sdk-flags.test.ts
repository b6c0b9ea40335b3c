/**
 * The Agent SDK's options that become Claude Code flags — persistSession, thinking, maxBudgetUsd,
 * fallbackModel, outputFormat (JSON schema), additionalDirectories — driven through the real SDK against the
 * fake Messages API: what the model request carried, and what the SDK's messages say.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { query, type Options, type SDKMessage, type SDKResultMessage, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { StreamJsonLine } from '../../src/core/agent/output-schema.js';
import type { FakeAnthropic } from './fake-anthropic.js';
import { useFakeApiWorkspace } from './harness.js';
import { sdkOptions } from './sdk-harness.js';
import { tempDir } from './helpers.js';

describe('Agent SDK options that are Claude Code flags (real SDK, real process, fake API)', () => {
  let dir: string;
  let fake: FakeAnthropic;
  let stderr = '';
  useFakeApiWorkspace({
    cli: true,
    each: (w) => {
      ({ dir, fake } = w);
      stderr = '';
    },
  });

  const options = (extra: Options = {}): Options => sdkOptions(dir, fake.url, (s) => (stderr += s), extra);

  /** Every message, each checked against our runtime schema of Claude Code's lines. */
  async function run(prompt: string, extra: Options = {}): Promise<{ msgs: SDKMessage[]; result: SDKResultMessage }> {
    const msgs: SDKMessage[] = [];
    for await (const m of query({ prompt, options: options(extra) })) msgs.push(m);
    for (const m of msgs) StreamJsonLine.parse(m);
    const result = msgs.at(-1) as SDKResultMessage;
    expect(result.type).toBe('result');
    return { msgs, result };
  }

  it('persistSession: false writes no transcript; resuming that session fails with one clear line', async () => {
    fake.enqueue({ text: 'not kept' });
    const { result } = await run('hi', { persistSession: false });
    expect(result.subtype).toBe('success');
    const sessions = path.join(dir, '.thclaws/sessions');
    expect(existsSync(sessions) ? readdirSync(sessions) : []).toEqual([]);
    const resumed = run('again', { resume: result.session_id });
    await expect(resumed).rejects.toThrow();
    expect(stderr).toMatch(new RegExp(`thclaws: no session "${result.session_id}" .*never saved`));
    expect(fake.requests).toHaveLength(1);
  });

  it('maxThinkingTokens: budget_tokens on a manual-budget model, the thinking block emitted on its own; setMaxThinkingTokens(0) turns it off', async () => {
    fake.enqueue({ thinking: [{ thinking: 'let me think', signature: 'sig-1' }], text: 'thought' }, { text: 'plain' });
    let firstDone!: () => void;
    const first = new Promise<void>((r) => (firstDone = r));
    async function* input(): AsyncGenerator<SDKUserMessage> {
      yield { type: 'user', message: { role: 'user', content: 'one' }, parent_tool_use_id: null, session_id: '' };
      await first;
      yield { type: 'user', message: { role: 'user', content: 'two' }, parent_tool_use_id: null, session_id: '' };
    }
    const q = query({ prompt: input(), options: options({ model: 'claude-sonnet-4-5', maxThinkingTokens: 5000 }) });
    const msgs: SDKMessage[] = [];
    for await (const m of q) {
      msgs.push(m);
      if (m.type === 'result' && msgs.filter((x) => x.type === 'result').length === 1) {
        await q.setMaxThinkingTokens(0);
        firstDone();
      }
    }
    for (const m of msgs) StreamJsonLine.parse(m);
    expect(fake.requests[0]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 5000, display: 'summarized' });
    expect(fake.requests[1]!.body.thinking).toEqual({ type: 'disabled' });
    const blocks = msgs.flatMap((m) => (m.type === 'assistant' ? [m.message.content] : []));
    expect(blocks[0]).toEqual([{ type: 'thinking', thinking: 'let me think', signature: 'sig-1' }]);
    expect(blocks[1]).toMatchObject([{ type: 'text', text: 'thought' }]);
    // The thinking block goes back to the model with the conversation, as it was streamed.
    expect(fake.requests[1]!.body.messages[1].content[0]).toEqual({ type: 'thinking', thinking: 'let me think', signature: 'sig-1' });
  });

  it('setMaxThinkingTokens(null) puts back the budget the session started with; a number sets a budget', async () => {
    fake.enqueue({ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd' });
    // Before each later turn: off, back to the start (5000), then a budget of its own.
    const changes: Array<number | null> = [0, null, 2000];
    let turnDone!: () => void;
    async function* input(): AsyncGenerator<SDKUserMessage> {
      for (const content of ['one', 'two', 'three', 'four']) {
        yield { type: 'user', message: { role: 'user', content }, parent_tool_use_id: null, session_id: '' };
        await new Promise<void>((r) => (turnDone = r));
      }
    }
    const q = query({ prompt: input(), options: options({ model: 'claude-sonnet-4-5', maxThinkingTokens: 5000 }) });
    const results: SDKMessage[] = [];
    for await (const m of q) {
      if (m.type !== 'result') continue;
      results.push(m);
      const next = changes.shift();
      if (next !== undefined) await q.setMaxThinkingTokens(next);
      turnDone();
    }
    expect(results.map((r) => (r as SDKResultMessage).subtype)).toEqual(['success', 'success', 'success', 'success']);
    expect(fake.requests.map((r) => r.body.thinking)).toEqual([
      { type: 'enabled', budget_tokens: 5000, display: 'summarized' },
      { type: 'disabled' },
      { type: 'enabled', budget_tokens: 5000, display: 'summarized' },
      { type: 'enabled', budget_tokens: 2000, display: 'summarized' },
    ]);
  });

  it('maxBudgetUsd: the tool calls of the response that spent it still run, then no model call starts (error_max_budget_usd); an unpriced model is refused', async () => {
    // claude-sonnet-4-5 at $3/$15 per MTok: 1000 in + 100 out = $0.0045, over a $0.001 budget.
    fake.enqueue({ toolUses: [{ name: 'Write', input: { file_path: 'a.txt', content: 'ran' } }], usage: { input_tokens: 1000, output_tokens: 100 } }, { text: 'never asked' });
    const { result } = await run('write', { model: 'claude-sonnet-4-5', maxBudgetUsd: 0.001, permissionMode: 'acceptEdits' });
    expect(result).toMatchObject({ subtype: 'error_max_budget_usd', is_error: true, terminal_reason: 'budget_exhausted', errors: ['Reached maximum budget ($0.001)'] });
    expect(result.total_cost_usd).toBeCloseTo(0.0045, 6);
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('ran');
    expect(fake.requests).toHaveLength(1);
    await expect(run('hi', { model: 'no-price-model', maxBudgetUsd: 1 })).rejects.toThrow();
    expect(stderr).toMatch(/^thclaws: --max-budget-usd: no-price-model has no known price/m);
    expect(fake.requests).toHaveLength(1);
  });

  it('fallbackModel: overloaded (529, after the retries), unavailable (503, at once) or not found (404) moves the turn to the fallback; each turn starts on the main model', async () => {
    mkdirSync(path.join(dir, '.config/thclaws'), { recursive: true });
    writeFileSync(path.join(dir, '.config/thclaws/settings.json'), JSON.stringify({ retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 5 } }));
    fake.enqueue(
      { kind: 'error', status: 529 },
      { kind: 'error', status: 529 },
      { text: 'a' },
      { kind: 'error', status: 404, type: 'not_found_error', message: 'model: claude-sonnet-4-5' },
      { text: 'b' },
      { kind: 'error', status: 503 },
      { text: 'c' },
    );
    async function* input(): AsyncGenerator<SDKUserMessage> {
      for (const content of ['one', 'two', 'three']) yield { type: 'user', message: { role: 'user', content }, parent_tool_use_id: null, session_id: '' };
    }
    const msgs: SDKMessage[] = [];
    const env = { ...(options().env as Record<string, string>), XDG_CONFIG_HOME: path.join(dir, '.config') };
    for await (const m of query({ prompt: input(), options: options({ model: 'claude-sonnet-4-5', fallbackModel: 'claude-haiku-4-5', env }) })) msgs.push(m);
    for (const m of msgs) StreamJsonLine.parse(m);
    expect(fake.requests.map((r) => r.body.model)).toEqual(['claude-sonnet-4-5', 'claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-sonnet-4-5', 'claude-haiku-4-5']);
    const fallbacks = msgs.filter((m) => m.type === 'system' && (m as { subtype: string }).subtype === 'model_fallback');
    expect(fallbacks.map((m) => (m as unknown as { trigger: string }).trigger)).toEqual(['overloaded', 'model_not_found', 'server_error']);
    expect(fallbacks[0]).toMatchObject({ original_model: 'claude-sonnet-4-5', fallback_model: 'claude-haiku-4-5' });
    const results = msgs.filter((m): m is SDKResultMessage => m.type === 'result');
    expect(results.map((r) => [r.subtype, (r as { result: string }).result])).toEqual([['success', 'a'], ['success', 'b'], ['success', 'c']]);
    expect(Object.keys(results[0]!.modelUsage)).toEqual(['claude-haiku-4-5']);
    expect(msgs.filter((m) => m.type === 'assistant').map((m) => (m as { message: { model: string } }).message.model)).toEqual(['claude-haiku-4-5', 'claude-haiku-4-5', 'claude-haiku-4-5']);
  });

  it('outputFormat json_schema: an invalid answer gets the schema errors back, a valid one ends the turn as structured_output; no valid answer after 5 attempts fails', async () => {
    const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    fake.enqueue({ toolUses: [{ name: 'StructuredOutput', input: { n: 'x' } }] }, { toolUses: [{ name: 'StructuredOutput', input: { n: 3 } }] });
    const { result } = await run('count', { outputFormat: { type: 'json_schema', schema } });
    expect(result).toMatchObject({ subtype: 'success', structured_output: { n: 3 }, result: '{"n":3}' });
    const offered = (fake.requests[0]!.body.tools as { name: string; input_schema: unknown }[]).find((t) => t.name === 'StructuredOutput');
    expect(offered?.input_schema).toEqual(schema);
    expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1))).toContain('Output does not match required schema: /n: must be number');
    expect(fake.requests).toHaveLength(2);

    fake.fallback = { text: 'just prose' };
    const failed = await run('count', { outputFormat: { type: 'json_schema', schema } });
    expect(failed.result).toMatchObject({ subtype: 'error_max_structured_output_retries', is_error: true, terminal_reason: 'structured_output_retry_exhausted' });
    expect((failed.result as { errors: string[] }).errors[0]).toMatch(/^Failed to provide valid structured output after 5 attempts/);
    // Each prose answer got the reminder; the fifth ended the turn.
    expect(fake.requests).toHaveLength(2 + 5);
    expect(JSON.stringify(fake.requests[6]!.body.messages.at(-1))).toContain('You MUST call the StructuredOutput tool');
  });

  it('additionalDirectories: the tools read and write there like the workspace (acceptEdits, OS sandbox included); outside both is refused; a missing one is one clear error', async () => {
    const extra = tempDir('thclaws-extra-');
    const outside = tempDir('thclaws-outside-');
    try {
      writeFileSync(path.join(outside.dir, 'secret.txt'), 'no');
      fake.enqueue(
        { toolUses: [{ name: 'Write', input: { file_path: path.join(extra.dir, 'a.txt'), content: 'tool' } }] },
        { toolUses: [{ name: 'Read', input: { file_path: path.join(outside.dir, 'secret.txt') } }] },
        { toolUses: [{ name: 'Bash', input: { command: `echo bash > ${extra.dir}/b.txt; echo no > ${outside.dir}/c.txt; true` } }] },
        { text: 'done' },
      );
      const asked: string[] = [];
      const { result } = await run('go', {
        additionalDirectories: [extra.dir],
        permissionMode: 'acceptEdits',
        canUseTool: async (tool, input) => (asked.push(tool), { behavior: 'allow', updatedInput: input }),
      });
      expect(result.subtype).toBe('success');
      expect(readFileSync(path.join(extra.dir, 'a.txt'), 'utf8')).toBe('tool');
      // An edit in an added directory is a workspace edit: acceptEdits runs it unasked; Bash still asks.
      expect(asked).toEqual(['Bash']);
      expect(JSON.stringify(fake.requests[2]!.body.messages.at(-1))).toMatch(/access denied: .*secret\.txt is outside the workspace root .* and the added directories/);
      expect(readFileSync(path.join(extra.dir, 'b.txt'), 'utf8')).toBe('bash\n');
      if (process.env.THCLAWS_SKIP_SANDBOX_TESTS !== '1') expect(existsSync(path.join(outside.dir, 'c.txt'))).toBe(false);
      expect(JSON.stringify(fake.requests[0]!.body.system)).toContain(`Additional working directories, read and written like the workspace: ${extra.dir}`);

      await expect(run('hi', { additionalDirectories: [path.join(dir, 'missing')] })).rejects.toThrow();
      expect(stderr).toMatch(/^thclaws: --add-dir: not a directory: .*missing$/m);
    } finally {
      extra.cleanup();
      outside.cleanup();
    }
  });
});
