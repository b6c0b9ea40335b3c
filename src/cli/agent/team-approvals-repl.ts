/** `/approvals`, `/approve`, `/deny` in the lead's REPL: the person answers teammates' requests where they already are. */
import { TeamError, USER } from '../../core/store/index.js';
import type { TeamSession } from '../../core/teams/session.js';
import { registerSlashCommand } from './hooks.js';

function parse(args: string): { id: string; always: boolean; team: boolean; message: string } | null {
  const words = args.trim().split(/\s+/).filter(Boolean);
  const id = words.shift();
  if (!id) return null;
  let always = false;
  let team = false;
  for (let w = words[0]; w === '--always' || w === '--team'; w = words[0]) {
    words.shift();
    if (w === '--always') always = true;
    else team = true;
  }
  return { id, always, team, message: words.join(' ') };
}

export function registerApprovalSlashCommands(session: TeamSession): void {
  registerSlashCommand('approvals', {
    help: "teammates' pending permission requests and plans",
    run: async ({ print }) => {
      const { pendingApprovals } = await import('../../core/teams/approvals.js');
      const list = await pendingApprovals(session.store);
      if (!list.length) return print('(no pending approvals)');
      for (const w of list) {
        print(`${w.request_id}  ${w.agent}  ${w.kind === 'plan' ? `plan (attempt ${w.attempt ?? 1})` : w.tool}  ${Math.round((Date.now() - w.since) / 1000)}s  ${w.kind === 'plan' ? '' : w.summary}`);
        if (w.kind === 'plan' && w.plan) print(w.plan.split('\n').map((l) => `    ${l}`).join('\n'));
      }
      print('answer: /approve <id> [--always [--team]] [note] · /deny <id> [why]');
    },
  });
  const answer = (allow: boolean) => async ({ args, print }: { args: string; print: (l: string) => void }) => {
    const a = parse(args);
    if (!a) return print(`usage: /${allow ? 'approve <id> [--always [--team]] [note]' : 'deny <id> [why]'}`);
    const { answerApproval } = await import('../../core/teams/approvals.js');
    try {
      const { waiting } = await answerApproval(session.store, USER, a.id, {
        allow,
        ...(allow && a.always ? { always: true, ruleScope: a.team ? 'team' : 'teammate' } : {}),
        ...(a.message ? { feedback: a.message } : {}),
      });
      print(`${allow ? 'approved' : 'denied'} ${waiting.kind} request of ${waiting.agent}${allow && a.always && waiting.rule ? `; ${waiting.rule} allowed from now on for ${a.team ? 'the team' : waiting.agent}` : ''}`);
    } catch (err) {
      if (err instanceof TeamError) return print(err.message);
      throw err;
    }
  };
  registerSlashCommand('approve', { help: "approve a teammate's request or plan: /approve <id> [--always [--team]] [note]", run: answer(true) });
  registerSlashCommand('deny', { help: "deny a teammate's request or reject its plan: /deny <id> [why]", run: answer(false) });
}
