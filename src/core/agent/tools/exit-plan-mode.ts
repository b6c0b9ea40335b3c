/**
 * ExitPlanMode (Claude Code's name and input): in plan mode the model presents its plan here; the approver
 * (a person, or the Agent SDK's canUseTool) approving it ends plan mode, and the session goes on in `ask`.
 */
import { z } from 'zod';
import type { Tool } from '../types.js';

const Input = z.object({ plan: z.string().min(1).max(100_000).describe('The plan, in markdown: what you will change and how') }).loose();

/** What the tool needs of the session's permission checker. */
export interface PlanModeSwitch {
  readonly currentMode: string;
  setMode(mode: 'ask'): void;
}

export function exitPlanModeTool(checker: PlanModeSwitch): Tool<z.infer<typeof Input>> {
  return {
    name: 'ExitPlanMode',
    description: 'In plan mode, when your plan is ready: present it for approval. Approval ends plan mode; a refusal says why.',
    inputSchema: Input,
    // Asked in run(): only in plan mode, where the checker sends it (and nothing else) to the approver.
    needsPermission: false,
    summarize: (i) => i.plan.split('\n')[0]!.slice(0, 200),
    async run(input, ctx) {
      if (checker.currentMode !== 'plan') return { content: 'not in plan mode: go ahead with the work', isError: true };
      const d = await ctx.permissions.check({ tool: 'ExitPlanMode', input, summary: input.plan.slice(0, 200), ...(ctx.agentName ? { agentName: ctx.agentName } : {}) }, ctx.signal);
      if (!d.allowed) return { content: `plan not approved: ${d.reason}`, isError: true };
      checker.setMode('ask');
      return { content: 'The plan is approved and plan mode is over: carry it out.' };
    },
  };
}
