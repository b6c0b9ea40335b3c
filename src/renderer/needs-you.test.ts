import { describe, expect, it } from 'vitest';
import type { ApprovalView, Member } from '../contract/api';
import { fixedInSettings, needsYou, type NeedSources } from './needs-you';

const member = (name: string, over: Partial<Member> = {}): Member => ({
  name, role: 'dev', model: null, state: 'idle', alive: true, current_task: null, tokens: null, cost_usd: null, queued: 0,
  terminal: { kind: 'readonly', reason: 'r' }, can_respawn: false, waiting_for: null, budget_reached: null, error: null, retry: null, ...over,
});
const approval = (id: string, since: number): ApprovalView => ({
  request_id: id, kind: 'permission', agent: 'alice', tool: 'Bash', summary: 'run: ls', detail: 'ls', cwd: '/w', plan: null, attempt: null, rule: null, since, deadline: since + 1e6,
});
const none: NeedSources = { approvals: [], members: [], warnings: [], mergeResult: null };

describe('needs you', () => {
  it('lists each cause newest first, keeps the time an item was first seen, and forgets a cause that went away', () => {
    const seen = new Map<string, number>();
    const src: NeedSources = { ...none, members: [member('carol', { state: 'error', error: 'API key refused (401)' })] };
    expect(needsYou(src, seen, 1000).map((i) => [i.kind, i.since])).toEqual([['error', 1000]]);
    const more: NeedSources = {
      approvals: [approval('r1', 1500)],
      members: [member('carol', { state: 'error', error: 'API key refused (401)' }), member('dave', { budget_reached: 'budget reached — dave: 60 of 55' })],
      warnings: [{ id: 'w', kind: 'conflict', agents: ['bob', 'carol'], files: [{ path: 'a.js', conflict: true, lines: [] }] }, { id: 'o', kind: 'overlap', agents: ['bob', 'dave'], files: [] }],
      mergeResult: { landed: false, failed: { command: 'npm test', code: 1, dir: '/i' } },
    };
    const items = needsYou(more, seen, 2000);
    expect(items.map((i) => `${i.kind}:${i.since}`)).toEqual(['budget:2000', 'conflict:2000', 'merge:2000', 'approval:1500', 'error:1000']);
    expect(items.find((i) => i.kind === 'budget')!.detail).toBe('dave: 60 of 55');
    expect(items.find((i) => i.kind === 'merge')!.detail).toBe('"npm test" exited 1');
    // carol's error clears, then comes back: it is new again, not the old one.
    needsYou({ ...more, members: more.members.slice(1) }, seen, 3000);
    const back = needsYou(more, seen, 4000);
    expect(back[0]!.kind).toBe('error');
    expect(back[0]!.since).toBe(4000);
    expect(needsYou({ ...more, mergeResult: { landed: true, failed: null } }, seen, 5000).map((i) => i.kind)).not.toContain('merge');
  });

  it('says which failures are fixed in Settings', () => {
    expect(fixedInSettings('API key refused (401)')).toBe(true);
    expect(fixedInSettings('cannot reach http://127.0.0.1:9/ (gave up after 2 attempts)')).toBe(true);
    expect(fixedInSettings('task #3 not done: uncommitted')).toBe(false);
  });
});
