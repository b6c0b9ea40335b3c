/**
 * The official Claude Agent SDK drives `thclaws` as it drives Claude Code (`pathToClaudeCodeExecutable`),
 * against the fake Messages API: its control protocol, permission callback, interrupts and flags.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { query, type Options, type SDKMessage, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { ResultMessage, StreamJsonLine } from '../../src/core/agent/output-schema.js';
import type { FakeAnthropic } from './fake-anthropic.js';
import { useFakeApiWorkspace } from './harness.js';
import { collect, sdkOptions } from './sdk-harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('the Claude Agent SDK driving thclaws (real SDK, real process, fake API)', () => {
  let dir: string;
  let fake: FakeAnthropic;
  useFakeApiWorkspace({ cli: true, each: (w) => ({ dir, fake } = w) });

  const options = (extra: Options = {}): Options => sdkOptions(dir, fake.url, (s) => (stderr += s), extra);
  let stderr = '';


  /** Every line we print must also pass our own runtime schema of Claude Code's shapes. */
  function checkShapes(msgs: SDKMessage[]): void {
    for (const m of msgs) StreamJsonLine.parse(m);
  }

  it('a one-shot query ends without throwing; init and result carry the fields the SDK requires; the session id is a UUID', async () => {
    stderr = '';
    fake.enqueue({ text: 'hello from the fake' });
    const msgs = await collect(query({ prompt: 'hi', options: options() }));
    checkShapes(msgs);
    const init = msgs.find((m) => m.type === 'system' && m.subtype === 'init');
    expect(init).toMatchObject({ output_style: 'default', skills: [], plugins: [] });
    const result = ResultMessage.parse(msgs.at(-1));
    expect(result).toMatchObject({ subtype: 'success', result: 'hello from the fake', terminal_reason: 'completed' });
    expect(result.session_id).toMatch(UUID);
    expect(Object.keys(result.modelUsage)).toEqual(['claude-sonnet-5-5']);
    expect(stderr).toBe('');
  });

  it('includePartialMessages: the raw stream events arrive as stream_event lines, their text deltas making the answer', async () => {
    fake.enqueue({ text: 'streamed in parts' });
    const msgs = await collect(query({ prompt: 'hi', options: options({ includePartialMessages: true }) }));
    for (const m of msgs) StreamJsonLine.parse(m);
    const events = msgs.flatMap((m) => (m.type === 'stream_event' ? [m.event] : []));
    expect(events[0]!.type).toBe('message_start');
    expect(events.at(-1)!.type).toBe('message_stop');
    const text = events.map((e) => (e.type === 'content_block_delta' && e.delta.type === 'text_delta' ? e.delta.text : '')).join('');
    expect(text).toBe('streamed in parts');
  });

  it('streaming input: two user messages, two turns, one session', async () => {
    fake.enqueue({ text: 'first' }, { text: 'second' });
    async function* input(): AsyncGenerator<SDKUserMessage> {
      yield { type: 'user', message: { role: 'user', content: 'one' }, parent_tool_use_id: null, session_id: '' };
      yield { type: 'user', message: { role: 'user', content: 'two' }, parent_tool_use_id: null, session_id: '' };
    }
    const msgs = await collect(query({ prompt: input(), options: options() }));
    checkShapes(msgs);
    const results = msgs.filter((m) => m.type === 'result');
    expect(results.map((r) => (r as { result: string }).result)).toEqual(['first', 'second']);
    expect(new Set(results.map((r) => r.session_id)).size).toBe(1);
    // The second request carries the first turn: one conversation.
    expect(JSON.stringify(fake.requests[1]!.body.messages)).toContain('first');
  });

  it('an image in a user message reaches the model request; Read of a PNG returns it to the model as an image', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]).toString('base64');
    writeFileSync(path.join(dir, 'shot.png'), Buffer.from(png, 'base64'));
    fake.enqueue({ toolUses: [{ name: 'Read', input: { file_path: 'shot.png' } }] }, { text: 'a picture' });
    async function* input(): AsyncGenerator<SDKUserMessage> {
      const content = [
        { type: 'text' as const, text: 'what is this?' },
        { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: png } },
      ];
      yield { type: 'user', message: { role: 'user', content }, parent_tool_use_id: null, session_id: '' };
    }
    const msgs = await collect(query({ prompt: input(), options: options() }));
    checkShapes(msgs);
    expect(ResultMessage.parse(msgs.at(-1)).result).toBe('a picture');
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } };
    // (the provider marks the last block for prompt caching)
    expect(fake.requests[0]!.body.messages[0].content[1]).toMatchObject(image);
    const toolResult = fake.requests[1]!.body.messages.at(-1).content[0];
    expect(toolResult).toMatchObject({ type: 'tool_result', content: [image] });
  });

  it('canUseTool: allow with updatedInput runs the changed input (validated again); deny refuses with the message', async () => {
    fake.enqueue(
      { toolUses: [{ name: 'Write', input: { file_path: 'asked.txt', content: 'model' } }] },
      { toolUses: [{ name: 'Write', input: { file_path: 'denied.txt', content: 'model' } }] },
      { text: 'done' },
    );
    const asked: string[] = [];
    const msgs = await collect(
      query({
        prompt: 'write',
        options: options({
          canUseTool: async (tool, input) => {
            asked.push(`${tool}:${(input as { file_path: string }).file_path}`);
            if ((input as { file_path: string }).file_path === 'asked.txt') return { behavior: 'allow', updatedInput: { file_path: 'changed.txt', content: 'host' } };
            return { behavior: 'deny', message: 'not that file' };
          },
        }),
      }),
    );
    checkShapes(msgs);
    expect(asked).toEqual(['Write:asked.txt', 'Write:denied.txt']);
    expect(readFileSync(path.join(dir, 'changed.txt'), 'utf8')).toBe('host');
    expect(existsSync(path.join(dir, 'asked.txt'))).toBe(false);
    expect(existsSync(path.join(dir, 'denied.txt'))).toBe(false);
    const denial = JSON.stringify(fake.requests[2]!.body.messages.at(-1));
    expect(denial).toContain('not that file');
    expect(ResultMessage.parse(msgs.at(-1)).permission_denials.map((d) => d.tool_name)).toEqual(['Write']);
  });

  it('canUseTool: an updatedInput that fails the tool schema is refused, not run', async () => {
    fake.enqueue({ toolUses: [{ name: 'Write', input: { path: 'a.txt', content: 'x' } }] }, { text: 'ok' });
    await collect(query({ prompt: 'w', options: options({ canUseTool: async () => ({ behavior: 'allow', updatedInput: { file_path: 42 } }) }) }));
    expect(existsSync(path.join(dir, 'a.txt'))).toBe(false);
    expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1))).toContain('invalid input from the approver');
  });

  it('interrupt() ends the running turn with its result; the next message is answered in the same session', async () => {
    fake.enqueue({ text: 'a very slow answer that is interrupted', chunkDelayMs: 400 }, { text: 'after the interrupt' });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* input(): AsyncGenerator<SDKUserMessage> {
      yield { type: 'user', message: { role: 'user', content: 'slow' }, parent_tool_use_id: null, session_id: '' };
      await gate;
      yield { type: 'user', message: { role: 'user', content: 'again' }, parent_tool_use_id: null, session_id: '' };
    }
    const q = query({ prompt: input(), options: options({ includePartialMessages: false }) });
    const msgs: SDKMessage[] = [];
    // Interrupt once the request has reached the fake (the turn is running).
    const poll = setInterval(() => {
      if (fake.requests.length === 1) {
        clearInterval(poll);
        void q.interrupt().then(release);
      }
    }, 20);
    for await (const m of q) msgs.push(m);
    clearInterval(poll);
    const results = msgs.filter((m) => m.type === 'result') as { result: string; terminal_reason?: string; session_id: string }[];
    expect(results).toHaveLength(2);
    expect(results[0]!.terminal_reason).toBe('aborted_streaming');
    expect(results[1]!.result).toBe('after the interrupt');
    expect(results[0]!.session_id).toBe(results[1]!.session_id);
  });

  it('maxTurns stops the loop with error_max_turns', async () => {
    fake.enqueue(
      { toolUses: [{ name: 'Read', input: { path: 'x' } }] },
      { toolUses: [{ name: 'Read', input: { path: 'y' } }] },
      { text: 'never reached' },
    );
    const msgs = await collect(query({ prompt: 'loop', options: options({ maxTurns: 1 }) }));
    const result = ResultMessage.parse(msgs.filter((m) => m.type === 'result').at(-1));
    expect(result).toMatchObject({ subtype: 'error_max_turns', terminal_reason: 'max_turns' });
    expect(fake.requests).toHaveLength(1);
  });

  it('an appended system prompt reaches the model request', async () => {
    fake.enqueue({ text: 'ok' });
    await collect(query({ prompt: 'hi', options: options({ systemPrompt: { type: 'preset', preset: 'claude_code', append: 'ALWAYS ANSWER IN HAIKU' } }) }));
    expect(JSON.stringify(fake.requests[0]!.body.system)).toContain('ALWAYS ANSWER IN HAIKU');
  });

  it('a custom system prompt replaces ours; none keeps ours', async () => {
    fake.enqueue({ text: 'a' }, { text: 'b' });
    await collect(query({ prompt: 'hi', options: options({ systemPrompt: 'YOU ARE A TEST PROMPT' }) }));
    await collect(query({ prompt: 'hi', options: options() }));
    expect(JSON.stringify(fake.requests[0]!.body.system)).toContain('YOU ARE A TEST PROMPT');
    expect(JSON.stringify(fake.requests[0]!.body.system)).not.toContain('thclaws');
    expect(JSON.stringify(fake.requests[1]!.body.system)).toContain('thclaws');
  });

  it('setModel and setPermissionMode are answered; an unknown model and an unsupported mode are refused by name', async () => {
    fake.enqueue({ text: 'one' }, { text: 'two' });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* input(): AsyncGenerator<SDKUserMessage> {
      yield { type: 'user', message: { role: 'user', content: 'one' }, parent_tool_use_id: null, session_id: '' };
      await gate;
      yield { type: 'user', message: { role: 'user', content: 'two' }, parent_tool_use_id: null, session_id: '' };
    }
    const q = query({ prompt: input(), options: options() });
    const errors: string[] = [];
    for await (const m of q) {
      if (m.type !== 'result' || (m as { result?: string }).result !== 'one') continue;
      await q.setModel('opus');
      await q.setPermissionMode('bypassPermissions');
      await q.setModel('no-such-model').catch((e: Error) => errors.push(e.message));
      await q.setPermissionMode('nonsense' as never).catch((e: Error) => errors.push(e.message));
      release();
    }
    expect(fake.requests[1]!.body.model).not.toBe(fake.requests[0]!.body.model);
    expect(errors[0]).toMatch(/unknown model "no-such-model"/);
    expect(errors[1]).toMatch(/permission mode "nonsense" is not supported/);
  });

  it('plan: Write is refused until ExitPlanMode is approved; then setPermissionMode(acceptEdits): a workspace Write runs unasked, Bash still asks', async () => {
    // One session for both modes: the second turn runs after setPermissionMode (one process, not two).
    fake.enqueue(
      { toolUses: [{ name: 'Write', input: { file_path: 'early.txt', content: 'x' } }] },
      { toolUses: [{ name: 'ExitPlanMode', input: { plan: '1. write plan.txt' } }] },
      { toolUses: [{ name: 'Write', input: { file_path: 'plan.txt', content: 'p' } }] },
      { text: 'planned and done' },
      { toolUses: [{ name: 'Write', input: { file_path: 'edit.txt', content: 'e' } }, { name: 'Bash', input: { command: 'echo hi' } }] },
      { text: 'edits done' },
    );
    const asked: string[] = [];
    const canUseTool: Options['canUseTool'] = async (tool, input) => {
      asked.push(tool);
      return { behavior: 'allow', updatedInput: input };
    };
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* input(): AsyncGenerator<SDKUserMessage> {
      yield { type: 'user', message: { role: 'user', content: 'plan it' }, parent_tool_use_id: null, session_id: '' };
      await gate;
      yield { type: 'user', message: { role: 'user', content: 'go' }, parent_tool_use_id: null, session_id: '' };
    }
    const q = query({ prompt: input(), options: options({ permissionMode: 'plan', canUseTool }) });
    const msgs: SDKMessage[] = [];
    let planAsked: string[] = [];
    for await (const m of q) {
      msgs.push(m);
      if (m.type !== 'result' || (m as { result?: string }).result !== 'planned and done') continue;
      expect(existsSync(path.join(dir, 'early.txt'))).toBe(false);
      expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1))).toContain('plan mode: Write is refused until your plan is approved');
      expect(readFileSync(path.join(dir, 'plan.txt'), 'utf8')).toBe('p');
      planAsked = asked.splice(0);
      await q.setPermissionMode('acceptEdits');
      release();
    }
    expect(planAsked).toEqual(['ExitPlanMode', 'Write']);
    expect(readFileSync(path.join(dir, 'edit.txt'), 'utf8')).toBe('e');
    expect(asked).toEqual(['Bash']);
    const inits = msgs.filter((m) => m.type === 'system' && m.subtype === 'init');
    const modes = inits.map((m) => (m as { permissionMode: string }).permissionMode);
    expect([modes[0], modes.at(-1)]).toEqual(['plan', 'acceptEdits']);
  });

  it('a PreToolUse hook callback runs in the host and blocks the tool; another tool is not matched', async () => {
    fake.enqueue(
      { toolUses: [{ name: 'Write', input: { file_path: 'blocked.txt', content: 'x' } }] },
      { toolUses: [{ name: 'Read', input: { path: 'nothing.txt' } }] },
      { text: 'done' },
    );
    const seen: string[] = [];
    await collect(
      query({
        prompt: 'w',
        options: options({
          permissionMode: 'bypassPermissions',
          allowDangerouslySkipPermissions: true,
          hooks: {
            PreToolUse: [
              {
                matcher: 'Write|Edit',
                hooks: [
                  async (input) => {
                    seen.push((input as { tool_name: string }).tool_name);
                    return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no writes today' } };
                  },
                ],
              },
            ],
          },
        }),
      }),
    );
    expect(seen).toEqual(['Write']);
    expect(existsSync(path.join(dir, 'blocked.txt'))).toBe(false);
    expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1))).toContain('blocked by a PreToolUse hook: no writes today');
  });

  it('hook events thclaws cannot fire are refused by name on stderr, never silently ignored', async () => {
    stderr = '';
    fake.enqueue({ text: 'ok' });
    await collect(query({ prompt: 'hi', options: options({ hooks: { PostToolUse: [{ hooks: [async () => ({})] }] } }) })).catch(() => []);
    expect(stderr).toMatch(/SDK hook callbacks for PostToolUse are not supported by thclaws/);
  });

  it('allowedTools run unasked, disallowedTools are refused (a bare name hides the tool); continue resumes the newest session', async () => {
    fake.enqueue(
      { toolUses: [{ name: 'Write', input: { file_path: 'allowed.txt', content: 'a' } }] },
      { toolUses: [{ name: 'Bash', input: { command: 'echo hi > bash.txt' } }] },
      { text: 'first done' },
    );
    const first = await collect(query({ prompt: 'go', options: options({ allowedTools: ['Write'], disallowedTools: ['Bash(echo:*)', 'Glob'] }) }));
    expect(readFileSync(path.join(dir, 'allowed.txt'), 'utf8')).toBe('a');
    expect(existsSync(path.join(dir, 'bash.txt'))).toBe(false);
    expect(JSON.stringify(fake.requests[2]!.body.messages.at(-1))).toMatch(/refused by the rule Bash\(echo:\*\)/);
    const offered = (fake.requests[0]!.body.tools as { name: string }[]).map((t) => t.name);
    expect(offered).not.toContain('Glob');
    expect(offered).toContain('Read');
    fake.enqueue({ text: 'second' });
    const second = await collect(query({ prompt: 'again', options: options({ continue: true }) }));
    expect(second.at(-1)!.session_id).toBe(first.at(-1)!.session_id);
    expect(JSON.stringify(fake.requests[3]!.body.messages)).toContain('first done');
  });
});
