/**
 * Hostile review of the stream-json control protocol: what a real SDK host (or a script piping lines) does at
 * the edges — a permission question after stdin closed, an interrupt while canUseTool is pending (the SDK
 * still answers the request we cancelled), an interrupt when no turn runs.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { query, type Options, type SDKMessage, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import type { FakeAnthropic } from './fake-anthropic.js';
import { useFakeApiWorkspace } from './harness.js';
import { BIN, runCli, scrubbedEnv } from './helpers.js';

const STREAM_ARGS = ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--permission-prompt-tool', 'stdio'];
const userLine = (text: string) => `${JSON.stringify({ type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null, session_id: '' })}\n`;

describe('stream-json control protocol under hostile timing (real process, fake API)', () => {
  let dir: string;
  let fake: FakeAnthropic;
  useFakeApiWorkspace({ cli: true, each: (w) => ({ dir, fake } = w) });
  const env = () => scrubbedEnv(dir, { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url });

  it('a permission question asked after stdin closed is refused at once (nobody can answer), and the process ends', async () => {
    fake.enqueue({ toolUses: [{ name: 'Write', input: { file_path: 'late.txt', content: 'x' } }] }, { text: 'done' });
    // One user line, then EOF: the turn runs after the reader has seen stdin close.
    const r = await runCli(STREAM_ARGS, { cwd: dir, env: env(), input: userLine('write it'), timeoutMs: 60_000 });
    // Before: the pending promise kept nothing alive, so node exited 0 mid-turn with no result line at all.
    expect(r.code, r.stderr).not.toBeNull(); // null: killed by the timeout, i.e. it hung waiting for an answer
    expect(r.stdout).toMatch(/"type":"result"/);
    expect(existsSync(path.join(dir, 'late.txt'))).toBe(false);
    expect(fake.requests).toHaveLength(2);
    expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1))).toMatch(/stdin closed/);
  }, 90_000);

  it('interrupt() while canUseTool is pending: the SDK answers the cancelled request, and the query still ends without throwing', async () => {
    fake.enqueue({ toolUses: [{ name: 'Write', input: { file_path: 'pending.txt', content: 'x' } }] }, { text: 'after' });
    let stderr = '';
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* input(): AsyncGenerator<SDKUserMessage> {
      yield { type: 'user', message: { role: 'user', content: 'write' }, parent_tool_use_id: null, session_id: '' };
      await gate;
      yield { type: 'user', message: { role: 'user', content: 'again' }, parent_tool_use_id: null, session_id: '' };
    }
    let q!: ReturnType<typeof query>;
    const options: Options = {
      pathToClaudeCodeExecutable: BIN,
      cwd: dir,
      env: env() as Record<string, string>,
      stderr: (s) => (stderr += s),
      // The person has not answered yet when the interrupt comes; the callback sees its signal abort (our
      // control_cancel_request) and returns, and the SDK writes that answer for the cancelled id.
      canUseTool: (_tool, _input, { signal }) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => resolve({ behavior: 'deny', message: 'cancelled' }), { once: true });
          void q.interrupt().then(release);
        }),
    };
    q = query({ prompt: input(), options });
    const msgs: SDKMessage[] = [];
    for await (const m of q) msgs.push(m);
    expect(existsSync(path.join(dir, 'pending.txt'))).toBe(false);
    expect(msgs.filter((m) => m.type === 'result')).toHaveLength(2);
    expect(stderr).not.toMatch(/answers no request of ours/);
  }, 90_000);

  it('SIGTERM while canUseTool is pending ends the process although stdin is still open', async () => {
    fake.enqueue({ toolUses: [{ name: 'Write', input: { file_path: 'x.txt', content: 'x' } }] }, { text: 'never' });
    const child = spawn(process.execPath, [BIN, ...STREAM_ARGS], { cwd: dir, env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    const asked = new Promise<void>((resolve) =>
      child.stdout.on('data', (b) => {
        stdout += b;
        if (stdout.includes('"can_use_tool"')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    child.stdin.write(userLine('write'));
    await asked;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await exited;
    clearTimeout(timer);
    // stdin is still open: only the signal can end the session.
    expect(code).toBe(130);
  }, 90_000);

  it('Ctrl-C (SIGINT) in a later turn ends the process as the first turn\'s would: a finished turn leaves nothing behind', async () => {
    fake.enqueue({ text: 'first answer' }, { toolUses: [{ name: 'Write', input: { file_path: 'x.txt', content: 'x' } }] }, { text: 'never' });
    const child = spawn(process.execPath, [BIN, ...STREAM_ARGS], { cwd: dir, env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    const seen = (what: string) =>
      new Promise<void>((resolve) => {
        const check = () => stdout.includes(what) && resolve();
        child.stdout.on('data', (b) => {
          stdout += b;
          check();
        });
        check();
      });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    child.stdin.write(userLine('hello'));
    await seen('"type":"result"');
    expect(stdout).toContain('first answer');
    child.stdin.write(userLine('write'));
    await seen('"can_use_tool"');
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await exited;
    clearTimeout(timer);
    // stdin is still open: only the signal can end the session (null: it hung until the SIGKILL).
    expect(code).toBe(130);
    expect(existsSync(path.join(dir, 'x.txt'))).toBe(false);
  }, 90_000);

  it('an interrupt with no turn running does not swallow the next turn\'s SIGTERM: the process still ends', async () => {
    fake.enqueue({ toolUses: [{ name: 'Write', input: { file_path: 'x.txt', content: 'x' } }] }, { text: 'never' });
    const child = spawn(process.execPath, [BIN, ...STREAM_ARGS], { cwd: dir, env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    const asked = new Promise<void>((resolve) =>
      child.stdout.on('data', (b) => {
        stdout += b;
        if (stdout.includes('"can_use_tool"')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // A stray interrupt between turns (the SDK's interrupt() races the result), then a turn that waits on us.
    child.stdin.write(`${JSON.stringify({ type: 'control_request', request_id: 'int-1', request: { subtype: 'interrupt' } })}\n`);
    child.stdin.write(userLine('write'));
    await asked;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await exited;
    clearTimeout(timer);
    // stdin is still open: only the signal can end the session.
    expect(code).toBe(130);
  }, 90_000);

  it('canUseTool\'s updatedInput cannot move a call onto a path a deny rule refuses', async () => {
    fake.enqueue({ toolUses: [{ name: 'Write', input: { file_path: 'notes.txt', content: 'x' } }] }, { text: 'done' });
    const options: Options = {
      pathToClaudeCodeExecutable: BIN,
      cwd: dir,
      env: env() as Record<string, string>,
      disallowedTools: ['Write(secrets/)'],
      canUseTool: async () => ({ behavior: 'allow', updatedInput: { file_path: 'secrets/key.txt', content: 'planted' } }),
    };
    for await (const _m of query({ prompt: 'write', options })) void _m;
    expect(existsSync(path.join(dir, 'secrets/key.txt'))).toBe(false);
    expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1))).toMatch(/refused by the rule Write\(secrets\/\)/);
  }, 90_000);

  it('a malformed disallowedTools rule (no closing parenthesis) is refused, never left to swallow the deny rules after it', async () => {
    fake.enqueue({ toolUses: [{ name: 'Write', input: { file_path: 'written.txt', content: 'x' } }] }, { text: 'done' });
    // The SDK joins the list with commas: an unclosed rule took the rest of the line into itself and matched nothing.
    const r = await runCli(['-p', 'w', '--accept-all', '--output-format', 'json', '--disallowedTools', 'Bash(rm:*,Write'], { cwd: dir, env: env() });
    expect(existsSync(path.join(dir, 'written.txt'))).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^thclaws: --disallowedTools: .*Bash\(rm:\*/);
  }, 90_000);

  it('a second initialize is refused, and the PreToolUse hooks of the first are not installed twice', async () => {
    fake.enqueue({ toolUses: [{ name: 'Write', input: { file_path: 'hooked.txt', content: 'x' } }] }, { text: 'done' });
    const child = spawn(process.execPath, [BIN, ...STREAM_ARGS], { cwd: dir, env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
    const send = (o: unknown) => child.stdin.write(`${JSON.stringify(o)}\n`);
    const lines: Record<string, any>[] = [];
    let buf = '';
    child.stdout.on('data', (b) => {
      buf += b;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = JSON.parse(buf.slice(0, nl)) as Record<string, any>;
        buf = buf.slice(nl + 1);
        lines.push(line);
        // Answer our side as the SDK would: every hook lets the call through, every permission is allowed.
        if (line.type === 'control_request') send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response: line.request.subtype === 'can_use_tool' ? { behavior: 'allow' } : {} } });
        if (line.type === 'result') child.stdin.end();
      }
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const init = { subtype: 'initialize', hooks: { PreToolUse: [{ matcher: 'Write', hookCallbackIds: ['hook_0'] }] } };
    send({ type: 'control_request', request_id: 'init-1', request: init });
    send({ type: 'control_request', request_id: 'init-2', request: init });
    send({ type: 'user', message: { role: 'user', content: 'write' }, parent_tool_use_id: null, session_id: '' });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    await exited;
    clearTimeout(timer);
    const answer = (id: string) => lines.find((l) => l.type === 'control_response' && l.response.request_id === id)?.response;
    expect(answer('init-1')?.subtype).toBe('success');
    expect(answer('init-2')?.subtype).toBe('error');
    expect(lines.filter((l) => l.type === 'control_request' && l.request.subtype === 'hook_callback')).toHaveLength(1);
    expect(existsSync(path.join(dir, 'hooked.txt'))).toBe(true);
  }, 90_000);
});
