import { describe, expect, it, vi } from 'vitest';
import type { Member, TaskView } from '../../contract/api';
import { createDashboardStore } from './index';
import { boardColumns } from './tasks-slice';
import { teamCounts } from './team-slice';
import { asSentence } from './ui-slice';

const member = (name: string, state: Member['state'], cost: number | null = null): Member => ({
  name, role: name === 'lead' ? 'lead' : 'dev', model: null, state, alive: state !== 'dead', current_task: null, tokens: null, cost_usd: cost, queued: 0,
  terminal: { kind: 'readonly', reason: 'r' }, can_respawn: state === 'dead',
});
const task = (id: string, over: Partial<TaskView> = {}): TaskView => ({
  id, subject: `t${id}`, description: '', status: 'pending', column: 'pending', owner: null, reserved_for: null, blocked_by: [], open_blockers: [], result: null, updated_at: 0, ...over,
});

describe('dashboard store', () => {
  it('folds roster and member deltas in order, and focuses the first pane', () => {
    const s = createDashboardStore();
    s.getState().apply({ type: 'roster', team: 'demo', members: [member('lead', 'idle'), member('alice', 'working', 0.5)] });
    expect(s.getState().focused).toBe('lead');
    s.getState().apply({ type: 'member', member: member('alice', 'dead') });
    s.getState().apply({ type: 'member', member: member('bob', 'idle', 1.25) });
    expect(s.getState().members.map((m) => `${m.name}:${m.state}`)).toEqual(['lead:idle', 'alice:dead', 'bob:idle']);
    expect(teamCounts(s.getState().members)).toEqual({ working: 0, idle: 2, dead: 1, byState: { idle: 2, dead: 1 }, total: 3, costUsd: 1.25, costUnknown: false });
  });

  it('keeps tasks by id through full lists, deltas and removals, and sorts board columns', () => {
    const s = createDashboardStore();
    s.getState().apply({ type: 'tasks', tasks: [task('2'), task('10'), task('1')] });
    s.getState().apply({ type: 'task', task: task('2', { status: 'in_progress', column: 'in_progress', owner: 'alice' }) });
    s.getState().apply({ type: 'task', task: task('3', { status: 'completed', column: 'cancelled' }) });
    s.getState().apply({ type: 'task_removed', id: '10' });
    const cols = boardColumns(s.getState().tasks);
    expect(cols.pending.map((t) => t.id)).toEqual(['1']);
    expect(cols.in_progress.map((t) => t.owner)).toEqual(['alice']);
    expect(cols.completed.map((t) => t.id)).toEqual(['3']); // cancelled shown under completed
  });

  it('settings events carry the restart notice; notices are capped', () => {
    const s = createDashboardStore();
    s.getState().apply({ type: 'settings', settings: { teamEnabled: true, teammateMode: 'host', model: 'm', roleModels: {}, maxLiveTeammates: 4 }, restart_needed: true });
    expect(s.getState().restartNeeded).toBe(true);
    for (let i = 0; i < 9; i++) s.getState().apply({ type: 'notice', level: 'warn', text: `n${i}` });
    expect(s.getState().notices.map((n) => n.text)).toEqual(['N4.', 'N5.', 'N6.', 'N7.', 'N8.']);
  });

  it('cycles focus through panes and keeps a maximised view on the focused pane', () => {
    const s = createDashboardStore();
    s.getState().apply({ type: 'roster', team: 'demo', members: [member('lead', 'idle'), member('a', 'idle'), member('b', 'idle')] });
    s.getState().cycleFocus(-1);
    expect(s.getState().focused).toBe('b');
    s.getState().toggleMaximise('b');
    s.getState().cycleFocus(1);
    expect([s.getState().focused, s.getState().maximised]).toEqual(['lead', 'lead']);
    s.getState().toggleMaximise('lead');
    expect(s.getState().maximised).toBeNull();
  });

  it('notices close on their own unless they are errors, and read as sentences', () => {
    vi.useFakeTimers();
    try {
      const s = createDashboardStore();
      s.getState().apply({ type: 'roster', team: 'demo', members: [member('lead', 'idle'), member('alice', 'idle')] });
      s.getState().notify('info', 'alice exited with code 0');
      s.getState().notify('warn', 'could not read the team state: EACCES');
      s.getState().notify('error', 'task 3 is already completed');
      expect(s.getState().notices.map((n) => n.text)).toEqual(['alice exited with code 0.', 'Could not read the team state: EACCES.', 'Task 3 is already completed.']);
      vi.advanceTimersByTime(60_000);
      expect(s.getState().notices.map((n) => n.level)).toEqual(['error']);
    } finally {
      vi.useRealTimers();
    }
    expect(asSentence('invalid request: to: invalid agent name')).toBe('The dashboard sent a request the host refused: to: invalid agent name.');
  });

  it('an error notice goes away when its cause does: the team is created, the lead runs again; others stay', () => {
    const s = createDashboardStore();
    s.getState().apply({ type: 'roster', team: null, members: [member('lead', 'dead')] });
    s.getState().notify('error', 'there is no team yet: use "Create a team" above, or ask the lead to build one');
    s.getState().notify('error', 'the lead is not running: start it with Respawn on its pane');
    s.getState().notify('error', 'task 3 is already completed');
    s.getState().apply({ type: 'roster', team: null, members: [member('lead', 'dead')] });
    expect(s.getState().notices).toHaveLength(3);
    s.getState().apply({ type: 'roster', team: 'demo', members: [member('lead', 'dead')] });
    expect(s.getState().notices.map((n) => n.text)).toEqual(['The lead is not running: start it with Respawn on its pane.', 'Task 3 is already completed.']);
    s.getState().apply({ type: 'roster', team: 'demo', members: [member('lead', 'idle')] });
    expect(s.getState().notices.map((n) => n.text)).toEqual(['Task 3 is already completed.']);
  });
});
