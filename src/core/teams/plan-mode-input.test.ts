/** What SubmitPlan accepts: a plan with words in it, bounded in size. */
import { describe, expect, it } from 'vitest';
import type { Tool } from '../agent/types.js';
import { PlanMode } from './plan-mode.js';

describe('SubmitPlan input', () => {
  it('refuses a blank plan and a 10 MB one; takes a real one', () => {
    const tools: Tool<any>[] = [];
    new PlanMode({} as never, { cwd: '/p', waiters: {} as never, setWaiting: async () => {}, print: () => {}, timeoutMs: 1000, approver: 'user' }).gate(tools);
    const submit = tools.find((t) => t.name === 'SubmitPlan')!;
    expect(submit.inputSchema.safeParse({ plan: '  \n\t ' }).success).toBe(false);
    expect(submit.inputSchema.safeParse({ plan: 'x'.repeat(10_000_000) }).success).toBe(false);
    expect(submit.inputSchema.safeParse({ plan: '# Plan\n\n1. do it' }).success).toBe(true);
  });
});
