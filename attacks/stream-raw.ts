/**
 * Attack: the stream-json control protocol driven line by line (what an SDK host or a script may send),
 * real `thclaws` process, fake Messages API. Run: npx tsx attacks/stream-raw.ts [case...]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeAnthropic } from '../test/agent/fake-anthropic.js';
import { BIN, scrubbedEnv } from '../test/agent/helpers.js';

const ARGS = ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--permission-prompt-tool', 'stdio'];
const user = (content: unknown) => ({ type: 'user', message: { role: 'user', content }, parent_tool_use_id: null, session_id: '' });
const ctl = (id: string, request: object) => ({ type: 'control_request', request_id: id, request });

interface Run { code: number | null; signal: string | null; stdout: string; stderr: string; lines: any[]; ms: number }

/** Writes lines one by one, waiting for `until(line)` on stdout after each step that sets it; ends stdin at the end. */
async function drive(dir: string, fake: FakeAnthropic, steps: Array<{ send?: unknown | string; waitFor?: (l: any) => boolean; delayMs?: number }>, timeoutMs = 30_000, extraArgs: string[] = []): Promise<Run> {
  const t0 = Date.now();
  const child = spawn(BIN, [...ARGS, ...extraArgs], { cwd: dir, env: scrubbedEnv(dir, { ANTHROPIC_API_KEY: 't', ANTHROPIC_BASE_URL: fake.url }) });
  let stdout = '';
  let stderr = '';
  const lines: any[] = [];
  let waiter: ((l: any) => void) | undefined;
  child.stdout.on('data', (d) => {
    stdout += d;
    const parts = stdout.split('\n');
    for (const p of parts.slice(lines.length, -1)) {
      let o: any;
      try { o = JSON.parse(p); } catch { o = { unparsable: p }; }
      lines.push(o);
      waiter?.(o);
    }
  });
  child.stderr.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const done = new Promise<[number | null, string | null]>((r) => child.on('close', (c, s) => r([c, s])));
  for (const s of steps) {
    const canUse = lines.find((l) => l.type === 'control_request' && l.request?.subtype === 'can_use_tool');
    const text = s.send === undefined ? undefined : typeof s.send === 'string' ? s.send : `${JSON.stringify(s.send).replace('__CAN_USE_TOOL__', canUse?.request_id ?? '')}\n`;
    if (text !== undefined) child.stdin.write(text);
    if (s.waitFor) {
      const w = s.waitFor;
      if (!lines.some(w)) await Promise.race([new Promise<void>((r) => (waiter = (l) => w(l) && r())), done]);
    }
    if (s.delayMs) await new Promise((r) => setTimeout(r, s.delayMs));
  }
  child.stdin.end();
  const [code, signal] = await done;
  clearTimeout(timer);
  return { code, signal, stdout, stderr, lines, ms: Date.now() - t0 };
}

const isResult = (l: any) => l.type === 'result';
const resp = (id: string) => (l: any) => l.type === 'control_response' && l.response?.request_id === id;
const summary = (r: Run) => `exit=${r.code}${r.signal ? ` signal=${r.signal}` : ''} ms=${r.ms} results=${r.lines.filter(isResult).map((l) => `${l.subtype}:${JSON.stringify(l.result)?.slice(0, 80)}`).join(' | ')}\n  control_responses=${JSON.stringify(r.lines.filter((l) => l.type === 'control_response').map((l) => l.response))}\n  stderr=${JSON.stringify(r.stderr.slice(0, 600))}`;

const cases: Record<string, (dir: string, fake: FakeAnthropic) => Promise<string>> = {
  async 'set_model to an unknown profile'(dir, fake) {
    fake.enqueue({ text: 'ok' });
    const r = await drive(dir, fake, [{ send: ctl('m1', { subtype: 'set_model', model: 'nosuch/x' }), waitFor: resp('m1') }, { send: user('hi'), waitFor: isResult }]);
    return `expect: error response for m1, the turn answered, exit 0\n  ${summary(r)}`;
  },
  async 'set_model to a path-ish name'(dir, fake) {
    fake.enqueue({ text: 'ok' });
    const r = await drive(dir, fake, [{ send: ctl('m2', { subtype: 'set_model', model: '../../etc/passwd' }), waitFor: resp('m2') }, { send: user('hi'), waitFor: isResult }]);
    return `expect: error response, exit 0\n  ${summary(r)}`;
  },
  async 'malformed JSON line then a good turn'(dir, fake) {
    fake.enqueue({ text: 'ok' });
    const r = await drive(dir, fake, [{ send: '{"type":"control_req\n' }, { send: user('hi'), waitFor: isResult }]);
    return `expect: complaint on stderr; the session goes on (exit code decides whether the SDK throws)\n  ${summary(r)}`;
  },
  async 'unknown control subtype and unknown line type (keep_alive)'(dir, fake) {
    fake.enqueue({ text: 'ok' });
    const r = await drive(dir, fake, [{ send: ctl('u1', { subtype: 'get_context_usage' }), waitFor: resp('u1') }, { send: { type: 'keep_alive' } }, { send: { type: 'update_environment_variables', variables: { A: '1' } } }, { send: user('hi'), waitFor: isResult }]);
    return `expect: error response to u1; keep_alive ignored; exit 0\n  ${summary(r)}`;
  },
  async 'initialize with a hanging MCP server, then mcp_status and a turn'(dir, fake) {
    fake.enqueue({ text: 'ok' });
    const r = await drive(dir, fake, [
      { send: ctl('i1', { subtype: 'initialize', mcpServers: { hang: { type: 'stdio', command: 'sleep', args: ['600'] } } }) },
      { send: ctl('s1', { subtype: 'mcp_status' }) },
      { send: user('hi'), waitFor: isResult },
    ], 90_000);
    return `expect: initialize answered within a bounded time (server marked failed), the turn runs\n  ${summary(r)}`;
  },
  async 'initialize with a failing MCP server (command not found)'(dir, fake) {
    fake.enqueue({ text: 'ok' });
    const r = await drive(dir, fake, [{ send: ctl('i2', { subtype: 'initialize', mcpServers: { bad: { type: 'stdio', command: '/nonexistent/mcp' } } }), waitFor: resp('i2') }, { send: user('hi'), waitFor: isResult }]);
    return `expect: initialize answered (server failed in mcp_servers), turn runs\n  ${summary(r)}`;
  },
  async 'image with bad base64 and wrong media type'(dir, fake) {
    fake.enqueue({ text: 'ok' }, { text: 'ok2' });
    const r = await drive(dir, fake, [
      { send: user([{ type: 'text', text: 'see' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: '!!!not base64!!!' } }]), waitFor: isResult },
      { send: user([{ type: 'image', source: { type: 'base64', media_type: 'text/html', data: 'PGgxPg==' } }]), waitFor: (l) => l.type === 'result' && r2(l) },
    ]);
    function r2(_l: any) { return true; }
    return `expect: a clear per-turn error (or the image sent as-is) and the session goes on\n  ${summary(r)}\n  requests=${fake.requests.length}`;
  },
  async 'huge line (30 MB user text)'(dir, fake) {
    fake.enqueue({ text: 'ok' }, { text: 'ok2' });
    const r = await drive(dir, fake, [{ send: user('x'.repeat(30_000_000)), waitFor: isResult }, { send: user('small'), waitFor: (l) => l.type === 'result' && l.result === 'ok2' }], 60_000);
    return `expect: refused with a clear error or sent; the session goes on\n  ${summary(r)}\n  requests=${fake.requests.length} sizes=${fake.requests.map((q) => JSON.stringify(q.body).length)}`;
  },
  async 'control line mid-turn: set_permission_mode plan while a Write is pending'(dir, fake) {
    fake.enqueue({ toolUses: [{ name: 'Write', input: { file_path: 'w.txt', content: 'x' } }] }, { text: 'done' });
    const r = await drive(dir, fake, [
      { send: user('write'), waitFor: (l) => l.type === 'control_request' && l.request?.subtype === 'can_use_tool' },
      { send: ctl('p1', { subtype: 'set_permission_mode', mode: 'plan' }), waitFor: resp('p1') },
      { send: { type: 'control_response', response: { subtype: 'success', request_id: '__CAN_USE_TOOL__', response: { behavior: 'allow' } } }, waitFor: isResult },
    ], 20_000);
    return `expect: the mode switch answered while the turn runs; whether w.txt is written after the host allows it under plan: ${fs.existsSync(path.join(dir, 'w.txt'))}\n  ${summary(r)}`;
  },
};

const only = process.argv.slice(2);
for (const [name, fn] of Object.entries(cases)) {
  if (only.length && !only.some((o) => name.includes(o))) continue;
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'stream-raw-')));
  const fake = await new FakeAnthropic().start();
  try {
    console.log(`\n## ${name}\n  ${await fn(dir, fake)}`);
  } catch (e) {
    console.log(`\n## ${name}\n  HARNESS ERROR ${(e as Error).stack}`);
  } finally {
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
