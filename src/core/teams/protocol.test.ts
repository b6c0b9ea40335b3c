/**
 * The protocol's frame checks without processes: every frame kind accepted with its fields and defaults, bad
 * fields and unknown kinds refused, who may control, epochs (a real store on temporary files).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../store/index.js';
import { TeamStore } from '../store/index.js';
import { CONTROL_TYPES as KIND_CONTROL, REPLY_TYPES as KIND_REPLY } from '../../contract/frame-kinds.js';
import { type Frame, FrameSchema } from '../../contract/frames.js';
import * as P from './protocol.js';

const CONTROL_TYPES = ['shutdown_request', 'abort_turn', 'permission_response', 'plan_approval_response', 'task_cancelled'];
const REPLY_TYPES = ['shutdown_approved', 'shutdown_rejected', 'idle_notification', 'permission_request', 'plan_approval_request', 'task_assignment', 'team_changed', 'conflict_warning', 'budget_notice'];

const base = { id: 'm1', from: 'lead', to: 'alice', text: '{}', timestamp: 1, read: false };
const request = { request_id: 'r1', agent: 'alice', tool: 'Bash', summary: 'run tests', cwd: '/w' };
/** One valid stored message per frame kind, and what parsing it must give (defaults filled in). */
const VALID: Record<string, { raw: Record<string, unknown>; parsed: Record<string, unknown> }> = {
  shutdown_request: { raw: { reason: 'done' }, parsed: { reason: 'done' } },
  abort_turn: { raw: {}, parsed: {} },
  task_cancelled: { raw: { task_id: '3', reason: 'not needed' }, parsed: { task_id: '3', reason: 'not needed' } },
  permission_response: { raw: { request_id: 'r1', allow: true, scope: 'once', rule_scope: 'teammate' }, parsed: { request_id: 'r1', allow: true, scope: 'once', rule_scope: 'teammate' } },
  plan_approval_response: {
    raw: { request_id: 'r2', allow: false, scope: 'always-for-this-rule', rule_scope: 'team', feedback: 'smaller steps' },
    parsed: { request_id: 'r2', allow: false, scope: 'always-for-this-rule', rule_scope: 'team', feedback: 'smaller steps' },
  },
  shutdown_approved: { raw: {}, parsed: {} },
  shutdown_rejected: { raw: { reason: 'busy' }, parsed: { reason: 'busy' } },
  idle_notification: {
    raw: { idle_reason: 'available' },
    parsed: { idle_reason: 'available', completed_task_id: null, completed_status: null, summary: null },
  },
  permission_request: { raw: { ...request, kind: 'permission', rule: 'Bash(npm test:*)' }, parsed: { ...request, kind: 'permission', rule: 'Bash(npm test:*)' } },
  plan_approval_request: { raw: { ...request, kind: 'plan', plan: '# plan', attempt: 2 }, parsed: { ...request, kind: 'plan', plan: '# plan', attempt: 2 } },
  task_assignment: { raw: { task_id: '12', subject: 'docs', previous_owner: 'bob' }, parsed: { task_id: '12', subject: 'docs', previous_owner: 'bob' } },
  team_changed: { raw: { summary: 'alice added' }, parsed: { summary: 'alice added' } },
  conflict_warning: { raw: { agents: ['alice', 'bob'], files: ['a.ts'] }, parsed: { agents: ['alice', 'bob'], files: ['a.ts'] } },
  budget_notice: {
    raw: { level: 'warning', scope: 'teammate', unit: 'usd', limit: 1, spent: 0.8, summary: "alice's budget: 80 %" },
    parsed: { level: 'warning', scope: 'teammate', unit: 'usd', limit: 1, spent: 0.8, summary: "alice's budget: 80 %" },
  },
};
const frameOf = (type: string, fields: Record<string, unknown>) => ({ ...base, type, epoch: 'e1', ...fields }) as Message;

describe('frame kinds', () => {
  it('names each control and reply kind, and the union has exactly those', () => {
    expect([...KIND_CONTROL]).toEqual(CONTROL_TYPES);
    expect([...KIND_REPLY]).toEqual(REPLY_TYPES);
    expect(Object.keys(VALID).sort()).toEqual([...CONTROL_TYPES, ...REPLY_TYPES].sort());
  });

  it.each(Object.entries(VALID))('accepts a %s frame with its fields and fills its defaults', (type, { raw, parsed }) => {
    const r = P.toInbound(frameOf(type, raw));
    expect(r).toEqual({ ok: true, message: { ...base, type, epoch: 'e1', ...parsed } });
  });

  it('fills an answer\'s scope with once for this teammate', () => {
    expect(P.toInbound(frameOf('permission_response', { request_id: 'r1', allow: true }))).toEqual({ ok: true, message: { ...base, type: 'permission_response', epoch: 'e1', request_id: 'r1', allow: true, scope: 'once', rule_scope: 'teammate' } });
  });

  it('a request frame needs no epoch of its own (the waiting status\'s epoch is not part of it)', () => {
    const { epoch: _e, ...noEpoch } = frameOf('permission_request', { ...request, kind: 'permission' }) as Message & { epoch?: string };
    expect(P.toInbound(noEpoch as Message).ok).toBe(true);
  });

  it('keeps unknown fields of a frame and a frame without an epoch', () => {
    const r = P.toInbound({ ...base, type: 'abort_turn', newer: 1 } as Message);
    expect(r).toEqual({ ok: true, message: { ...base, type: 'abort_turn', newer: 1 } });
  });

  it('passes a plain message (no type) through untouched', () => {
    const plain = { ...base, text: 'hello' } as Message;
    const r = P.toInbound(plain);
    expect(r).toEqual({ ok: true, message: plain });
    if (r.ok) expect(r.message).toBe(plain);
  });

  it('refuses an unknown frame kind, naming the kind and the sender', () => {
    const r = P.toInbound(frameOf('rm_rf', {}));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/^malformed rm_rf frame from lead dropped: type: \S/);
  });

  it('refuses a frame whose message fields are bad, without a field path when the issue has none', () => {
    const r = P.toInbound({ ...frameOf('abort_turn', {}), from: '' });
    expect(r).toEqual({ ok: false, reason: expect.stringMatching(/^malformed abort_turn frame from  dropped: from: \S/) });
  });

  const BAD: [string, Record<string, unknown>, string][] = [
    ['permission_response', { allow: true }, 'request_id'],
    ['permission_response', { request_id: '', allow: true }, 'request_id'],
    ['permission_response', { request_id: 'x'.repeat(101), allow: true }, 'request_id'],
    ['permission_response', { request_id: 'r', allow: 'yes' }, 'allow'],
    ['permission_response', { request_id: 'r', allow: true, scope: 'forever' }, 'scope'],
    ['plan_approval_response', { request_id: 'r', allow: true, rule_scope: 'world' }, 'rule_scope'],
    ['plan_approval_response', { request_id: 'r', allow: false, feedback: 'x'.repeat(100_001) }, 'feedback'],
    ['idle_notification', { idle_reason: 'sleepy' }, 'idle_reason'],
    ['idle_notification', { idle_reason: 'failed', completed_task_id: '0' }, 'completed_task_id'],
    ['idle_notification', { idle_reason: 'failed', completed_status: 'in_progress' }, 'completed_status'],
    ['permission_request', { ...request, kind: 'plan' }, 'kind'],
    ['permission_request', { ...request, agent: '../x', kind: 'permission' }, 'agent'],
    ['plan_approval_request', { ...request, kind: 'plan', plan: '# p', attempt: 0 }, 'attempt'],
    ['plan_approval_request', { ...request, kind: 'plan', plan: '# p', attempt: 1.5 }, 'attempt'],
    ['plan_approval_request', { ...request, kind: 'plan', attempt: 1 }, 'plan'],
    ['task_assignment', { task_id: 'abc' }, 'task_id'],
    ['task_assignment', { task_id: '3', previous_owner: '-bad' }, 'previous_owner'],
    ['team_changed', { summary: 'x'.repeat(100_001) }, 'summary'],
    ['conflict_warning', { agents: ['../up'] }, 'agents.0'],
    ['conflict_warning', { agents: Array.from({ length: 65 }, (_, i) => `a${i}`) }, 'agents'],
    ['conflict_warning', { files: Array.from({ length: 10_001 }, () => 'f') }, 'files'],
    ['budget_notice', { ...VALID.budget_notice!.raw, level: 'over' }, 'level'],
    ['budget_notice', { ...VALID.budget_notice!.raw, limit: 0 }, 'limit'],
    ['budget_notice', { ...VALID.budget_notice!.raw, spent: -1 }, 'spent'],
    ['shutdown_request', { epoch: 7 }, 'epoch'],
    ['shutdown_request', { reason: 7 }, 'reason'],
    ['shutdown_rejected', { reason: false }, 'reason'],
  ];
  it.each(BAD)('refuses a %s frame with %j (field %s)', (type, fields, field) => {
    const r = P.toInbound(frameOf(type, fields));
    expect(r).toEqual({ ok: false, reason: expect.stringMatching(new RegExp(`^malformed ${type} frame from lead dropped: ${field.replace('.', '\\.')}: \\S`)) });
  });

  it('accepts the boundary sizes', () => {
    expect(P.toInbound(frameOf('permission_response', { request_id: 'x'.repeat(100), allow: true })).ok).toBe(true);
    expect(P.toInbound(frameOf('conflict_warning', { agents: Array.from({ length: 64 }, (_, i) => `a${i}`) })).ok).toBe(true);
    expect(P.toInbound(frameOf('team_changed', { summary: 'x'.repeat(100_000) })).ok).toBe(true);
    expect(P.toInbound(frameOf('idle_notification', { idle_reason: 'blocked', completed_task_id: '4', completed_status: 'blocked', summary: 's' })).ok).toBe(true);
    for (const r of ['available', 'interrupted', 'failed', 'blocked']) expect(P.toInbound(frameOf('idle_notification', { idle_reason: r })).ok).toBe(true);
    for (const s of ['completed', 'failed', 'blocked']) expect(P.toInbound(frameOf('idle_notification', { idle_reason: 'failed', completed_status: s })).ok).toBe(true);
    expect(FrameSchema.safeParse(frameOf('shutdown_request', { reason: null, epoch: null })).success).toBe(true);
  });
});

describe('who may control', () => {
  it('only the lead and the person send control frames', () => {
    expect(P.mayControl('lead')).toBe(true);
    expect(P.mayControl('user')).toBe(true);
    expect(P.mayControl('alice')).toBe(false);
    expect(P.mayControl('')).toBe(false);
  });

  it('knows control frames from replies and plain messages', () => {
    for (const t of CONTROL_TYPES) expect(P.isControl(frameOf(t, {}) as Frame)).toBe(true);
    for (const t of REPLY_TYPES) expect(P.isControl(frameOf(t, {}) as Frame)).toBe(false);
    expect(P.isControl({ ...base } as Frame)).toBe(false);
  });
});

describe('epochs', () => {
  it('a frame is current only with the same, known epoch', () => {
    const f = (epoch: string | null | undefined) => ({ ...frameOf('abort_turn', {}), epoch }) as Frame;
    expect(P.frameEpochCurrent(f('e1'), 'e1')).toBe(true);
    expect(P.frameEpochCurrent(f('e0'), 'e1')).toBe(false);
    expect(P.frameEpochCurrent(f(null), null)).toBe(false);
    expect(P.frameEpochCurrent(f(undefined), null)).toBe(false);
    expect(P.frameEpochCurrent(f('e1'), null)).toBe(false);
  });

  let ws: string;
  let store: TeamStore;
  beforeEach(() => {
    ws = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-protocol-'));
    store = TeamStore.forWorkspace(ws, {});
    store.init();
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('no team: no epoch, and ensureEpoch cannot start one', async () => {
    expect(await P.currentEpoch(store)).toBeNull();
    expect(await P.ensureEpoch(store, 'alice')).toBeNull();
  });

  it('the first process without a lead starts one epoch, journals it, and every later call agrees', async () => {
    await store.config.create({ name: 't', members: [{ name: 'alice' }] });
    expect(await P.currentEpoch(store)).toBeNull();
    const first = await P.ensureEpoch(store, 'alice');
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(await P.ensureEpoch(store, 'bob')).toBe(first);
    expect(await P.currentEpoch(store)).toBe(first);
    const log = fs.readFileSync(store.paths.log, 'utf8');
    expect(log).toContain(`no lead has taken the team: alice started session epoch ${first}`);
    expect(log).not.toContain('bob started');
  });

  it('processes starting at once agree on one epoch: only the first sets it and journals it', async () => {
    await store.config.create({ name: 't', members: [{ name: 'alice' }, { name: 'bob' }] });
    const [a, b] = await Promise.all([P.ensureEpoch(store, 'alice'), P.ensureEpoch(store, 'bob')]);
    expect(a).toBe(b);
    expect(await P.currentEpoch(store)).toBe(a);
    const notes = fs.readFileSync(store.paths.log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event: string; reason: string }).filter((e) => /started session epoch/.test(e.reason));
    expect(notes).toEqual([expect.objectContaining({ event: 'note', reason: expect.stringMatching(new RegExp(`^no lead has taken the team: (alice|bob) started session epoch ${a}$`)) })]);
  });

  it('an epoch already set is read, never rewritten', async () => {
    await store.config.create({ name: 't', members: [] });
    await P.bumpEpoch(store, 'e1');
    const before = fs.statSync(store.paths.config);
    expect(await P.ensureEpoch(store, 'alice')).toBe('e1');
    const after = fs.statSync(store.paths.config);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it('a config that cannot be read: no epoch (null), nothing thrown', async () => {
    fs.mkdirSync(path.dirname(store.paths.config), { recursive: true });
    fs.writeFileSync(store.paths.config, '{ torn');
    expect(await P.currentEpoch(store).catch(() => 'threw')).toBeNull();
    expect(await P.ensureEpoch(store, 'alice')).toBeNull();
  });

  it('a lead bumps the epoch; ensureEpoch then keeps the lead\'s', async () => {
    await store.config.create({ name: 't', members: [] });
    await P.bumpEpoch(store, 'lead-epoch');
    expect(await P.currentEpoch(store)).toBe('lead-epoch');
    expect(await P.ensureEpoch(store, 'alice')).toBe('lead-epoch');
    await P.bumpEpoch(store, 'next');
    expect(await P.currentEpoch(store)).toBe('next');
    expect(fs.existsSync(store.paths.log) ? fs.readFileSync(store.paths.log, 'utf8') : '').not.toContain('started session epoch');
  });

  it('sendFrame stores the kind, the fields, the epoch and a summary', async () => {
    await store.config.create({ name: 't', members: [{ name: 'alice' }] });
    await P.bumpEpoch(store, 'e7');
    const m = await P.sendFrame(store, 'lead', 'alice', 'shutdown_request', { reason: 'wrap up' });
    expect(m).toMatchObject({ from: 'lead', to: 'alice', type: 'shutdown_request', epoch: 'e7', reason: 'wrap up', summary: 'shutdown request' });
    expect(JSON.parse(m.text)).toEqual({ type: 'shutdown_request', from: 'lead', reason: 'wrap up' });
    const idle = await P.sendFrame(store, 'alice', 'lead', 'idle_notification', { idle_reason: 'available', summary: 'all done' }, 'given');
    expect(idle).toMatchObject({ type: 'idle_notification', epoch: 'given', summary: 'all done', idle_reason: 'available' });
    const [stored] = store.inboxes.list('alice');
    expect(P.toInbound(stored!)).toEqual({ ok: true, message: expect.objectContaining({ type: 'shutdown_request', epoch: 'e7' }) });
  });

  it('sendFrame is the one caller of the store\'s writeFrame in the source', () => {
    const src = path.resolve(import.meta.dirname, '../..');
    const callers = (fs.readdirSync(src, { recursive: true }) as string[])
      .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
      .filter((f) => /\.writeFrame\(/.test(fs.readFileSync(path.join(src, f), 'utf8')));
    expect(callers).toEqual([path.join('core', 'teams', 'protocol.ts')]);
  });

  it('sendFrame refuses an unknown kind and bad fields before anything reaches the inbox', async () => {
    await store.config.create({ name: 't', members: [{ name: 'alice' }] });
    await expect(P.sendFrame(store, 'user', 'alice', 'task_canceled' as never, {} as never)).rejects.toThrow(/task_canceled/);
    await expect(P.sendFrame(store, 'user', 'alice', 'task_cancelled', { task_id: '../1' })).rejects.toThrow(/task_cancelled frame refused: task_id/);
    expect(store.inboxes.list('alice')).toEqual([]);
    const m = await P.sendFrame(store, 'user', 'alice', 'task_cancelled', { task_id: '1', reason: 'not needed' });
    expect(P.toInbound(m)).toMatchObject({ ok: true, message: { type: 'task_cancelled', task_id: '1', reason: 'not needed' } });
  });
});

describe('frameMessage', () => {
  it('wraps the text with its sender and summary, double quotes in the summary made single', () => {
    expect(P.frameMessage({ from: 'alice', summary: 'say "hi"', text: 'body' })).toBe(`<teammate_message from="alice" summary="say 'hi'">\nbody\n</teammate_message>`);
    expect(P.frameMessage({ from: 'bob', summary: null, text: 'x' })).toBe('<teammate_message from="bob">\nx\n</teammate_message>');
    expect(P.frameMessage({ from: 'bob', summary: '', text: 'x' })).toBe('<teammate_message from="bob">\nx\n</teammate_message>');
  });
});
