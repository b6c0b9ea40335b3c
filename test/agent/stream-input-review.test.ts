/** `--input-format stream-json` fed bad lines between good ones: each bad line gets one readable error, the good turns all run. */
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
    const input = [user('one'), 'not json', '{"type":"user"}', user(42), user('two')].join('\n');
    const r = await runCli(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json'], {
      cwd: dir,
      env: scrubbedEnv(dir, { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url }),
      input,
    });
    expect(r.code).toBe(2);
    const out = r.stdout.trim().split('\n').map((l) => StreamJsonLine.parse(JSON.parse(l)));
    expect(out.filter((m) => m.type === 'result').map((m) => (m as { result: string }).result)).toEqual(['first', 'second']);
    const errs = r.stderr.trim().split('\n');
    expect(errs).toHaveLength(3);
    expect(errs[0]).toMatch(/^thclaws: stdin line 2: not a stream-json user message: .*not valid JSON/);
    expect(errs[1]).toMatch(/^thclaws: stdin line 3: not a stream-json user message: "message": .+; expected \{"type":"user"/);
    expect(errs[2]).toMatch(/^thclaws: stdin line 4: not a stream-json user message: "message\.content": .+/);
  });
});
