/**
 * A refused completion's reason becomes the agent's status `error`: one line, short enough for every view
 * (the dashboard's member schema takes at most 500 characters — a longer reason would make the member event
 * invalid and the pane would lose its state).
 */
import { describe, expect, it } from 'vitest';
import { MemberSchema } from '../../contract/api.js';
import { notDoneReason, withNotDone } from './not-done.js';

const task = (not_done: string) => ({ id: '7', status: 'in_progress', owner: 'alice', not_done, not_done_by: 'alice' });

describe('notDoneReason', () => {
  it('a long refusal is cut to 300 characters with an ellipsis; a short one is kept whole', () => {
    const long = notDoneReason([task('x'.repeat(2000))], 'alice')!;
    expect(long).toHaveLength(300);
    expect(long.startsWith('task #7 not done: xxx')).toBe(true);
    expect(long.endsWith('x…')).toBe(true);
    expect(notDoneReason([task('uncommitted changes in your worktree: "api.js"\nmore detail')], 'alice')).toBe('task #7 not done: uncommitted changes in your worktree: "api.js"');
    const exact = 'y'.repeat(300 - 'task #7 not done: '.length);
    expect(notDoneReason([task(exact)], 'alice')).toBe(`task #7 not done: ${exact}`);
  });

  it("an idle member with a 2,000-character refusal still makes a valid member event, reading error", () => {
    const view = { name: 'alice', role: 'backend', model: null, state: 'idle', alive: true, current_task: null, tokens: null, cost_usd: null, queued: 0, terminal: { kind: 'pty', pid: 1 }, can_respawn: true, error: null };
    const shown = withNotDone(view, [task('z'.repeat(2000))], 'alice');
    expect(shown.state).toBe('error');
    expect(MemberSchema.safeParse(shown).success).toBe(true);
  });
});
