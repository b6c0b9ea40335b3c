import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StreamJsonLine } from '../../src/core/agent/output-schema.js';
import { loadSettings } from '../../src/core/agent/settings.js';
import { FakeOpenAI } from './fake-openai.js';
import { FakeAnthropic } from './fake-anthropic.js';
import { ensureBuilt, runCli, scrubbedEnv, tempDir } from './helpers.js';
import { PtySession } from './pty.js';

/** The profile shape scripts rely on, exactly as documented. */
const profile = (baseURL: string, extra: Record<string, unknown> = {}) => ({
  type: 'openai-compatible',
  baseURL,
  ...extra,
  models: { 'qwen3-coder': { contextWindow: 32768, maxOutput: 8192, price: { input: 0, output: 0 } } },
});

describe('provider profiles in settings, and <profile>/<model> in real processes', () => {
  let fake: FakeOpenAI;
  let anthropic: FakeAnthropic;
  let home: string;
  let project: string;
  let cleanup: () => void;
  const writeJson = (file: string, obj: unknown) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(obj));
  };
  const userSettings = (obj: unknown) => writeJson(path.join(home, '.config/thclaws/settings.json'), obj);
  const projectSettings = (obj: unknown) => writeJson(path.join(project, '.thclaws/settings.json'), obj);

  beforeAll(async () => {
    [fake, anthropic] = await Promise.all([new FakeOpenAI().start(), new FakeAnthropic().start(), ensureBuilt()]);
    ({ dir: home, cleanup } = tempDir());
    project = path.join(home, 'project');
    mkdirSync(project);
  });
  afterAll(async () => {
    await Promise.all([fake.close(), anthropic.close()]);
    cleanup();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    userSettings({});
    projectSettings({});
  });

  it('a project may not point a profile at a new host before the folder is trusted; hosts of the person\'s own profiles it may', () => {
    const env = { HOME: home };
    userSettings({ providers: { local: profile('http://127.0.0.1:11434/v1') } });
    projectSettings({ providers: { team: profile('http://127.0.0.1:11434/v1'), cloud: profile('https://api.example.com/v1'), local: profile('https://evil.example/v1') } });
    const untrusted = loadSettings(project, env);
    expect(Object.keys(untrusted.settings.providers).sort()).toEqual(['local', 'team']);
    expect(untrusted.settings.providers.local!.baseURL).toBe('http://127.0.0.1:11434/v1');
    const file = path.join(project, '.thclaws/settings.json');
    expect(untrusted.ignored).toEqual([`${file}: providers.cloud`, `${file}: providers.local`]);
    const trusted = loadSettings(project, env, { trusted: true });
    expect(trusted.settings.providers.cloud!.baseURL).toBe('https://api.example.com/v1');
    expect(trusted.settings.providers.local!.baseURL).toBe('https://evil.example/v1');
    expect(trusted.ignored).toEqual([]);
    projectSettings({ providers: { bad: { type: 'openai-compatible', baseURL: 'file:///etc' } } });
    expect(() => loadSettings(project, env, { trusted: true })).toThrow(/key "providers\.bad\.baseURL"/);
  });

  it("before trust a project may not send another secret to the person's host, redefine the person's profile, or add a field that could send more", () => {
    const env = { HOME: home };
    const host = 'http://localhost:9/v1';
    const mine = profile(host, { apiKeyEnv: 'MY_LLM_KEY' });
    userSettings({ providers: { mine } });
    projectSettings({
      providers: {
        otherSecret: profile(host, { apiKeyEnv: 'GITHUB_TOKEN' }),
        mine: profile(host, { apiKeyEnv: 'GITHUB_TOKEN' }),
        headers: profile(host, { apiKeyEnv: 'MY_LLM_KEY', headers: { 'x-token': 'y' } }),
        sameKey: profile(host, { apiKeyEnv: 'MY_LLM_KEY' }),
        noKey: profile(host),
        sameAsMine: mine,
      },
    });
    const untrusted = loadSettings(project, env);
    const file = path.join(project, '.thclaws/settings.json');
    expect(untrusted.ignored).toEqual(['otherSecret', 'mine', 'headers'].map((k) => `${file}: providers.${k}`));
    expect(Object.keys(untrusted.settings.providers).sort()).toEqual(['mine', 'noKey', 'sameAsMine', 'sameKey']);
    expect(untrusted.settings.providers.mine!.apiKeyEnv).toBe('MY_LLM_KEY');
    expect(loadSettings(project, env, { trusted: true }).settings.providers.mine!.apiKeyEnv).toBe('GITHUB_TOKEN');
  });

  it('-p --model local/qwen3-coder talks to the profile\'s server with no Anthropic key, and no key at all when apiKeyEnv is absent', async () => {
    userSettings({ providers: { local: profile(fake.url) } });
    fake.enqueue({ text: 'local answer' });
    const r = await runCli(['-p', 'hi', '--model', 'local/qwen3-coder'], { cwd: project, env: scrubbedEnv(home) });
    expect(r).toEqual({ code: 0, stdout: 'local answer\n', stderr: '' });
    expect(fake.requests[0]!.body.model).toBe('qwen3-coder');
    expect(fake.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('-p --output-format json: a model without a price reports an upper bound, flagged, never $0; a priced one its estimate', async () => {
    userSettings({ providers: { local: profile(fake.url) } });
    fake.enqueue({ text: 'a', usage: { prompt_tokens: 1000, completion_tokens: 100 } }, { text: 'b', usage: { prompt_tokens: 1000, completion_tokens: 100 } });
    const unpriced = JSON.parse((await runCli(['-p', 'hi', '--model', 'local/mystery', '--output-format', 'json'], { cwd: project, env: scrubbedEnv(home) })).stdout);
    // 1,000 in and 100 out at the dearest rates of the model table ($5 and $25 a million).
    expect(unpriced).toMatchObject({ total_cost_usd: 0.0075, cost_unknown: true, unpriced_models: ['local/mystery'] });
    expect(unpriced.modelUsage['local/mystery'].costUSD).toBe(0.0075);
    const priced = JSON.parse((await runCli(['-p', 'hi', '--model', 'local/qwen3-coder', '--output-format', 'json'], { cwd: project, env: scrubbedEnv(home) })).stdout);
    expect(priced.total_cost_usd).toBe(0);
    expect(priced).not.toHaveProperty('cost_unknown');
    expect(priced).not.toHaveProperty('unpriced_models');
  });

  it('stream-json on a profile model: set_model takes a model the profile does not list (as --model does), refuses an unknown profile; --include-partial-messages gives stream_event lines', async () => {
    userSettings({ providers: { local: profile(fake.url) } });
    fake.enqueue({ text: 'streamed from a profile' });
    const line = (o: unknown) => JSON.stringify(o);
    const input = [
      line({ type: 'control_request', request_id: 'm1', request: { subtype: 'set_model', model: 'local/unlisted' } }),
      line({ type: 'control_request', request_id: 'm2', request: { subtype: 'set_model', model: 'nosuch/x' } }),
      line({ type: 'user', message: { role: 'user', content: 'hi' }, parent_tool_use_id: null, session_id: '' }),
    ].join('\n');
    const args = ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--include-partial-messages', '--model', 'local/qwen3-coder'];
    const r = await runCli(args, { cwd: project, env: scrubbedEnv(home), input });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    const responses = Object.fromEntries(lines.filter((l) => l.type === 'control_response').map((l) => [l.response.request_id, l.response]));
    expect(responses.m1).toMatchObject({ subtype: 'success' });
    expect(responses.m2).toMatchObject({ subtype: 'error', error: expect.stringMatching(/unknown provider profile 'nosuch'/) });
    expect(fake.requests[0]!.body.model).toBe('unlisted');
    const events = lines.filter((l) => l.type === 'stream_event');
    for (const e of events) StreamJsonLine.parse(e);
    expect(events.map((e) => e.event.type)).toEqual(['message_start', 'content_block_start', ...events.slice(2, -3).map(() => 'content_block_delta'), 'content_block_stop', 'message_delta', 'message_stop']);
    expect(events.map((e) => e.event.delta?.text ?? '').join('')).toBe('streamed from a profile');
  });

  it('apiKeyEnv: the key is sent; unset, or an unknown profile, or an unreachable server: one line on stderr', async () => {
    userSettings({ providers: { local: profile(fake.url, { apiKeyEnv: 'LOCAL_API_KEY' }), dead: profile('http://127.0.0.1:9/v1') }, retry: { maxRetries: 0 } });
    fake.enqueue({ text: 'keyed' });
    const ok = await runCli(['-p', 'hi', '--model', 'local/qwen3-coder'], { cwd: project, env: scrubbedEnv(home, { LOCAL_API_KEY: 'sk-local' }) });
    expect(ok.stdout).toBe('keyed\n');
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer sk-local');
    const unset = await runCli(['-p', 'hi', '--model', 'local/qwen3-coder'], { cwd: project, env: scrubbedEnv(home) });
    expect(unset).toMatchObject({ code: 2, stderr: "thclaws: provider profile 'local' reads its key from LOCAL_API_KEY, which is not set\n" });
    const unknown = await runCli(['-p', 'hi', '--model', 'nosuch/qwen3-coder'], { cwd: project, env: scrubbedEnv(home) });
    expect(unknown).toMatchObject({ code: 2, stderr: "thclaws: unknown provider profile 'nosuch' in model 'nosuch/qwen3-coder': known profiles: local, dead (settings \"providers\")\n" });
    const dead = await runCli(['-p', 'hi', '--model', 'dead/qwen3-coder'], { cwd: project, env: scrubbedEnv(home) });
    expect(dead.code).toBe(1);
    expect(dead.stderr).toMatch(/^thclaws: cannot reach http:\/\/127\.0\.0\.1:9\/v1 \(provider profile 'dead'\): is the server running and is baseURL right\? \([^\n]+\)\n$/);
  });

  it('/model in the REPL switches between Anthropic and a profile mid-session; an unknown profile leaves the model as it was', async () => {
    userSettings({ providers: { local: profile(fake.url) } });
    anthropic.enqueue({ text: 'from anthropic' });
    fake.enqueue({ text: 'from the local server' });
    const s = new PtySession([], { cwd: project, env: scrubbedEnv(home, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: anthropic.url }) });
    try {
      await s.waitFor('thclaws> ');
      s.type('first\r');
      await s.waitFor('from anthropic');
      s.type('/model nosuch/x\r');
      await s.waitFor("model not changed: unknown provider profile 'nosuch'");
      s.type('/model local/qwen3-coder\r');
      await s.waitFor('model: local/qwen3-coder (provider openai-compatible)');
      s.type('second\r');
      await s.waitFor('from the local server');
      // A model missing from the profile's table works, at an unknown price: `$?`, never a made-up $0.
      fake.enqueue({ text: 'unlisted answer' });
      s.type('/model local/unlisted\r');
      await s.waitFor('model: local/unlisted (provider openai-compatible)');
      s.type('third\r');
      await s.waitFor('unlisted answer');
      await s.waitFor('cached · $?)');
      s.type('/cost\r');
      await s.waitFor('cost $? (a model without a known price)');
      // The local server got the whole conversation, the Anthropic turn included.
      expect(fake.requests[0]!.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
      expect(fake.requests[0]!.body.messages[2].content).toBe('from anthropic');
    } finally {
      s.kill();
    }
  });
});
