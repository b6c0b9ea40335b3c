/**
 * The OpenAI-compatible provider in a real `thclaws -p` process on the real `openai` package against the
 * local fake server: a turn of many model calls warns nothing (one abort listener per call, removed after it),
 * and a body that is not JSON is said once per retry in our words, never as the SDK's own console lines.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOpenAI } from './fake-openai.js';
import { ensureBuilt, runCli, scrubbedEnv, tempDir } from './helpers.js';

describe('openai-compatible -p runs: no warnings, no SDK console noise', () => {
  let fake: FakeOpenAI;
  let home: string;
  let project: string;
  let cleanup: () => void;
  beforeAll(async () => {
    [fake] = await Promise.all([new FakeOpenAI().start(), ensureBuilt()]);
    ({ dir: home, cleanup } = tempDir());
    project = path.join(home, 'project');
    mkdirSync(project);
    writeFileSync(path.join(project, 'notes.md'), '# notes\n');
    mkdirSync(path.join(home, '.config/thclaws'), { recursive: true });
    writeFileSync(
      path.join(home, '.config/thclaws/settings.json'),
      JSON.stringify({
        retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5 },
        providers: { local: { type: 'openai-compatible', baseURL: fake.url, models: { 'qwen3-coder': { contextWindow: 32768, maxOutput: 8192, price: { input: 0, output: 0 } } } } },
      }),
    );
  });
  afterAll(async () => {
    await fake.close();
    cleanup();
  });

  it('14 model calls in one turn: no MaxListenersExceededWarning on stderr, the turn ends with its answer', async () => {
    fake.requests.length = 0;
    for (let i = 0; i < 13; i++) fake.enqueue({ toolCalls: [{ name: 'Glob', arguments: { pattern: '*.md' } }] });
    fake.enqueue({ text: 'found the notes' });
    const r = await runCli(['-p', 'look around', '--model', 'local/qwen3-coder'], { cwd: project, env: scrubbedEnv(home) });
    expect(r.stderr).not.toContain('MaxListenersExceededWarning');
    expect(r.stderr).toBe('');
    expect(r).toMatchObject({ code: 0, stdout: 'found the notes\n' });
    expect(fake.requests).toHaveLength(14);
  });

  it('a stream chunk that is not JSON: one line of ours per retry, none of the SDK\'s "Could not parse message into JSON"', async () => {
    fake.requests.length = 0;
    fake.enqueue({ kind: 'bad-json', data: '<html>502 Bad Gateway</html>' }, { kind: 'bad-json', data: '<html>502 Bad Gateway</html>' }, { text: 'recovered' });
    const r = await runCli(['-p', 'hi', '--model', 'local/qwen3-coder'], { cwd: project, env: scrubbedEnv(home) });
    expect(r.stderr).not.toContain('Could not parse message into JSON');
    expect(r.stderr).not.toContain('From chunk');
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    for (const [i, l] of lines.entries()) expect(l).toMatch(new RegExp(`^thclaws: retry ${i + 1} in \\d+\\.\\d s: .* sent a stream chunk that is not JSON \\(.*\\)$`));
    expect(r).toMatchObject({ code: 0, stdout: 'recovered\n' });
  });
});
