import { describe, expect, it } from 'vitest';
import { EventSchema, parseEvent, parseRequest, RequestSchema } from './api.js';

describe('request schemas', () => {
  it('accepts every well-formed request and fills defaults', () => {
    const r = parseRequest({ id: 3, type: 'task_create', subject: 'write docs' });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.request).toEqual({ id: 3, type: 'task_create', subject: 'write docs', description: '', reserved_for: null, blocked_by: [] });
    expect(parseRequest({ id: 1, type: 'send_message', to: '*', text: 'hi' }).ok).toBe(true);
    expect(parseRequest({ id: 1, type: 'attach', agent: 'lead', cols: 80, rows: 24 }).ok).toBe(true);
    expect(parseRequest({ id: 1, type: 'settings_set', patch: { teamEnabled: true } }).ok).toBe(true);
  });

  it('refuses names that could escape a path, unknown types and extra fields, naming the field', () => {
    const bad = parseRequest({ id: 7, type: 'input', agent: '../etc', data: 'x' });
    expect(bad).toEqual({ ok: false, id: 7, error: expect.stringContaining('agent') });
    expect(parseRequest({ id: 2, type: 'rm_rf' }).ok).toBe(false);
    expect(parseRequest({ id: 2, type: 'stop', agent: 'a', extra: 1 }).ok).toBe(false);
    expect(parseRequest({ id: 2, type: 'task_cancel', task: '0' }).ok).toBe(false);
    expect(parseRequest({ id: 2, type: 'ack', agent: 'a', chars: -5 }).ok).toBe(false);
    expect(parseRequest({ id: 2, type: 'send_message', to: 'a', text: '' }).ok).toBe(false);
  });

  it('never throws on garbage and returns id -1 when the id is unusable', () => {
    for (const raw of [null, 42, 'str', [], { id: 'x' }, { id: -3, type: 'subscribe' }, { id: 1.5, type: 'subscribe' }]) {
      const r = parseRequest(raw);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.id).toBe(-1);
    }
  });

  it('caps typed input so one message cannot flood a pty', () => {
    expect(parseRequest({ id: 1, type: 'input', agent: 'a', data: 'x'.repeat(64 * 1024 + 1) }).ok).toBe(false);
  });

  it('lists every request type once', () => {
    const types = RequestSchema.options.map((o) => o.shape.type.value);
    expect(new Set(types).size).toBe(types.length);
    expect(types).toContain('task_reassign');
  });
});

describe('event schemas', () => {
  const member = {
    name: 'alice', role: 'backend', model: 'm', state: 'working', alive: true, current_task: '2', tokens: 10, cost_usd: 0.01, queued: 1,
    terminal: { kind: 'readonly', reason: 'started by tmux' }, can_respawn: false,
  };
  it('accepts members, output chunks with sequence numbers, replies', () => {
    expect(parseEvent({ type: 'member', member }).ok).toBe(true);
    expect(parseEvent({ type: 'output', agent: 'alice', seq: 4096, data: 'abc' }).ok).toBe(true);
    expect(parseEvent({ type: 'reply', id: 1, ok: false, error: 'nope' }).ok).toBe(true);
    expect(parseEvent({ type: 'settings', settings: { teamEnabled: true, teammateMode: 'host', model: 'm', roleModels: {}, maxLiveTeammates: 4 }, restart_needed: true }).ok).toBe(true);
  });
  it('refuses unknown states and negative sequence numbers', () => {
    expect(parseEvent({ type: 'member', member: { ...member, state: 'zombie' } }).ok).toBe(false);
    expect(parseEvent({ type: 'output', agent: 'alice', seq: -1, data: '' }).ok).toBe(false);
    expect(EventSchema.safeParse({ type: 'reply', id: 1, ok: 'yes' }).success).toBe(false);
  });
});
