/**
 * Hostile review of `--continue` (the Agent SDK's `continue: true`): teammates keep their sessions in the same
 * project folder as the person's, and are often the ones that wrote last. `--continue` must resume the
 * person's newest conversation, never a teammate's (whose file that teammate may still be appending to).
 */
import { readFileSync, utimesSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SessionStore } from '../../src/core/agent/sessions.js';
import type { FakeAnthropic } from './fake-anthropic.js';
import { useFakeApiWorkspace } from './harness.js';
import { runCli, scrubbedEnv } from './helpers.js';

describe('--continue in a project where a team ran', () => {
  let dir: string;
  let fake: FakeAnthropic;
  useFakeApiWorkspace({ cli: true, each: (w) => ({ dir, fake } = w) });

  it("resumes the person's newest session, not a teammate's newer one", async () => {
    const mine = SessionStore.create(dir, { model: 'claude-sonnet-5-5', provider: 'anthropic', cwd: dir });
    mine.appendMessage({ role: 'user', content: [{ type: 'text', text: 'PERSON-MARKER question' }] });
    mine.appendMessage({ role: 'assistant', content: [{ type: 'text', text: 'person answer' }] });
    const alice = SessionStore.create(dir, { model: 'claude-sonnet-5-5', provider: 'anthropic', cwd: dir, agentName: 'alice' });
    alice.appendMessage({ role: 'user', content: [{ type: 'text', text: 'ALICE-MARKER task from the lead' }] });
    alice.appendMessage({ role: 'assistant', content: [{ type: 'text', text: 'alice answer' }] });
    // The teammate wrote last.
    utimesSync(mine.file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const aliceBefore = readFileSync(alice.file, 'utf8');

    fake.enqueue({ text: 'continued' });
    const r = await runCli(['-p', 'and then?', '--continue', '--output-format', 'json'], { cwd: dir, env: scrubbedEnv(dir, { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url }) });
    expect(r.code, r.stderr).toBe(0);
    const sent = JSON.stringify(fake.requests[0]!.body.messages);
    expect(sent).toContain('PERSON-MARKER');
    expect(sent).not.toContain('ALICE-MARKER');
    expect(readFileSync(alice.file, 'utf8')).toBe(aliceBefore);
  }, 90_000);
});
