/**
 * A call the SDK's own client refused (a `canUseTool` deny, a PreToolUse hook's block) is the client's
 * decision, not a failure: Claude Code 2.1.333 ends such a turn as `success`, `is_error: false`, with the call
 * among `permission_denials`, and so must thclaws. Driven through the real `query()` against the fake API;
 * where the Claude Code binary the SDK ships runs here, the same transcript goes through it and the two
 * results must agree on subtype, is_error and denials.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { query, type Options } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { ResultMessage } from '../../src/core/agent/output-schema.js';
import type { FakeAnthropic } from './fake-anthropic.js';
import { useFakeApiWorkspace } from './harness.js';
import { collect, sdkOptions } from './sdk-harness.js';

/** The Claude Code binary of the installed SDK (a per-platform package), if this machine has it. */
function claudeCode(): string | undefined {
  try {
    const sdk = path.dirname(createRequire(import.meta.url).resolve('@anthropic-ai/claude-agent-sdk'));
    const bin = path.join(sdk, '..', `claude-agent-sdk-${process.platform}-${process.arch}`, 'claude');
    return existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}
const CLAUDE = claudeCode();

const ways: Record<string, Options> = {
  'canUseTool deny': { canUseTool: async () => ({ behavior: 'deny', message: 'not today' }) },
  'PreToolUse hook block': {
    permissionMode: 'acceptEdits',
    hooks: { PreToolUse: [{ matcher: 'Write', hooks: [async () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no writes today' } })] }] },
  },
};

describe('a call the SDK client refused is not an error (real SDK, fake API)', () => {
  let dir: string;
  let fake: FakeAnthropic;
  useFakeApiWorkspace({ cli: true, each: (w) => ({ dir, fake } = w) });

  /**
   * The same transcript whatever else the agent asks the API (Claude Code makes side requests): the main
   * loop's first call writes a file, its answer to the tool result is "done".
   */
  function transcript(): void {
    fake.respond = (body) => {
      if (!(body?.tools ?? []).some((t: { name: string }) => t.name === 'Write')) return { text: 'side' };
      const last = body.messages.at(-1);
      const answered = Array.isArray(last?.content) && last.content.some((b: { type: string }) => b.type === 'tool_result');
      return answered ? { text: 'done' } : { toolUses: [{ name: 'Write', input: { file_path: path.join(dir, 'x.txt'), content: 'x' } }] };
    };
  }

  async function run(extra: Options, bin?: string) {
    transcript();
    let stderr = '';
    const opts = sdkOptions(dir, fake.url, (s) => (stderr += s), extra);
    if (bin) opts.pathToClaudeCodeExecutable = bin;
    const msgs = await collect(query({ prompt: 'write x', options: opts }));
    const r = ResultMessage.parse(msgs.at(-1));
    return { subtype: r.subtype, is_error: r.is_error, denials: r.permission_denials.map((d) => d.tool_name), result: 'result' in r ? r.result : undefined, stderr };
  }

  for (const [way, extra] of Object.entries(ways)) {
    it(`${way}: the turn ends as success, is_error false, the call among permission_denials; nothing written`, async () => {
      const ours = await run(extra);
      expect(ours).toMatchObject({ subtype: 'success', is_error: false, denials: ['Write'], result: 'done' });
      expect(existsSync(path.join(dir, 'x.txt'))).toBe(false);
      if (CLAUDE) {
        const theirs = await run(extra, CLAUDE);
        expect({ subtype: ours.subtype, is_error: ours.is_error, denials: ours.denials }).toEqual({ subtype: theirs.subtype, is_error: theirs.is_error, denials: theirs.denials });
        expect(existsSync(path.join(dir, 'x.txt'))).toBe(false);
      }
    }, 60_000);
  }
});
