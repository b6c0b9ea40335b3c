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

  it("locks a teammate's MCP tools until the plan is approved, unless the server marks one read-only", async () => {
    const mcp = (name: string, readOnly: boolean): Tool<any> => ({ name, description: '', inputSchema: {} as never, needsPermission: true, ...(readOnly ? { readOnly } : {}), run: async () => ({ content: 'ran' }) });
    const tools = [mcp('mcp__gh__create_issue', false), mcp('mcp__gh__list_issues', true)];
    new PlanMode({} as never, { cwd: '/p', waiters: {} as never, setWaiting: async () => {}, print: () => {}, timeoutMs: 1000, approver: 'user' }).gate(tools);
    expect((await tools[0]!.preflight?.({}, {} as never))?.content).toMatch(/^plan mode: mcp__gh__create_issue is refused/);
    expect(tools[1]!.preflight).toBeUndefined();
  });
});
