/**
 * The API contract, shape by shape: every request and event kind accepts its valid shapes (with the defaults
 * it fills) and refuses bad ones (an unknown kind, an out-of-range number, a name that could escape a path),
 * every enum value is accepted, and the shared constants keep their invariants.
 */
import { describe, expect, it } from 'vitest';
import * as A from './api.js';

/** The caps the contract promises (characters), written out so a changed constant is noticed. */
const MAX_INPUT_CHARS = 64 * 1024;
const MAX_MESSAGE_CHARS = 100_000;

const spec = { role: '', prompt: '', model: null, isolation: 'shared', plan_mode: false, permission_mode: 'ask', host: null };
/** [request as sent (without id), request as parsed (defaults filled)]: one entry per request kind. */
const REQUESTS: [Record<string, unknown>, Record<string, unknown>?][] = [
  [{ type: 'subscribe' }],
  [{ type: 'attach', agent: 'alice' }],
  [{ type: 'attach', agent: 'alice', cols: 2, rows: 1 }],
  [{ type: 'detach', agent: 'alice' }],
  [{ type: 'ack', agent: 'alice', chars: 1 << 30 }],
  [{ type: 'input', agent: 'alice', data: 'x'.repeat(MAX_INPUT_CHARS) }],
  [{ type: 'resize', agent: 'alice', cols: 1000, rows: 500, active: true }],
  [{ type: 'unsize', agent: 'alice' }],
  [{ type: 'send_message', to: 'alice', text: 'x'.repeat(MAX_MESSAGE_CHARS) }],
  [{ type: 'send_message', to: '*', text: 'hi all' }],
  [{ type: 'abort_turn', agent: 'alice' }],
  [{ type: 'stop', agent: 'alice' }],
  [{ type: 'respawn', agent: 'alice' }],
  [{ type: 'restart_lead' }],
  [{ type: 'task_create', subject: 's', description: 'd', reserved_for: 'bob', blocked_by: ['1', '2'] }],
  [{ type: 'task_create', subject: 'only a subject' }, { type: 'task_create', subject: 'only a subject', description: '', reserved_for: null, blocked_by: [] }],
  [{ type: 'task_edit', task: '3', subject: 'new', description: 'more' }],
  [{ type: 'task_reassign', task: '3', reserved_for: null }],
  [{ type: 'task_reassign', task: '3', reserved_for: 'carol' }],
  [{ type: 'task_cancel', task: '999' }],
  [{ type: 'settings_get' }],
  [{ type: 'settings_set', patch: { maxLiveTeammates: 3 } }],
  [{ type: 'settings_set', patch: { teamEnabled: true, teammateMode: 'tmux', model: 'opus', roleModels: { reviewer: 'haiku' }, autoAllowSandboxedBash: true } }],
  [{ type: 'open_workspace', dir: '/home/u/project' }],
  [{ type: 'key_set', key: 'sk-ant-0123' }],
  [{ type: 'demo_start' }],
  [{ type: 'team_create', name: 'Team 1.x_y-z' }, { type: 'team_create', name: 'Team 1.x_y-z', description: '' }],
  [{ type: 'team_create', name: `_${'a'.repeat(63)}`, description: 'why' }],
  [{ type: 'member_add', name: 'alice', spec: {} }, { type: 'member_add', name: 'alice', spec }],
  [{ type: 'member_add', name: 'bob', spec: { role: 'r', prompt: 'p', model: 'm', isolation: 'worktree', plan_mode: true, permission_mode: 'auto', host: 'big' } }],
  [{ type: 'member_edit', name: 'alice', spec: {} }],
  [{ type: 'member_edit', name: 'alice', spec: { role: 'r', prompt: 'p', model: null, isolation: 'shared', plan_mode: false, permission_mode: 'ask' } }],
  [{ type: 'member_remove', name: 'alice' }],
  [{ type: 'member_start', name: 'alice' }],
  [{ type: 'member_update', name: 'alice' }],
  [{ type: 'member_archive', name: 'alice' }, { type: 'member_archive', name: 'alice', force: false }],
  [{ type: 'member_archive', name: 'alice', force: true }],
  [{ type: 'team_resume' }],
  [{ type: 'host_stop' }],
  [{ type: 'store', rid: 'r1', epoch: null, call: { op: 'attach', agent: 'alice', instance: 'run-0001' } }],
  [{ type: 'store', rid: 'r2', epoch: 'e1', call: { op: 'task_update', id: '3', patch: { reservedFor: null, extra: { parked: 'budget' } } } }],
  [{ type: 'budget_set', agent: 'alice', limit: { usd: 1, tokens: 1000 } }],
  [{ type: 'budget_set', role: 'reviewer', limit: { tokens: 5 } }],
  [{ type: 'budget_set', limit: null }],
  [{ type: 'saved_output', file: '.thclaws/sessions/s1.outputs/Bash-t1.txt' }],
  [{ type: 'approval_answer', request_id: 'r1', allow: true }, { type: 'approval_answer', request_id: 'r1', allow: true, always: false, team: false }],
  [{ type: 'approval_answer', request_id: 'r'.repeat(100), allow: false, always: true, team: true, feedback: 'no' }],
  [{ type: 'review_file', agent: 'alice', path: 'src/a.ts', source: 'committed' }],
  [{ type: 'review_file', agent: 'alice', path: 'a', source: 'staged' }],
  [{ type: 'review_file', agent: 'alice', path: 'a', source: 'unstaged' }],
  [{ type: 'review_file', agent: 'alice', path: 'a', source: 'untracked' }],
  [{ type: 'review_comment', agent: 'alice', path: 'a.ts', line: 4, text: 'why?' }, { type: 'review_comment', agent: 'alice', path: 'a.ts', line: 4, end_line: null, text: 'why?' }],
  [{ type: 'review_comment', agent: 'alice', path: 'a.ts', line: 4, end_line: 9, text: 'range' }],
  [{ type: 'review_comment_state', agent: 'alice', comment_id: 'c1', state: 'pending' }],
  [{ type: 'review_comment_state', agent: 'alice', comment_id: 'c'.repeat(64), state: 'resolved' }],
  [{ type: 'review_comment_state', agent: 'alice', comment_id: 'c1', state: 'deleted' }],
  [{ type: 'review_send', agent: 'alice' }, { type: 'review_send', agent: 'alice', request_changes: false }],
  [{ type: 'review_send', agent: 'alice', request_changes: true }],
  [{ type: 'key_remove' }],
  [{ type: 'key_check' }],
  [{ type: 'key_hold', key: 'sk-ant-0123' }],
  [{ type: 'received', chars: 1 << 30 }],
  [{ type: 'merge_overview' }],
  [{ type: 'merge_dry_run', agents: ['alice', 'bob'] }],
  [{ type: 'merge_run', agents: ['alice'] }, { type: 'merge_run', agents: ['alice'], checks: true, allow_live: false, allow_uncommitted: false, allow_open_comments: false }],
  [{ type: 'merge_run', agents: ['alice'], checks: false, allow_live: true, allow_uncommitted: true, allow_open_comments: true }],
  [{ type: 'merge_leave_conflicted', agent: 'alice' }],
  [{ type: 'merge_conflicts' }],
  [{ type: 'merge_abort' }, { type: 'merge_abort', confirm: false }],
  [{ type: 'merge_abort', confirm: true }],
];

/** [request as sent, the field the error must name]: out-of-range numbers, bad names and ids, bad enums. */
const BAD_REQUESTS: [Record<string, unknown>, string][] = [
  [{ type: 'attach', agent: 'alice', cols: 1 }, 'cols'],
  [{ type: 'attach', agent: 'alice', rows: 501 }, 'rows'],
  [{ type: 'ack', agent: 'alice', chars: 0 }, 'chars'],
  [{ type: 'ack', agent: 'alice', chars: (1 << 30) + 1 }, 'chars'],
  [{ type: 'input', agent: 'alice', data: 'x'.repeat(MAX_INPUT_CHARS + 1) }, 'data'],
  [{ type: 'resize', agent: 'alice', cols: 1001, rows: 5 }, 'cols'],
  [{ type: 'resize', agent: 'alice', cols: 80, rows: 0 }, 'rows'],
  [{ type: 'resize', agent: 'alice', cols: 80, rows: 24, active: 'yes' }, 'active'],
  [{ type: 'send_message', to: 'alice', text: 'x'.repeat(MAX_MESSAGE_CHARS + 1) }, 'text'],
  [{ type: 'send_message', to: '**', text: 'x' }, 'to'],
  [{ type: 'task_create', subject: '' }, 'subject'],
  [{ type: 'task_create', subject: 'x'.repeat(501) }, 'subject'],
  [{ type: 'task_create', subject: 's', blocked_by: Array.from({ length: 101 }, (_, i) => String(i + 1)) }, 'blocked_by'],
  [{ type: 'task_create', subject: 's', reserved_for: '../x' }, 'reserved_for'],
  [{ type: 'task_edit', task: '1', subject: '' }, 'subject'],
  [{ type: 'task_reassign', task: '01', reserved_for: null }, 'task'],
  [{ type: 'open_workspace', dir: '' }, 'dir'],
  [{ type: 'key_set', key: '' }, 'key'],
  [{ type: 'key_hold', key: '' }, 'key'],
  [{ type: 'key_set', key: 'k'.repeat(501) }, 'key'],
  [{ type: 'team_create', name: '.hidden' }, 'name'],
  [{ type: 'team_create', name: '-flag' }, 'name'],
  [{ type: 'team_create', name: 'a/b' }, 'name'],
  [{ type: 'team_create', name: 'ab/' }, 'name'],
  [{ type: 'team_create', name: '' }, 'name'],
  [{ type: 'team_create', name: `a${'b'.repeat(64)}` }, 'name'],
  [{ type: 'member_add', name: 'alice', spec: { isolation: 'none' } }, 'spec.isolation'],
  [{ type: 'member_add', name: 'alice', spec: { permission_mode: 'yolo' } }, 'spec.permission_mode'],
  [{ type: 'member_add', name: 'alice', spec: { host: '../big' } }, 'spec.host'],
  [{ type: 'member_edit', name: 'alice', spec: { isolation: 'none' } }, 'spec.isolation'],
  [{ type: 'member_edit', name: 'alice', spec: { permission_mode: 'yolo' } }, 'spec.permission_mode'],
  [{ type: 'approval_answer', request_id: '', allow: true }, 'request_id'],
  [{ type: 'approval_answer', request_id: 'r'.repeat(101), allow: true }, 'request_id'],
  [{ type: 'review_file', agent: 'alice', path: '', source: 'committed' }, 'path'],
  [{ type: 'review_file', agent: 'alice', path: 'a', source: 'stash' }, 'source'],
  [{ type: 'review_comment', agent: 'alice', path: 'a', line: 0, text: 'x' }, 'line'],
  [{ type: 'review_comment', agent: 'alice', path: 'a', line: 1, text: '' }, 'text'],
  [{ type: 'review_comment_state', agent: 'alice', comment_id: '', state: 'pending' }, 'comment_id'],
  [{ type: 'review_comment_state', agent: 'alice', comment_id: 'c'.repeat(65), state: 'pending' }, 'comment_id'],
  [{ type: 'review_comment_state', agent: 'alice', comment_id: 'c', state: 'sent' }, 'state'],
  [{ type: 'merge_dry_run', agents: [] }, 'agents'],
  [{ type: 'budget_set', agent: '../x', limit: null }, 'agent'],
  [{ type: 'budget_set', limit: { usd: -1 } }, 'limit.usd'],
  [{ type: 'saved_output', file: '' }, 'file'],
  [{ type: 'received', chars: 0 }, 'chars'],
  [{ type: 'received', chars: (1 << 30) + 1 }, 'chars'],
  [{ type: 'merge_run', agents: Array.from({ length: 65 }, (_, i) => `a${i}`) }, 'agents'],
  [{ type: 'merge_leave_conflicted', agent: '../lead' }, 'agent'],
  [{ type: 'settings_set', patch: { maxLiveTeammates: 0 } }, 'patch.maxLiveTeammates'],
];

describe('requests', () => {
  it('lists exactly the request kinds the host serves', () => {
    expect(A.RequestSchema.options.map((o) => o.shape.type.value).sort()).toEqual([...new Set(REQUESTS.map(([r]) => r.type as string))].sort());
  });

  it.each(REQUESTS)('accepts %j', (sent, parsed) => {
    expect(A.parseRequest({ id: 5, ...sent })).toEqual({ ok: true, request: { id: 5, ...(parsed ?? sent) } });
  });

  it.each(BAD_REQUESTS)('refuses %j, naming %s', (sent, field) => {
    const r = A.parseRequest({ id: 9, ...sent });
    expect(r).toEqual({ ok: false, id: 9, error: expect.stringMatching(new RegExp(`^invalid request: ${field.replace('.', '\\.')}: \\S`)) });
  });

  it('says why a name or an id is refused', () => {
    expect(A.parseRequest({ id: 1, type: 'stop', agent: 'a b' })).toEqual({ ok: false, id: 1, error: 'invalid request: agent: invalid agent name' });
    expect(A.parseRequest({ id: 1, type: 'task_cancel', task: 'x' })).toEqual({ ok: false, id: 1, error: 'invalid request: task: invalid task id' });
    expect(A.parseRequest({ id: 1, type: 'team_create', name: '/' })).toEqual({ ok: false, id: 1, error: 'invalid request: name: a team name: letters, digits, space, . _ -' });
  });

  it('every request kind refuses a field it does not know', () => {
    for (const [sent] of REQUESTS) expect(A.parseRequest({ id: 1, ...sent, extra: true }).ok, String(sent.type)).toBe(false);
  });

  it('keeps the id of a bad request when it is a whole number ≥ 0, else -1', () => {
    expect(A.parseRequest({ id: 0, type: 'nope' })).toMatchObject({ ok: false, id: 0 });
    expect(A.parseRequest({ id: 12, type: 'nope' })).toMatchObject({ ok: false, id: 12 });
    expect(A.parseRequest({ id: -1, type: 'nope' })).toMatchObject({ ok: false, id: -1 });
    expect(A.parseRequest({ id: 2.5, type: 'nope' })).toMatchObject({ ok: false, id: -1 });
    expect(A.parseRequest({ id: '3', type: 'nope' })).toMatchObject({ ok: false, id: -1 });
    expect(A.parseRequest(null)).toMatchObject({ ok: false, id: -1 });
    expect(A.parseRequest(undefined)).toMatchObject({ ok: false, id: -1 });
  });

  it('names the message itself when the problem is not in a field', () => {
    expect(A.parseRequest(42)).toEqual({ ok: false, id: -1, error: expect.stringMatching(/^invalid request: \(message\): \S/) });
    expect(A.parseRequest({ id: 4, type: 'nope' })).toEqual({ ok: false, id: 4, error: expect.stringMatching(/^invalid request: type: \S/) });
  });
});

const member = {
  name: 'alice', role: 'backend', model: null, state: 'not_configured', alive: false, current_task: null, tokens: null, cost_usd: null, queued: 0,
  terminal: { kind: 'pty', pid: 4242 }, can_respawn: true, waiting_for: 'req-1', budget_reached: null, error: null, retry: null, ports: { base: 4110, count: 10 },
  usage: { input_tokens: 1, output_tokens: 2, cache_creation_input_tokens: 3, cache_read_input_tokens: 4 },
};
const task = { id: '1', subject: 's', description: 'd', status: 'pending', column: 'pending', owner: null, reserved_for: 'bob', blocked_by: ['2'], open_blockers: ['2'], result: null, updated_at: 5 };
const approval = { request_id: 'r1', kind: 'permission', agent: 'alice', tool: 'Bash', summary: 'rm', detail: 'rm x', cwd: '/w', plan: null, attempt: null, rule: 'Bash(rm:*)', since: 1, deadline: 2 };
const commit = { sha: 'abc', subject: 'c', at: 3 };
const fileChange = { path: 'a.ts', old_path: null, status: 'modified', source: 'staged', binary: false, huge: false, size: 10, added: 1, deleted: 0, sig: 's' };
const changes = { agent: 'alice', branch: 'team/alice', into: 'main', base: 'b', head: 'h', ahead: 1, behind: 0, last_commit: commit, files: [fileChange] };
const comment = { id: 'c1', path: 'a.ts', line: 1, end_line: 2, lines: ['x'], text: 't', state: 'pending', created_at: 9 };
const settings = { teamEnabled: true, teammateMode: 'host', model: 'm', roleModels: { r: 'haiku' }, maxLiveTeammates: 4, autoAllowSandboxedBash: true, checks: [], worktree: { setup: 'npm ci', reuse: ['node_modules'], portBase: 5000 } };
/** One event of each kind, exactly as parsed. */
const EVENTS: Record<string, unknown>[] = [
  { type: 'reply', id: 1, ok: true, result: { x: 1 } },
  { type: 'reply', id: 2, ok: false, error: 'no' },
  { type: 'workspace', workspace: { dir: '/w', team: null, recent: ['/a', '/b'] } },
  { type: 'roster', team: 't', members: [member] },
  { type: 'member', member },
  { type: 'member', member: { ...member, state: 'working', alive: true, current_task: '7', tokens: 10, cost_usd: 0.5, usage: null, terminal: { kind: 'readonly', reason: 'tmux' } } },
  { type: 'tasks', tasks: [task] },
  { type: 'task', task: { ...task, status: 'completed', column: 'parked', owner: 'alice', result: 'ok' } },
  { type: 'task_removed', id: '3' },
  { type: 'output', agent: 'alice', seq: 0, data: 'abc' },
  { type: 'replay', agent: 'alice', seq: 10, data: 'abc' },
  { type: 'pty_size', agent: 'alice', cols: 2, rows: 500 },
  { type: 'exit', agent: 'alice', code: null, signal: 'SIGKILL' },
  { type: 'settings', settings, restart_needed: false, effective_mode: { mode: 'background', reason: 'no tmux' } },
  { type: 'sandbox', sandbox: { state: 'unavailable', text: 'sandbox: unavailable', fix: 'apt install socat' } },
  { type: 'setup', setup: { needs_key: false, scripted: false, key: { source: 'file', last4: 'abcd' }, problem: null } },
  { type: 'member_specs', specs: { alice: { role: 'r', prompt: 'p', model: null, isolation: 'worktree', plan_mode: true, permission_mode: 'auto', host: null } } },
  { type: 'notice', level: 'warn', text: 'careful' },
  { type: 'host_closed', reason: 'the team was stopped from a dashboard' },
  { type: 'approvals', pending: 1, items: [approval, { ...approval, request_id: 'r2', kind: 'plan', plan: '# p', attempt: 2 }] },
  { type: 'review_changes', agent: 'alice', changes, comments: [comment] },
  { type: 'conflict_warnings', warnings: [{ id: 'w', kind: 'overlap', agents: ['alice', 'bob'], files: [{ path: 'a.ts', conflict: false, lines: [{ start: 1, end: 2 }] }] }] },
  { type: 'merge_output', run: 'r', data: 'x' },
  { type: 'merge_done', run: 'r', result: { ok: true } },
];
/** Events one field away from valid: the parse fails and names that field. */
const BAD_EVENTS: [Record<string, unknown>, string][] = [
  [{ type: 'telemetry' }, 'type'],
  [{ type: 'reply', id: 1.5, ok: true }, 'id'],
  [{ type: 'reply', id: 1, ok: false, error: 'x'.repeat(2001) }, 'error'],
  [{ type: 'workspace', workspace: { dir: '/w', team: null, recent: Array.from({ length: 21 }, () => '/a') } }, 'workspace.recent'],
  [{ type: 'member', member: { ...member, name: '../x' } }, 'member.name'],
  [{ type: 'member', member: { ...member, state: 'zombie' } }, 'member.state'],
  [{ type: 'member', member: { ...member, tokens: -1 } }, 'member.tokens'],
  [{ type: 'member', member: { ...member, budget_reached: 'x'.repeat(501) } }, 'member.budget_reached'],
  [{ type: 'member', member: { ...member, cost_usd: -0.01 } }, 'member.cost_usd'],
  [{ type: 'member', member: { ...member, queued: 1.5 } }, 'member.queued'],
  [{ type: 'member', member: { ...member, terminal: { kind: 'pty', pid: 0 } } }, 'member.terminal.pid'],
  [{ type: 'member', member: { ...member, terminal: { kind: 'vnc' } } }, 'member.terminal.kind'],
  [{ type: 'member', member: { ...member, waiting_for: 'w'.repeat(101) } }, 'member.waiting_for'],
  [{ type: 'member', member: { ...member, usage: { ...member.usage, output_tokens: -1 } } }, 'member.usage.output_tokens'],
  [{ type: 'task', task: { ...task, column: 'archived' } }, 'task.column'],
  [{ type: 'task', task: { ...task, status: 'parked' } }, 'task.status'],
  [{ type: 'task', task: { ...task, blocked_by: ['0'] } }, 'task.blocked_by.0'],
  [{ type: 'output', agent: 'alice', seq: 1.5, data: '' }, 'seq'],
  [{ type: 'replay', agent: 'alice', seq: -1, data: '' }, 'seq'],
  [{ type: 'pty_size', agent: 'alice', cols: 1, rows: 5 }, 'cols'],
  [{ type: 'pty_size', agent: 'alice', cols: 1001, rows: 5 }, 'cols'],
  [{ type: 'pty_size', agent: 'alice', cols: 80, rows: 501 }, 'rows'],
  [{ type: 'exit', agent: 'alice', code: 1.5, signal: null }, 'code'],
  [{ type: 'sandbox', sandbox: { state: 'maybe', text: '', fix: null } }, 'sandbox.state'],
  [{ type: 'setup', setup: { needs_key: true, scripted: false, key: { source: 'env', last4: 'abcde' }, problem: null } }, 'setup.key.last4'],
  [{ type: 'setup', setup: { needs_key: true, scripted: false, key: { source: 'vault', last4: 'abcd' }, problem: null } }, 'setup.key.source'],
  [{ type: 'settings', settings: { ...settings, maxLiveTeammates: 65 }, restart_needed: false }, 'settings.maxLiveTeammates'],
  [{ type: 'member_specs', specs: { '../x': {} } }, 'specs.../x'],
  [{ type: 'notice', level: 'debug', text: 'x' }, 'level'],
  [{ type: 'host_closed' }, 'reason'],
  [{ type: 'approvals', pending: -1 }, 'pending'],
  [{ type: 'approvals', pending: 1, items: [{ ...approval, kind: 'exec' }] }, 'items.0.kind'],
  [{ type: 'approvals', pending: 1, items: [{ ...approval, request_id: '' }] }, 'items.0.request_id'],
  [{ type: 'approvals', pending: 1, items: [{ ...approval, attempt: 0 }] }, 'items.0.attempt'],
  [{ type: 'review_changes', agent: 'alice', changes: { ...changes, files: [{ ...fileChange, status: 'moved' }] }, comments: [] }, 'changes.files.0.status'],
  [{ type: 'review_changes', agent: 'alice', changes: { ...changes, files: [{ ...fileChange, source: 'stash' }] }, comments: [] }, 'changes.files.0.source'],
  [{ type: 'review_changes', agent: 'alice', changes: { ...changes, files: [{ ...fileChange, path: '' }] }, comments: [] }, 'changes.files.0.path'],
  [{ type: 'review_changes', agent: 'alice', changes: { ...changes, ahead: -1 }, comments: [] }, 'changes.ahead'],
  [{ type: 'review_changes', agent: 'alice', changes, comments: [{ ...comment, state: 'draft' }] }, 'comments.0.state'],
  [{ type: 'review_changes', agent: 'alice', changes, comments: [{ ...comment, line: 0 }] }, 'comments.0.line'],
  [{ type: 'conflict_warnings', warnings: [{ id: 'w', kind: 'merge', agents: ['a', 'b'], files: [] }] }, 'warnings.0.kind'],
  [{ type: 'conflict_warnings', warnings: [{ id: 'w', kind: 'overlap', agents: ['a'], files: [] }] }, 'warnings.0.agents'],
  [{ type: 'merge_output', run: 'r'.repeat(65), data: '' }, 'run'],
];

describe('events', () => {
  it.each(EVENTS)('accepts %j', (event) => {
    expect(A.parseEvent(event)).toEqual({ ok: true, event });
  });

  it('fills an event\'s defaults: a member not waiting, an empty approval inbox', () => {
    const { waiting_for: _w, usage: _u, error: _e, retry: _r, ports: _p, ...bare } = member;
    expect(A.parseEvent({ type: 'member', member: bare })).toEqual({ ok: true, event: { type: 'member', member: { ...bare, waiting_for: null, error: null, retry: null, ports: null } } });
    expect(A.parseEvent({ type: 'approvals', pending: 0 })).toEqual({ ok: true, event: { type: 'approvals', pending: 0, items: [] } });
  });

  it('accepts every state, column, status and level a view can be sent', () => {
    for (const state of ['spawning', 'idle', 'working', 'error', 'stopped', 'dead', 'defined', 'not_configured']) expect(A.parseEvent({ type: 'member', member: { ...member, state } }).ok, state).toBe(true);
    for (const column of ['pending', 'in_progress', 'completed', 'parked', 'failed', 'cancelled']) expect(A.parseEvent({ type: 'task', task: { ...task, column } }).ok, column).toBe(true);
    for (const status of ['pending', 'in_progress', 'completed']) expect(A.parseEvent({ type: 'task', task: { ...task, status } }).ok, status).toBe(true);
    for (const level of ['info', 'warn', 'error']) expect(A.parseEvent({ type: 'notice', level, text: '' }).ok, level).toBe(true);
    for (const state of ['on', 'off', 'unavailable', 'checking']) expect(A.parseEvent({ type: 'sandbox', sandbox: { state, text: '', fix: null } }).ok, state).toBe(true);
    for (const source of ['env', 'file']) expect(A.parseEvent({ type: 'setup', setup: { needs_key: true, scripted: true, key: { source, last4: '' }, problem: 'p' } }).ok, source).toBe(true);
    for (const status of ['added', 'modified', 'deleted', 'renamed', 'copied', 'type_changed']) {
      expect(A.parseEvent({ type: 'review_changes', agent: 'alice', changes: { ...changes, files: [{ ...fileChange, status }] }, comments: [] }).ok, status).toBe(true);
    }
    for (const source of ['committed', 'staged', 'unstaged', 'untracked']) {
      expect(A.parseEvent({ type: 'review_changes', agent: 'alice', changes: { ...changes, files: [{ ...fileChange, source }] }, comments: [] }).ok, source).toBe(true);
    }
    for (const state of ['pending', 'sent', 'outdated', 'resolved']) expect(A.parseEvent({ type: 'review_changes', agent: 'alice', changes, comments: [{ ...comment, state }] }).ok, state).toBe(true);
    for (const kind of ['overlap', 'conflict']) expect(A.parseEvent({ type: 'conflict_warnings', warnings: [{ id: 'w', kind, agents: ['a', 'b'], files: [] }] }).ok, kind).toBe(true);
  });

  it.each(BAD_EVENTS)('refuses %j, naming %s', (event, field) => {
    expect(A.parseEvent(event)).toEqual({ ok: false, error: expect.stringMatching(new RegExp(`^invalid event: ${field.replace(/\./g, '\\.')}: \\S`)) });
  });

  it('names the message itself when the problem is not in a field', () => {
    expect(A.parseEvent('text')).toEqual({ ok: false, error: expect.stringMatching(/^invalid event: \(message\): \S/) });
  });
});

describe('shared constants', () => {
  it('flow control: whole numbers of characters, resume below pause, a chunk and the scrollback sized for a pause', () => {
    for (const v of [A.FLOW.highWater, A.FLOW.lowWater, A.FLOW.maxChunk, A.FLOW.scrollback, A.MAX_INPUT_CHARS]) expect(Number.isInteger(v) && v > 0).toBe(true);
    expect(A.FLOW.lowWater).toBeLessThan(A.FLOW.highWater);
    expect(A.FLOW.maxChunk).toBeLessThan(A.FLOW.highWater);
    expect(A.FLOW.scrollback).toBeGreaterThan(A.FLOW.highWater);
    expect(A.MAX_INPUT_CHARS).toBe(MAX_INPUT_CHARS);
    expect(A.MAX_MESSAGE_CHARS).toBe(MAX_MESSAGE_CHARS);
    expect(A.MAX_INPUT_CHARS).toBeGreaterThanOrEqual(A.FLOW.maxChunk);
  });

  it('the IPC channels main and the preload both use', () => {
    expect(A.IPC_CHANNELS).toEqual({ request: 'thclaws:request', event: 'thclaws:event' });
  });
});
