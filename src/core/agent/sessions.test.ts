import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/agent/helpers.js';
import { SessionStore, newSessionId } from './sessions.js';

describe('sessions', () => {
  let root: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir: root, cleanup } = tempDir()));
  afterEach(() => cleanup());

  it('ids are UUIDs (as the Agent SDK expects) and unique; an old time-stamped id still resumes', () => {
    expect(newSessionId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newSessionId()).not.toBe(newSessionId());
    const old = '20260102-030405-abcdef';
    mkdirSync(path.join(root, '.thclaws/sessions'), { recursive: true });
    writeFileSync(path.join(root, '.thclaws/sessions', `${old}.jsonl`), `${JSON.stringify({ type: 'meta', id: old, createdAt: '', model: 'm', provider: 'scripted', cwd: root })}\n`);
    expect(SessionStore.resume(root, old).store.id).toBe(old);
  });

  it('round-trips messages and usage through JSONL', () => {
    const s = SessionStore.create(root, { model: 'm', provider: 'scripted', cwd: root });
    s.appendMessage({ role: 'user', content: [{ type: 'text', text: 'q' }] });
    s.appendMessage({ role: 'assistant', content: [{ type: 'text', text: 'a' }] });
    s.append({ type: 'usage', at: '', model: 'm', usage: { inputTokens: 3, outputTokens: 4, cacheReadTokens: 1, cacheWriteTokens: 2 } });
    const lines = readFileSync(s.file, 'utf8').trim().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'meta', id: s.id });
    const r = SessionStore.resume(root, s.id);
    expect(r.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'a' }] },
    ]);
    expect(r.usage.outputTokens).toBe(4);
  });

  it('repairs a session cut mid-turn and skips a torn last line', () => {
    const s = SessionStore.create(root, { model: 'm', provider: 'scripted', cwd: root });
    s.appendMessage({ role: 'user', content: [{ type: 'text', text: 'q' }] });
    s.appendMessage({ role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }] });
    appendFileSync(s.file, '{"type":"mess');
    const { messages } = SessionStore.resume(root, s.id);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(messages[2]!.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 't1', is_error: true });
  });

  it('refuses ids that could escape the sessions directory', () => {
    expect(() => SessionStore.resume(root, '../../etc/passwd')).toThrow(/invalid session id/);
    expect(() => SessionStore.resume(root, 'missing')).toThrow(/no session "missing"/);
  });
});
