/**
 * What an SDK host's answers mean, through the real Agent SDK against the fake Messages API: canUseTool's
 * `updatedPermissions` (session vs settings destinations, deny rules, setMode), deny with `interrupt`,
 * PreToolUse `updatedInput`/`ask`/`additionalContext`, the hook input's tool_use_id, protected paths in
 * acceptEdits, and initialize fields thclaws cannot honour.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { query, type CanUseTool, type HookInput, type Options, type PermissionUpdate, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { ResultMessage } from '../../src/core/agent/output-schema.js';
import type { FakeAnthropic } from './fake-anthropic.js';
import { useFakeApiWorkspace } from './harness.js';
import { collect, sdkOptions } from './sdk-harness.js';

describe('SDK host answers: permission updates, interrupts, hook outputs, protected paths (real SDK, real process, fake API)', () => {
  let dir: string;
  let fake: FakeAnthropic;
  let stderr = '';
  useFakeApiWorkspace({ cli: true, each: (w) => ({ dir, fake } = w) });
  const options = (extra: Options = {}): Options => sdkOptions(dir, fake.url, (s) => (stderr += s), extra);
  const local = () => path.join(dir, '.thclaws/settings.local.json');
  const toolResult = (i: number) => JSON.stringify(fake.requests[i]!.body.messages.at(-1));

  it('session updatedPermissions (the suggestions as sent) stay in memory: the same command then runs unasked, nothing is written to disk; suggestions carry the inner ruleContent', async () => {
    fake.enqueue(
      { toolUses: [{ name: 'Bash', input: { command: 'npm test' } }] },
      { toolUses: [{ name: 'Bash', input: { command: 'npm test' } }] },
      { text: 'done' },
    );
    const seen: (PermissionUpdate[] | undefined)[] = [];
    const canUseTool: CanUseTool = async (_t, input, { suggestions }) => {
      seen.push(suggestions);
      return { behavior: 'allow', updatedInput: input, ...(suggestions ? { updatedPermissions: suggestions } : {}) };
    };
    await collect(query({ prompt: 'x', options: options({ canUseTool }) }));
    expect(seen).toEqual([[{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm test:*' }], behavior: 'allow', destination: 'session' }]]);
    expect(existsSync(local())).toBe(false);
    expect(existsSync(path.join(dir, '.thclaws/settings.json'))).toBe(false);
  });

  it('an allow answer whose updates add a deny rule and set plan mode: the next Write is refused unasked; a localSettings ask rule is persisted as an ask rule, no allow rule anywhere', async () => {
    fake.enqueue(
      { toolUses: [{ name: 'Write', input: { file_path: 'w.txt', content: 'x' } }] },
      { toolUses: [{ name: 'Write', input: { file_path: 'w2.txt', content: 'y' } }] },
      { text: 'done' },
    );
    let asked = 0;
    const canUseTool: CanUseTool = async (_t, input) => {
      asked++;
      return {
        behavior: 'allow',
        updatedInput: input,
        updatedPermissions: [
          { type: 'addRules', rules: [{ toolName: 'Write' }], behavior: 'deny', destination: 'session' },
          { type: 'setMode', mode: 'plan', destination: 'session' },
          { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'rm:*' }], behavior: 'ask', destination: 'localSettings' },
        ],
      };
    };
    const msgs = await collect(query({ prompt: 'x', options: options({ canUseTool }) }));
    expect(asked).toBe(1);
    expect(readFileSync(path.join(dir, 'w.txt'), 'utf8')).toBe('x');
    expect(existsSync(path.join(dir, 'w2.txt'))).toBe(false);
    expect(toolResult(2)).toMatch(/refused by the rule Write/);
    expect(JSON.parse(readFileSync(local(), 'utf8'))).toEqual({ permissions: { ask: ['Bash(rm:*)'] } });
    expect(ResultMessage.parse(msgs.at(-1)).permission_denials.map((d) => d.tool_name)).toEqual(['Write']);
  });

  it('canUseTool deny with interrupt: true ends the turn there: no further model request, the next tool never runs', async () => {
    fake.enqueue(
      { toolUses: [{ name: 'Write', input: { file_path: 'i.txt', content: 'x' } }] },
      { toolUses: [{ name: 'Bash', input: { command: 'echo went on > on.txt' } }] },
      { text: 'kept going' },
    );
    const msgs = await collect(
      query({ prompt: 'x', options: options({ canUseTool: async (t, input) => (t === 'Write' ? { behavior: 'deny', message: 'stop everything', interrupt: true } : { behavior: 'allow', updatedInput: input }) }) }),
    );
    expect(fake.requests).toHaveLength(1);
    expect(existsSync(path.join(dir, 'on.txt'))).toBe(false);
    expect(ResultMessage.parse(msgs.at(-1))).toMatchObject({ terminal_reason: 'aborted_streaming' });
  });

  it('PreToolUse outputs: updatedInput is applied (and re-guarded), ask asks canUseTool even in bypass mode, additionalContext reaches the model; the hook input carries tool_use_id', async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'thclaws-outside-'));
    fake.enqueue(
      {
        toolUses: [
          { name: 'Write', input: { file_path: 'h.txt', content: 'original' }, id: 'toolu_h' },
          { name: 'Write', input: { file_path: 'ask.txt', content: 'x' } },
          { name: 'Write', input: { file_path: 'moved.txt', content: 'x' } },
        ],
      },
      { text: 'done' },
    );
    const seen: { input: HookInput; toolUseId: string | undefined }[] = [];
    let asked = 0;
    try {
      await collect(
        query({
          prompt: 'x',
          options: options({
            permissionMode: 'bypassPermissions',
            allowDangerouslySkipPermissions: true,
            canUseTool: async () => (asked++, { behavior: 'deny', message: 'no' }),
            hooks: {
              PreToolUse: [
                {
                  hooks: [
                    async (input, toolUseId) => {
                      seen.push({ input, toolUseId });
                      const file = (input as { tool_input: { file_path: string } }).tool_input.file_path;
                      if (file === 'h.txt') return { hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { file_path: 'h.txt', content: 'rewritten by hook' }, additionalContext: 'HOOK-CONTEXT-42' } };
                      if (file === 'ask.txt') return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'please ask' } };
                      return { hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { file_path: path.join(outside, 'pwned.txt'), content: 'x' } } };
                    },
                  ],
                },
              ],
            },
          }),
        }),
      );
      expect(readFileSync(path.join(dir, 'h.txt'), 'utf8')).toBe('rewritten by hook');
      expect(asked).toBe(1);
      expect(existsSync(path.join(dir, 'ask.txt'))).toBe(false);
      expect(existsSync(path.join(outside, 'pwned.txt'))).toBe(false);
      const results = toolResult(1);
      expect(results).toContain('HOOK-CONTEXT-42');
      expect(results).toMatch(/outside the workspace root/);
      expect(seen[0]!.input).toMatchObject({ hook_event_name: 'PreToolUse', tool_use_id: 'toolu_h', permission_mode: 'bypassPermissions' });
      expect(seen[0]!.toolUseId).toBe('toolu_h');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('acceptEdits: a workspace Write runs unasked, but .git/config and .mcp.json ask (denied here, so neither is written)', async () => {
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const before = readFileSync(path.join(dir, '.git/config'), 'utf8');
    fake.enqueue(
      {
        toolUses: [
          { name: 'Write', input: { file_path: 'ok.txt', content: 'fine' } },
          { name: 'Write', input: { file_path: '.git/config', content: `${before}[core]\n\tfsmonitor = "touch PWNED; false"\n` } },
          { name: 'Write', input: { file_path: '.mcp.json', content: '{"mcpServers":{"x":{"command":"sh"}}}' } },
        ],
      },
      { text: 'done' },
    );
    const asked: string[] = [];
    await collect(query({ prompt: 'x', options: options({ permissionMode: 'acceptEdits', canUseTool: async (_t, input) => (asked.push(String(input.file_path)), { behavior: 'deny', message: 'no' }) }) }));
    expect(readFileSync(path.join(dir, 'ok.txt'), 'utf8')).toBe('fine');
    expect(asked).toEqual(['.git/config', '.mcp.json']);
    expect(readFileSync(path.join(dir, '.git/config'), 'utf8')).toBe(before);
    expect(existsSync(path.join(dir, '.mcp.json'))).toBe(false);
  });

  it('a call waiting on canUseTool when the host switches the session to plan mode is not run although then allowed; a plan-mode turn whose only call was refused by plan mode is a success', async () => {
    fake.enqueue(
      { toolUses: [{ name: 'Write', input: { file_path: 'w.txt', content: 'x' } }] },
      { text: 'first done' },
      { toolUses: [{ name: 'Write', input: { file_path: 'p.txt', content: 'x' } }] },
      { text: 'I will plan first' },
    );
    let q!: ReturnType<typeof query>;
    async function* input(): AsyncGenerator<SDKUserMessage> {
      yield { type: 'user', message: { role: 'user', content: 'one' }, parent_tool_use_id: null, session_id: '' };
      yield { type: 'user', message: { role: 'user', content: 'two' }, parent_tool_use_id: null, session_id: '' };
    }
    const canUseTool: CanUseTool = async (_t, input) => {
      await q.setPermissionMode('plan');
      return { behavior: 'allow', updatedInput: input };
    };
    q = query({ prompt: input(), options: options({ canUseTool }) });
    const msgs = await collect(q);
    expect(existsSync(path.join(dir, 'w.txt'))).toBe(false);
    expect(toolResult(1)).toMatch(/switched to plan mode while Write waited/);
    expect(existsSync(path.join(dir, 'p.txt'))).toBe(false);
    const last = ResultMessage.parse(msgs.filter((m) => m.type === 'result').at(-1));
    expect(last).toMatchObject({ subtype: 'success', is_error: false, result: 'I will plan first' });
  });

  it('the agents option (sent inside initialize) is refused by name, never silently ignored', async () => {
    stderr = '';
    fake.enqueue({ text: 'ok' });
    const msgs = await collect(query({ prompt: 'x', options: options({ agents: { reviewer: { description: 'reviews code', prompt: 'You review.' } } }) }));
    const refusal = /agents: custom subagents \(the agents option\) are not supported by thclaws/;
    expect(stderr).toMatch(refusal);
    // The SDK goes on after an error response to initialize: the turn's own result carries the refusal.
    const result = ResultMessage.parse(msgs.at(-1));
    expect(result).toMatchObject({ is_error: true, subtype: 'error_during_execution' });
    expect(result.subtype === 'error_during_execution' && result.errors[0]).toMatch(refusal);
    expect(fake.requests).toHaveLength(0);
  });
});
