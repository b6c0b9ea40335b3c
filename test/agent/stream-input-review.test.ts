/** `--input-format stream-json` fed bad lines between good ones: each bad line gets one readable error, the good turns all run. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StreamJsonLine } from '../../src/core/agent/output-schema.js';
import type { FakeAnthropic } from './fake-anthropic.js';
import { useFakeApiWorkspace } from './harness.js';
import { runCli, scrubbedEnv } from './helpers.js';

describe('stream-json input with malformed lines (real process, fake API)', () => {
  let dir: string;
  let fake: FakeAnthropic;
  useFakeApiWorkspace({ cli: true, each: (w) => ({ dir, fake } = w) });

  it('names the line and the problem in one line each, runs every good line, exits 2', async () => {
    fake.enqueue({ text: 'first' }, { text: 'second' });
    const user = (content: unknown) => JSON.stringify({ type: 'user', message: { role: 'user', content } });
    // A malformed control_request whose id is readable is answered with an error response, not only logged.
    const badControl = JSON.stringify({ type: 'control_request', request_id: 'bad1', request: { subtype: '' } });
    // keep_alive is ignored (the SDK's transports send it); a message with a block we cannot take gets its own
    // error result in its place, and the session goes on.
    const badImage = user([{ type: 'text', text: 'see' }, { type: 'image', source: { type: 'base64', media_type: 'text/html', data: 'PGgxPg==' } }]);
    const input = [user('one'), 'not json', '{"type":"user"}', badControl, user(42), '{"type":"keep_alive"}', badImage, user('two'), '[1,2]'].join('\n');
    const r = await runCli(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json'], {
      cwd: dir,
      env: scrubbedEnv(dir, { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url }),
      input,
    });
    expect(r.code).toBe(2);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; response?: { subtype: string; request_id: string; error: string } });
    expect(lines.find((l) => l.type === 'control_response')?.response).toMatchObject({ subtype: 'error', request_id: 'bad1', error: expect.stringMatching(/^malformed control_request: /) });
    const out = lines.filter((l) => l.type !== 'control_response').map((l) => StreamJsonLine.parse(l));
    const results = out.filter((m) => m.type === 'result') as { result: string; is_error: boolean; errors?: string[] }[];
    expect(results.map((m) => m.result)).toEqual(['first', '', 'second']);
    expect(results[1]).toMatchObject({ is_error: true, errors: [expect.stringMatching(/^the user message on stdin line 7 was not run: content\[1\] \(image\): "source\.media_type": Invalid option/)] });
    expect(fake.requests).toHaveLength(2);
    const errs = r.stderr.trim().split('\n');
    expect(errs).toHaveLength(4);
    expect(errs[0]).toMatch(/^thclaws: stdin line 2: not a stream-json user message: .*not valid JSON/);
    expect(errs[1]).toMatch(/^thclaws: stdin line 3: not a stream-json user message: "message": .+; expected \{"type":"user"/);
    expect(errs[2]).toMatch(/^thclaws: stdin line 5: not a stream-json user message: "message\.content": .+/);
    // A line that is JSON but not an object: the problem is the whole line.
    expect(errs[3]).toMatch(/^thclaws: stdin line 9: not a stream-json user message: "\(line\)": .+/);
  });

  it('an Agent SDK flag thclaws cannot honour is refused by name in one line (exit 2); --setting-sources picks the settings files read', async () => {
    const env = scrubbedEnv(dir, { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url });
    const refused = await runCli(['-p', 'hi', '--betas', 'x'], { cwd: dir, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^thclaws: --betas is not supported by thclaws: .+\n$/);
    expect(fake.requests).toHaveLength(0);
    // Usage errors from the option parser are in the same one-line form, naming the flag given.
    const zero = await runCli(['-p', 'hi', '--max-turns', '0'], { cwd: dir, env });
    expect(zero).toMatchObject({ code: 2, stderr: 'thclaws: --max-turns must be a positive integer, got "0"\n' });
    const choice = await runCli(['-p', 'hi', '--permission-prompt-tool', 'mcp__x'], { cwd: dir, env });
    expect(choice).toMatchObject({ code: 2, stderr: expect.stringMatching(/^thclaws: option '--permission-prompt-tool <tool>' argument 'mcp__x' is invalid\. Allowed choices are stdio\.\n$/) });
    // Claude Code's --dangerously-skip-permissions is bypassPermissions: a Write runs with nobody to ask.
    fake.enqueue({ toolUses: [{ name: 'Write', input: { file_path: 'skip.txt', content: 's' } }] }, { text: 'written' });
    const skip = await runCli(['-p', 'write it', '--dangerously-skip-permissions'], { cwd: dir, env });
    expect(skip).toMatchObject({ code: 0, stdout: 'written\n' });
    expect(readFileSync(path.join(dir, 'skip.txt'), 'utf8')).toBe('s');
    fake.requests.length = 0;
    mkdirSync(path.join(dir, '.thclaws'), { recursive: true });
    writeFileSync(path.join(dir, '.thclaws/settings.json'), JSON.stringify({ model: 'haiku' }));
    fake.enqueue({ text: 'a' }, { text: 'b' });
    await runCli(['-p', 'hi'], { cwd: dir, env });
    await runCli(['-p', 'hi', '--setting-sources', 'user,local'], { cwd: dir, env });
    expect(fake.requests[0]!.body.model).toMatch(/haiku/);
    expect(fake.requests[1]!.body.model).not.toMatch(/haiku/);
  });
});
