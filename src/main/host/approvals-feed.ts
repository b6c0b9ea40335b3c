import { filePathOf } from '../../core/agent/tool-input.js';
import { answerApproval, pendingApprovals, type Waiting } from '../../core/teams/approvals.js';
import { USER, type TeamStore } from '../../core/store/index.js';
import type { ApprovalView, HostEvent } from '../../contract/api.js';
import { inputJson, type LeadQuestions } from './lead-questions.js';

function detail(w: Waiting): string | null {
  const input = w.input as { command?: unknown } | null | undefined;
  if (typeof input?.command === 'string') return input.command;
  return filePathOf(input) ?? null;
}

export function approvalView(w: Waiting): ApprovalView {
  return {
    request_id: w.request_id,
    kind: w.kind,
    agent: w.agent,
    tool: w.tool.slice(0, 200),
    summary: w.summary.slice(0, 2000),
    detail: detail(w)?.slice(0, 20_000) ?? null,
    cwd: w.cwd.slice(0, 4096),
    plan: w.plan?.slice(0, 60_000) ?? null,
    attempt: w.attempt ?? null,
    rule: w.rule?.slice(0, 2000) ?? null,
    input: w.kind === 'plan' ? null : inputJson(w.input),
    since: w.since,
    deadline: w.deadline,
  };
}

/**
 * The approval inbox of the TeamHost: re-read on every status change (a teammate's `waiting` lives in its
 * status) and on the liveness tick (a dead teammate's request disappears); broadcast only when it changed.
 */
export class ApprovalsFeed {
  private items: ApprovalView[] = [];
  private key = '[]';
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: TeamStore,
    private readonly broadcast: (ev: HostEvent) => void,
    /** The lead REPL's own questions, first in the inbox; answered by typing into its terminal. */
    private readonly lead: LeadQuestions | null = null,
    private readonly typeToLead: (data: string) => boolean = () => false,
  ) {}

  event(): HostEvent {
    return { type: 'approvals', pending: this.items.length, items: this.items };
  }

  refresh(): Promise<void> {
    this.running = this.running.then(async () => {
      const items = [...(this.lead?.items() ?? []), ...(await pendingApprovals(this.store).catch(() => [])).map(approvalView)];
      const key = JSON.stringify(items);
      if (key === this.key) return;
      this.key = key;
      this.items = items;
      this.broadcast(this.event());
    });
    return this.running;
  }

  async answer(a: { request_id: string; allow: boolean; always: boolean; team: boolean; feedback?: string | undefined }): Promise<void> {
    if (this.lead?.answer(a.request_id, a.allow, a.always, this.typeToLead)) return;
    await answerApproval(this.store, USER, a.request_id, {
      allow: a.allow,
      ...(a.allow && a.always ? { always: true, ruleScope: a.team ? 'team' : 'teammate' } : {}),
      ...(a.feedback ? { feedback: a.feedback } : {}),
    });
  }
}
