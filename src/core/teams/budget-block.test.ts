import { describe, expect, it } from 'vitest';
import type { Task } from '../store/index.js';
import { budgetBlock, budgetHeld, budgetStopped } from './lead-handler.js';

const task = (id: string, t: Partial<Task>): Task => ({ id, subject: 's', description: 'd', status: 'pending', blocked_by: [], blocks: [], attempts: 0, created_at: 1, updated_at: 1, ...t }) as Task;
const held = (entries: Record<string, string>) => new Map(Object.entries(entries));
const reached = "budget reached — the team's budget: 22 tokens of 1 tokens (2200 %)";

describe('budgetBlock: when a print run gives up on a reached budget', () => {
  it('every open task waits on a held teammate: the reason, who waits, and how to raise it', () => {
    const open = [task('1', { status: 'in_progress', owner: 'alice', parked: 'budget' }), task('2', { reserved_for: 'alice' })];
    expect(budgetBlock(open, ['alice', 'bob'], held({ alice: reached }))).toBe(
      "budget reached: the team's budget: 22 tokens of 1 tokens (2200 %) (alice waits with 2 task(s) open; raise it with thclaws team budget --team --usd N|--tokens N)",
    );
    expect(budgetBlock(open, ['alice'], held({ alice: "budget reached — alice's budget: 60 tokens of 55 tokens (109 %)" }))).toMatch(/raise it with thclaws team budget alice --usd/);
  });

  it('work someone else can still do, nobody held, or nothing open: go on', () => {
    const open = [task('1', { owner: 'alice', parked: 'budget', status: 'in_progress' }), task('2', { reserved_for: 'bob' })];
    expect(budgetBlock(open, ['alice', 'bob'], held({ alice: reached }))).toBeNull();
    expect(budgetBlock([task('3', {})], ['alice', 'bob'], held({ alice: reached }))).toBeNull();
    expect(budgetBlock(open, ['alice', 'bob'], held({}))).toBeNull();
    expect(budgetBlock([], ['alice'], held({ alice: reached }))).toBeNull();
    // Every live teammate held: an unassigned task waits too.
    expect(budgetBlock([task('3', {})], ['alice', 'bob'], held({ alice: reached, bob: reached }))).toMatch(/^budget reached: .*\(alice, bob wait with 1 task\(s\) open/);
  });

  it('once a print run stopped them: who was stopped and the command that starts them again (a path with a space quoted)', () => {
    const h = budgetHeld([task('1', { owner: 'alice', status: 'in_progress' })], ['alice'], held({ alice: "budget reached — alice's budget: 60 tokens of 55 tokens (109 %)" }))!;
    expect(budgetStopped(h, '/work/my proj')).toBe(
      "budget reached: alice's budget: 60 tokens of 55 tokens (109 %) (alice was stopped with 1 task(s) open; to go on, raise it with thclaws team budget alice --usd N|--tokens N, then start alice again with thclaws team resume --dir '/work/my proj')",
    );
  });
});
