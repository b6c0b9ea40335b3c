import type { Command } from 'commander';
import { USER } from '../../core/store/index.js';
import { CliError } from '../errors.js';
import { action, age, openStore, print, table, withCommon, type CommonOpts } from './common.js';

/** `thclaws team approvals | approve | deny`: the person answers teammates' permission requests and plans. */
export function registerApprovalCommands(team: Command): void {
  withCommon(team.command('approvals'))
    .description("teammates' pending permission requests and plans (only of live teammates)")
    .action(
      action(async (opts: CommonOpts) => {
        const { pendingApprovals } = await import('../../core/teams/approvals.js');
        const list = await pendingApprovals(openStore(opts));
        const now = Date.now();
        print(opts, list, () => {
          if (!list.length) return '(no pending approvals)';
          const rows = [['REQUEST', 'AGENT', 'KIND', 'TOOL', 'AGE', 'CWD', 'WHAT']];
          for (const w of list) rows.push([w.request_id, w.agent, w.kind === 'plan' ? `plan#${w.attempt ?? 1}` : 'permission', w.tool, age(now - w.since), w.cwd, (w.kind === 'plan' ? (w.plan ?? '').split('\n')[0]! : w.summary).slice(0, 120)]);
          return table(rows);
        });
      }),
    );

  const answer = (allow: boolean) =>
    action(async (requestId: string, opts: CommonOpts & { always?: boolean; team?: boolean; message?: string }) => {
      // A teammate's own commands inherit its name: it must never answer its own (or a peer's) requests.
      const agent = process.env.THCLAWS_TEAM_AGENT;
      if (agent && agent !== 'lead') throw new CliError(`a teammate (${agent}) cannot answer approvals; the person or the lead does`);
      if (!allow && opts.always) throw new CliError('--always applies to approve only');
      if (opts.team && !opts.always) throw new CliError('--team needs --always (it says where the rule is stored)');
      const { answerApproval } = await import('../../core/teams/approvals.js');
      const { waiting } = await answerApproval(openStore(opts), USER, requestId, {
        allow,
        ...(opts.always ? { always: true, ruleScope: opts.team ? 'team' : 'teammate' } : {}),
        ...(opts.message ? { feedback: opts.message } : {}),
      });
      print(opts, { request_id: requestId, agent: waiting.agent, kind: waiting.kind, allow, always: !!opts.always }, () =>
        `${allow ? 'approved' : 'denied'} ${waiting.kind} request ${requestId} of ${waiting.agent}${opts.always && waiting.rule ? `; rule ${waiting.rule} stored for ${opts.team ? 'the team' : waiting.agent}` : ''}`,
      );
    });
  withCommon(team.command('approve <request_id>'))
    .description("approve a teammate's pending permission request or plan")
    .option('--always', 'also allow later calls of the same rule (e.g. Bash(npm test:*)) without asking')
    .option('--team', 'with --always: store the rule for every teammate, not only this one')
    .option('--message <text>', 'a note for the teammate')
    .action(answer(true));
  withCommon(team.command('deny <request_id>'))
    .description("deny a teammate's pending permission request, or reject its plan")
    .option('--message <text>', 'why, or what to change (the teammate reads it)')
    .action(answer(false));
}
