import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeAnthropic } from './fake-anthropic.js';
import { useFakeApiWorkspace } from './harness.js';
import { REPO, runCli, scrubbedEnv } from './helpers.js';
import { StreamJsonLine } from '../../src/core/agent/output-schema.js';

describe('thclaws -p (real process)', () => {
  let dir: string;
  let fake: FakeAnthropic;
  useFakeApiWorkspace({ cli: true, each: (w) => ({ dir, fake } = w) });

  const withKey = () => scrubbedEnv(dir, { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url });
  const settings = (obj: unknown) => {
    mkdirSync(path.join(dir, '.thclaws'), { recursive: true });
    writeFileSync(path.join(dir, '.thclaws/settings.json'), JSON.stringify(obj));
  };

  it('without a key and without --provider scripted: one clear line, exit 2', async () => {
    const r = await runCli(['-p', 'hi'], { cwd: dir, env: scrubbedEnv(dir) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('thclaws: no API key: set ANTHROPIC_API_KEY, add one in the dashboard (thclaws dashboard), or run with --provider scripted --script <file>\n');
  });

  it('--version prints the package version and exits 0 without a key', async () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string };
    const r = await runCli(['--version'], { cwd: dir, env: scrubbedEnv(dir) });
    expect(r).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('--permission-mode auto runs guarded tools without asking; the flag beats settings', async () => {
    settings({ permissionMode: 'ask' });
    fake.enqueue({ toolUses: [{ name: 'Write', input: { path: 'auto.txt', content: 'auto' } }] }, { text: 'wrote it' });
    const r = await runCli(['-p', 'write', '--permission-mode', 'auto'], { cwd: dir, env: withKey() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('wrote it\n');
    expect(readFileSync(path.join(dir, 'auto.txt'), 'utf8')).toBe('auto');
    const bad = await runCli(['-p', 'x', '--permission-mode', 'sometimes'], { cwd: dir, env: withKey() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--permission-mode.*sometimes/);
  });

  it('an untrusted folder\'s settings cannot switch off permission prompts in -p; it says so on stderr', async () => {
    settings({ permissionMode: 'auto', permissions: { allow: ['Bash'] } });
    const outside = path.join(dir, '..', `escape-${path.basename(dir)}.txt`);
    fake.enqueue({ toolUses: [{ name: 'Bash', input: { command: `echo pwned > ${outside}` } }] }, { text: 'tried' });
    const r = await runCli(['-p', 'go'], { cwd: dir, env: withKey() });
    // Its one tool call was refused: the run did nothing, says so, and exits 1.
    expect(r.code).toBe(1);
    expect(existsSync(outside)).toBe(false);
    expect(r.stderr).toBe(
      `thclaws: ${dir} is not a trusted folder: ignoring project settings that loosen permissions (${path.join(dir, '.thclaws/settings.json')}: permissionMode, ${path.join(dir, '.thclaws/settings.json')}: permissions.allow); trust it by answering the question in the REPL, or pass --accept-all\n` +
        'thclaws: every tool call failed (1 of 1); the last: Bash: permission denied: no one to approve in this mode; run with --accept-all or --permission-mode auto\n',
    );
    expect(fake.requests[1]!.body.messages.at(-1).content[0].content).toMatch(/^permission denied/);
    // Trusted (by the person, in the user's config): the same settings apply.
    mkdirSync(path.join(dir, '.config/thclaws'), { recursive: true });
    writeFileSync(path.join(dir, '.config/thclaws/trusted-folders.json'), JSON.stringify({ folders: [dir] }));
    const inside = path.join(dir, 'trusted.txt');
    fake.enqueue({ toolUses: [{ name: 'Bash', input: { command: `echo ok > ${inside}` } }] }, { text: 'done' });
    const t = await runCli(['-p', 'go'], { cwd: dir, env: withKey() });
    expect(t.stderr).toBe('');
    expect(readFileSync(inside, 'utf8')).toBe('ok\n');
  });

  it('--provider scripted uses the embedded demo script', async () => {
    const r = await runCli(['-p', 'hello', '--provider', 'scripted'], { cwd: dir, env: scrubbedEnv(dir) });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Hello! I am thclaws/);
  });

  it('runs a tool-using prompt against the fake API with --accept-all; json output', async () => {
    fake.enqueue(
      { toolUses: [{ name: 'Bash', input: { command: 'echo made > made.txt && echo ok' } }], usage: { input_tokens: 1000, output_tokens: 100 } },
      { text: 'All done.', usage: { input_tokens: 1200, output_tokens: 50 } },
    );
    const r = await runCli(['-p', 'do it', '--accept-all', '--output-format', 'json', '--model', 'claude-sonnet-4-6'], { cwd: dir, env: withKey() });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ result: 'All done.', is_error: false, usage: { input_tokens: 2200, output_tokens: 150 } });
    // sonnet 4.6: $3/M in, $15/M out
    expect(out.total_cost_usd).toBeCloseTo((2200 * 3 + 150 * 15) / 1e6, 8);
    expect(readFileSync(path.join(dir, 'made.txt'), 'utf8')).toBe('made\n');
    expect(fake.requests[0]!.body.model).toBe('claude-sonnet-4-6');
    // The transcript is on disk under the returned id.
    const file = path.join(dir, '.thclaws/sessions', `${out.session_id}.jsonl`);
    expect(readFileSync(file, 'utf8')).toContain('"All done."');
  });

  it('in ask mode without a person, guarded tools are refused and nothing runs', async () => {
    fake.enqueue({ toolUses: [{ name: 'Write', input: { path: 'x.txt', content: 'x' } }] }, { text: 'could not write' });
    const r = await runCli(['-p', 'write x'], { cwd: dir, env: withKey() });
    // Every tool call failed: the answer is printed, the run says it did nothing and exits 1.
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('could not write\n');
    expect(r.stderr).toMatch(/^thclaws: every tool call failed \(1 of 1\); the last: Write: permission denied/m);
    expect(existsSync(path.join(dir, 'x.txt'))).toBe(false);
    const toolResult = fake.requests[1]!.body.messages.at(-1).content[0];
    expect(toolResult.content).toMatch(/^permission denied: no one to approve/);
  });


  it('API failures exit non-zero with the reason; 529 is retried first', async () => {
    settings({ retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 2 } });
    fake.enqueue({ kind: 'error', status: 529, message: 'Overloaded' }, { kind: 'error', status: 529, message: 'Overloaded' });
    const r = await runCli(['-p', 'x'], { cwd: dir, env: withKey() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('thclaws: API error 529: Overloaded (gave up after 2 attempts)');
    // stream-json: the retry is announced with the SDK's fields (HTTP status, error category), then the result.
    fake.enqueue({ kind: 'error', status: 529, message: 'Overloaded' }, { kind: 'error', status: 401, message: 'invalid key' });
    const j = await runCli(['-p', 'x', '--output-format', 'stream-json'], { cwd: dir, env: withKey() });
    expect(j.code).toBe(1);
    const lines = j.stdout.trim().split('\n').map((l) => StreamJsonLine.parse(JSON.parse(l)));
    expect(lines.find((l) => l.type === 'system' && l.subtype === 'api_retry')).toMatchObject({ attempt: 1, error_status: 529, error: 'overloaded', error_message: 'API error 529: Overloaded' });
    expect(lines.at(-1)).toMatchObject({ is_error: true, subtype: 'error_during_execution', errors: ['authentication failed (401): check ANTHROPIC_API_KEY — invalid key'] });
  });

  it('--max-iterations stops a looping model with a non-zero exit', async () => {
    fake.fallback = { toolUses: [{ name: 'Read', input: { path: 'nope.txt' } }] };
    const r = await runCli(['-p', 'loop', '--max-iterations', '2'], { cwd: dir, env: withKey() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('stopped after 2 iterations');
    expect(fake.requests).toHaveLength(2);
  });

  it('--resume continues a saved session', async () => {
    fake.enqueue({ text: 'first answer' });
    const a = await runCli(['-p', 'first question', '--output-format', 'json'], { cwd: dir, env: withKey() });
    const id = JSON.parse(a.stdout).session_id as string;
    fake.enqueue({ text: 'second answer' });
    const b = await runCli(['-p', 'second question', '--resume', id, '--output-format', 'json'], { cwd: dir, env: withKey() });
    expect(b.code).toBe(0);
    expect(JSON.parse(b.stdout).session_id).toBe(id);
    const sent = fake.requests[1]!.body.messages.map((m: { role: string; content: Array<{ text?: string }> }) => `${m.role}:${m.content[0]!.text}`);
    expect(sent).toEqual(['user:first question', 'assistant:first answer', 'user:second question']);
    expect(readdirSync(path.join(dir, '.thclaws/sessions'))).toEqual([`${id}.jsonl`]);
    const bad = await runCli(['-p', 'x', '--resume', 'no-such-id'], { cwd: dir, env: withKey() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^thclaws: no session "no-such-id"/);
  });

  it('an invalid settings key is a clear error naming the key', async () => {
    settings({ maxIterations: 'many', somethingNew: true });
    const r = await runCli(['-p', 'x', '--provider', 'scripted'], { cwd: dir, env: scrubbedEnv(dir) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^thclaws: invalid settings file .*settings\.json: key "maxIterations": /);
  });

  it('settings pick the provider and model; an invalid script names the field', async () => {
    settings({ provider: 'scripted', unknownKeyIsKept: 1 });
    const ok = await runCli(['-p', 'hello'], { cwd: dir, env: scrubbedEnv(dir) });
    expect(ok.code).toBe(0);
    writeFileSync(path.join(dir, 's.json'), JSON.stringify({ rules: [{ turns: [{ txt: 'typo' }] }] }));
    const bad = await runCli(['-p', 'x', '--script', 's.json'], { cwd: dir, env: scrubbedEnv(dir) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^thclaws: invalid script .*s\.json: at "rules\.0\.turns\.0"/);
  });

  it('--team-agent sets the team env for tools; --cwd moves the workspace', async () => {
    mkdirSync(path.join(dir, 'ws'));
    writeFileSync(
      path.join(dir, 's.json'),
      JSON.stringify({ rules: [{ turns: [{ tool_calls: [{ name: 'Bash', input: { command: 'echo "$THCLAWS_TEAM_AGENT|$THCLAWS_TEAM_DIR|$PWD"' } }] }, { text: 'ok' }] }] }),
    );
    const r = await runCli(
      ['-p', 'x', '--script', path.join(dir, 's.json'), '--accept-all', '--team-agent', 'alice', '--team-dir', 'team', '--cwd', 'ws', '--output-format', 'stream-json'],
      { cwd: dir, env: scrubbedEnv(dir) },
    );
    expect(r.code).toBe(0);
    const user = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.type === 'user');
    const ws = path.join(dir, 'ws');
    expect(user.message.content[0].content).toBe(`alice|${path.join(ws, 'team')}|${ws}\n[exit code 0]`);
  });

  it("the desktop host's forced teammate mode stays with the lead: its Bash (a person's own thclaws run there) never inherits it", async () => {
    writeFileSync(
      path.join(dir, 's.json'),
      JSON.stringify({ rules: [{ turns: [{ tool_calls: [{ name: 'Bash', input: { command: 'echo "mode=${THCLAWS_TEAMMATE_MODE-unset}"' } }] }, { text: 'ok' }] }] }),
    );
    const r = await runCli(['-p', 'x', '--script', path.join(dir, 's.json'), '--accept-all', '--output-format', 'stream-json'], {
      cwd: dir,
      env: scrubbedEnv(dir, { THCLAWS_TEAMMATE_MODE: 'host' }),
    });
    expect(r.code).toBe(0);
    const user = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.type === 'user');
    expect(user.message.content[0].content).toBe('mode=unset\n[exit code 0]');
  });
});
