/**
 * Plan mode, enforced by the runtime (not by the prompt): until a plan is approved, the tools that change
 * things (Write, Edit, Bash and its background shells, TeamTaskComplete) refuse; reading, searching and
 * messaging work. SubmitPlan sends a `plan_approval_request` and waits for the person or the lead: approval
 * unlocks the tools, a rejection carries feedback for the next attempt.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Tool, ToolResult } from '../agent/types.js';
import { LEAD } from '../store/index.js';
import type { ResponseWaiters, Waiting } from './approvals.js';
import { sendFrame } from './protocol.js';
import type { TeamSession } from './session.js';

/** Tools that stay refused until the plan is approved. */
export const PLAN_LOCKED_TOOLS = new Set(['Write', 'Edit', 'Bash', 'BashOutput', 'KillShell', 'TeamTaskComplete']);

export interface PlanModeOptions {
  cwd: string;
  waiters: ResponseWaiters;
  setWaiting(w: Waiting | null): Promise<void>;
  print(line: string): void;
  timeoutMs: number;
  /** Who answers, for the tool's messages. */
  approver: 'lead' | 'user';
}

export class PlanMode {
  approved = false;
  attempts = 0;

  constructor(
    private readonly session: TeamSession,
    private readonly opts: PlanModeOptions,
  ) {}

  /** The same tools with the locked ones refusing until approval (in place, so the agent sees the change). */
  gate(tools: Tool<any>[]): void {
    for (let i = 0; i < tools.length; i++) {
      const t = tools[i]!;
      // An MCP tool may change anything its server reaches: locked unless its server marks it read-only.
      if (!PLAN_LOCKED_TOOLS.has(t.name) && !(t.name.startsWith('mcp__') && !t.readOnly)) continue;
      const preflight = t.preflight?.bind(t);
      tools[i] = {
        ...t,
        preflight: async (input, ctx) => {
          if (!this.approved) {
            return {
              content: `plan mode: ${t.name} is refused until your plan is approved. Read and explore, then submit your plan with SubmitPlan {plan} and wait for the answer.`,
              isError: true,
            };
          }
          return preflight?.(input, ctx);
        },
      };
    }
    tools.push(this.submitTool());
  }

  private submitTool(): Tool<{ plan: string }> {
    return {
      name: 'SubmitPlan',
      description: `Submit your implementation plan (Markdown) for approval by ${this.opts.approver === 'lead' ? 'the lead' : 'the person'}; waits for the answer. Write, Edit, Bash and TeamTaskComplete work only after approval; a rejection tells you what to change — revise and submit again.`,
      inputSchema: z.object({ plan: z.string().max(50_000).refine((p) => p.trim().length > 0, 'the plan is empty: write what you will change and how') }).strict(),
      needsPermission: false,
      run: (input, ctx) => this.submit(input.plan, ctx.signal),
    };
  }

  private async submit(plan: string, signal: AbortSignal): Promise<ToolResult> {
    if (this.approved) return { content: 'Your plan is already approved: go ahead with it.' };
    const attempt = ++this.attempts;
    const epoch = await this.session.refreshEpoch();
    const now = Date.now();
    const me = this.session.me;
    const summary = `plan (attempt ${attempt}): ${plan.split('\n').find((l) => l.trim())?.trim().slice(0, 150) ?? ''}`;
    const waiting: Waiting = { request_id: randomUUID(), kind: 'plan', agent: me, tool: 'SubmitPlan', summary, cwd: this.opts.cwd, epoch, plan, attempt, since: now, deadline: now + this.opts.timeoutMs };
    await this.opts.setWaiting(waiting);
    try {
      const answered = this.opts.waiters.wait(waiting.request_id, this.opts.timeoutMs, signal);
      const { since: _s, deadline: _d, ...fields } = waiting;
      await sendFrame(this.session.team, me, LEAD, 'plan_approval_request', { ...fields, kind: 'plan', plan, attempt }, epoch);
      this.opts.print(`[${me}] plan submitted for approval (attempt ${attempt}, request ${waiting.request_id})`);
      const r = await answered;
      if (r === 'aborted') return { content: 'aborted while waiting for plan approval', isError: true };
      if (r === 'timeout') return { content: `no answer to your plan (attempt ${attempt}) within ${Math.round(this.opts.timeoutMs / 1000)} s; still in plan mode — submit again or ask the lead`, isError: true };
      const who = r.from === 'user' ? 'the person' : r.from;
      if (r.allow) {
        this.approved = true;
        this.opts.print(`[${me}] plan approved by ${r.from} (attempt ${attempt})`);
        return { content: `Plan approved by ${who}${r.feedback ? ` with a note: ${r.feedback}` : ''}. Write, Edit, Bash and TeamTaskComplete are unlocked: implement the plan.` };
      }
      this.opts.print(`[${me}] plan rejected by ${r.from} (attempt ${attempt})${r.feedback ? `: ${r.feedback}` : ''}`);
      return { content: `Plan rejected by ${who} (attempt ${attempt}): ${r.feedback ?? 'no reason given'}. Revise the plan accordingly and submit it again with SubmitPlan.`, isError: true };
    } finally {
      await this.opts.setWaiting(null).catch(() => {});
    }
  }
}
