import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/agent/helpers.js';
import { INTERRUPTED, runLoop, type LoopOptions } from './loop.js';
import { SessionPermissionChecker } from './permissions.js';
import { ScriptedProvider, parseScript } from './providers/scripted.js';
import type { ChatMessage } from './providers/types.js';
import { builtinTools } from './tools/index.js';

describe('tool loop', () => {
  let root: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir: root, cleanup } = tempDir()));
  afterEach(() => cleanup());

  const options = (script: unknown, over: Partial<LoopOptions> = {}): LoopOptions => ({
    provider: new ScriptedProvider(parseScript(script)),
    model: 'm',
    system: '',
    tools: builtinTools(),
    messages: [],
    maxIterations: 10,
    maxTokens: 100,
    toolOutputMaxChars: 1000,
    context: { cwd: root, projectRoot: root, role: 'solo', permissions: new SessionPermissionChecker('auto', { decide: async () => 'deny' }) },
    signal: new AbortController().signal,
    ...over,
  });

  it('caps tool output keeping head and tail, with a line saying how much was cut', async () => {
    const opts = options({ rules: [{ turns: [{ tool_calls: [{ name: 'Bash', input: { command: 'seq 1 100000; echo FINAL_ERROR; exit 3' } }] }, { text: 'ok' }] }] });
    const r = await runLoop('go', opts);
    expect(r.stop).toBe('end_turn');
    const result = opts.messages[2]!.content[0] as { content: string };
    expect(result.content.startsWith('1\n2\n3\n')).toBe(true);
    expect(result.content).toMatch(/\[\.\.\. \d+ characters cut from the middle of this output \.\.\.\]/);
    expect(result.content).toMatch(/100000\nFINAL_ERROR\n\[exit code 3\]$/);
    expect(result.content.length).toBeLessThan(1200);
  });

  it('stops at the iteration budget', async () => {
    const opts = options({ rules: [{ turns: Array.from({ length: 20 }, () => ({ tool_calls: [{ name: 'Glob', input: { pattern: '*' } }] })) }] }, { maxIterations: 3 });
    const r = await runLoop('go', opts);
    expect(r.stop).toBe('max_iterations');
    expect(r.iterations).toBe(3);
    expect(r.error).toMatch(/stopped after 3 iterations/);
  });

  it('an abort during a tool answers every pending call and closes the turn', async () => {
    const ac = new AbortController();
    const opts = options(
      { rules: [{ turns: [{ tool_calls: [{ name: 'Bash', input: { command: 'sleep 30' } }, { name: 'Bash', input: { command: 'echo never' } }] }] }] },
      { signal: ac.signal },
    );
    setTimeout(() => ac.abort(), 100);
    const r = await runLoop('go', opts);
    expect(r.stop).toBe('aborted');
    const msgs: ChatMessage[] = opts.messages;
    expect(msgs.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(msgs[2]!.content.map((b) => (b as { content: string }).content)).toEqual([
      expect.stringContaining('aborted by the user'),
      'not run: aborted by the user',
    ]);
    expect(msgs[3]!.content[0]).toEqual({ type: 'text', text: INTERRUPTED });
  });

  it('a provider error keeps the transcript answerable', async () => {
    const opts = options({ rules: [{ turns: [{ error: 'boom' }] }] });
    const r = await runLoop('go', opts);
    expect(r).toMatchObject({ stop: 'error', error: 'boom' });
    expect(opts.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});
