import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ResultMessage, StreamJsonLine } from '../../src/core/agent/output-schema.js';
import type { FakeAnthropic } from './fake-anthropic.js';
import { useFakeApiWorkspace } from './harness.js';
import { runCli, scrubbedEnv } from './helpers.js';

const lines = (stdout: string) => stdout.trim().split('\n').map((l) => JSON.parse(l));

describe('thclaws -p output in Claude Code\'s shapes (real process, fake API)', () => {
  let dir: string;
  let fake: FakeAnthropic;
  useFakeApiWorkspace({ cli: true, each: (w) => ({ dir, fake } = w) });

  const env = () => scrubbedEnv(dir, { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url });

  it('stream-json: system init, assistant (with thinking), user tool results, result — every line valid against the schema', async () => {
    fake.enqueue(
      { thinking: [{ thinking: 'I should look.', signature: 'sig-1' }], text: 'Looking.', toolUses: [{ id: 'toolu_a', name: 'Glob', input: { pattern: '*' } }], usage: { input_tokens: 100, output_tokens: 20 } },
      { text: 'Nothing here.', usage: { input_tokens: 150, output_tokens: 10 } },
    );
    const r = await runCli(['-p', 'look', '--output-format', 'stream-json'], { cwd: dir, env: env() });
    expect(r.code).toBe(0);
    const msgs = lines(r.stdout);
    for (const m of msgs) StreamJsonLine.parse(m);
    // One assistant line per content block, as Claude Code streams them: the same message id, the stop at the last.
    expect(msgs.map((m) => `${m.type}${m.subtype ? `/${m.subtype}` : ''}`)).toEqual(['system/init', 'assistant', 'assistant', 'assistant', 'user', 'assistant', 'result/success']);
    expect(msgs[0]).toMatchObject({ model: 'claude-sonnet-5-5', tools: expect.arrayContaining(['Read', 'Bash', 'BashOutput', 'KillShell']), permissionMode: 'default' });
    const blocks = msgs.slice(1, 4);
    expect(blocks.map((m) => m.message.content)).toEqual([
      [{ type: 'thinking', thinking: 'I should look.', signature: 'sig-1' }],
      [{ type: 'text', text: 'Looking.', citations: null }],
      [{ type: 'tool_use', id: 'toolu_a', name: 'Glob', input: { pattern: '*' } }],
    ]);
    expect(new Set(blocks.map((m) => m.message.id)).size).toBe(1);
    expect(new Set(blocks.map((m) => m.uuid)).size).toBe(3);
    expect(blocks.map((m) => m.message.stop_reason)).toEqual([null, null, 'tool_use']);
    expect(blocks[0].message).toMatchObject({ container: null, context_management: null, diagnostics: null, stop_details: null, usage: { service_tier: 'standard', cache_creation: { ephemeral_5m_input_tokens: 0 } } });
    expect(msgs[4].message.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_a' });
    const result = msgs.at(-1);
    expect(result).toMatchObject({ is_error: false, num_turns: 2, result: 'Nothing here.', usage: { input_tokens: 250, output_tokens: 30 } });
    // Sonnet 5.5: $2/M in, $10/M out.
    expect(result.total_cost_usd).toBeCloseTo((250 * 2 + 30 * 10) / 1e6, 9);
    expect(new Set(msgs.map((m) => m.session_id)).size).toBe(1);
  });

  it('json: one result object; with --verbose, the array of every message', async () => {
    fake.enqueue({ text: 'plain' }, { thinking: [{ thinking: 't', signature: 's' }], text: 'verbose' });
    const j = await runCli(['-p', 'x', '--output-format', 'json'], { cwd: dir, env: env() });
    expect(ResultMessage.parse(JSON.parse(j.stdout))).toMatchObject({ subtype: 'success', result: 'plain' });
    const v = await runCli(['-p', 'x', '--output-format', 'json', '--verbose'], { cwd: dir, env: env() });
    const all = JSON.parse(v.stdout) as unknown[];
    // json keeps one assistant message per response, every block in it.
    expect(all.map((m) => StreamJsonLine.parse(m).type)).toEqual(['system', 'assistant', 'result']);
    expect((all[1] as { message: { content: unknown[] } }).message.content).toHaveLength(2);
  });

  it('truncation after the continuation bound and a refusal: is_error, a non-zero exit, the reason', async () => {
    fake.fallback = { text: 'cut', stopReason: 'max_tokens' };
    const t = await runCli(['-p', 'x', '--output-format', 'json'], { cwd: dir, env: env() });
    expect(t.code).toBe(1);
    expect(JSON.parse(t.stdout)).toMatchObject({ is_error: true, subtype: 'error_during_execution', stop_reason: 'max_tokens', errors: [expect.stringMatching(/^output truncated/)] });
    fake.fallback = { text: '', stopReason: 'refusal' };
    const f = await runCli(['-p', 'x'], { cwd: dir, env: env() });
    expect(f.code).toBe(1);
    expect(f.stderr).toBe('thclaws: the model refused to continue (stop_reason: refusal)\n');
  });

  it('--input-format stream-json: a turn and a result per user message on stdin, one session', async () => {
    fake.enqueue({ text: 'first' }, { text: 'second' });
    const input = [
      JSON.stringify({ type: 'user', message: { role: 'user', content: 'one' } }),
      JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'two' }] } }),
    ].join('\n');
    const r = await runCli(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json'], { cwd: dir, env: env(), input });
    expect(r.code).toBe(0);
    const msgs = lines(r.stdout);
    for (const m of msgs) StreamJsonLine.parse(m);
    expect(msgs.filter((m) => m.type === 'result').map((m) => m.result)).toEqual(['first', 'second']);
    expect(fake.requests[1]!.body.messages.map((m: { content: Array<{ text: string }> }) => m.content[0]!.text)).toEqual(['one', 'first', 'two']);
    const bad = await runCli(['-p', '--input-format', 'stream-json'], { cwd: dir, env: env(), input });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('thclaws: --input-format stream-json needs --output-format stream-json\n');
  });

  it('--model takes aliases; the default is the current Sonnet with adaptive thinking', async () => {
    fake.enqueue({ text: 'a' }, { text: 'b' });
    await runCli(['-p', 'x'], { cwd: dir, env: env() });
    await runCli(['-p', 'x', '--model', 'opus', '--effort', 'high', '--thinking-display', 'omitted'], { cwd: dir, env: env() });
    expect(fake.requests[0]!.body).toMatchObject({ model: 'claude-sonnet-5-5', thinking: { type: 'adaptive', display: 'summarized' } });
    expect(fake.requests[0]!.body).not.toHaveProperty('output_config');
    expect(fake.requests[1]!.body).toMatchObject({ model: 'claude-opus-5-5', output_config: { effort: 'high' }, thinking: { type: 'adaptive', display: 'omitted' } });
  });

  it('background shells die with the agent: the process group is killed on exit', async () => {
    const pidFile = path.join(dir, 'server.pid');
    // Under the OS sandbox `$$` is a pid of the sandbox's own pid namespace: the process is found on the host
    // by its unique command line instead.
    const secs = `300.${process.pid}`;
    // The model waits for the server to be up before it ends the turn (sandbox start-up takes tens of ms).
    const waitUp = `for i in $(seq 100); do [ -s ${pidFile} ] && break; sleep 0.1; done`;
    fake.enqueue({ toolUses: [{ name: 'Bash', input: { command: `echo $$ > ${pidFile}; exec sleep ${secs}`, run_in_background: true } }] }, { toolUses: [{ name: 'Bash', input: { command: waitUp } }] }, { text: 'started it' });
    const r = await runCli(['-p', 'start a server', '--accept-all'], { cwd: dir, env: env() });
    expect(r.code).toBe(0);
    expect(Number(readFileSync(pidFile, 'utf8'))).toBeGreaterThan(0);
    const running = () =>
      readdirSync('/proc').some((d) => {
        try {
          return /^\d+$/.test(d) && readFileSync(`/proc/${d}/cmdline`, 'utf8') === `sleep\0${secs}\0`;
        } catch {
          return false;
        }
      });
    let alive = true;
    for (let i = 0; i < 100 && alive; i++) {
      alive = running();
      if (alive) await new Promise((f) => setTimeout(f, 50));
    }
    expect(alive).toBe(false);
  });
});
