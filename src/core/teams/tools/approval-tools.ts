import { z } from 'zod';
import { TeamError } from '../../store/index.js';
import { answerApproval, pendingApprovals } from '../approvals.js';
import type { TeamSession } from '../session.js';
import { err, teamTool } from './common.js';

/** The lead's answer to a teammate's permission request or plan (settings permissionApprover / planApprover `lead`). */
export function approvalTool(session: TeamSession) {
  return teamTool(
    {
      name: 'AnswerApproval',
      leadOnly: true,
      description:
        "Answer a teammate's pending permission request or plan by its request_id (only when settings permissionApprover / planApprover name the lead): allow (approve) or deny (reject). Give feedback when denying so the teammate knows what to change; always=true (permissions only) lets the same rule run without asking again.",
      inputSchema: z
        .object({
          request_id: z.string().min(1),
          allow: z.boolean(),
          always: z.boolean().optional(),
          feedback: z.string().max(5000).optional(),
        })
        .strict(),
      async run(input, s) {
        // The settings name who answers each kind; with the person as approver (the default) the lead's model
        // must not answer, or a teammate could talk it into approving its own request.
        const pending = (await pendingApprovals(s.store)).find((w) => w.request_id === input.request_id);
        if (pending && s.opts.approvers?.[pending.kind] !== 'lead') {
          const key = pending.kind === 'plan' ? 'planApprover' : 'permissionApprover';
          return err(`the person answers ${pending.kind === 'plan' ? 'plans' : 'permission requests'} here (settings ${key} is "user"); you cannot answer ${input.request_id}. Tell the person it waits: thclaws team approve|deny ${input.request_id}, or the dashboard's approval inbox.`);
        }
        try {
          const { waiting } = await answerApproval(s.store, s.me, input.request_id, {
            allow: input.allow,
            ...(input.always ? { always: true } : {}),
            ...(input.feedback ? { feedback: input.feedback } : {}),
          });
          return `${input.allow ? 'Approved' : 'Denied'} ${waiting.kind} request ${input.request_id} of ${waiting.agent}${waiting.kind === 'permission' ? ` (${waiting.summary})` : ''}`;
        } catch (e) {
          if (e instanceof TeamError) return err(e.message);
          throw e;
        }
      },
    },
    session,
  );
}
