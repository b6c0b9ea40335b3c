/** Entry of the root command: -p or the REPL. */
import type { AgentCliOptions } from '../agent-command.js';
import { CliError } from '../errors.js';
import { DenyApprover } from '../../core/agent/permissions.js';
import { runPrint } from './print.js';
import { runRepl } from './repl.js';
import { setupRuntime } from './setup.js';
import { activeTeamSession, registerTeamHooks } from './team-hooks.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function runAgentCli(opts: AgentCliOptions): Promise<number> {
  registerTeamHooks(opts);
  if (opts.print === undefined && (opts.teamAgent ?? process.env.THCLAWS_TEAM_AGENT) && (opts.teamAgent ?? process.env.THCLAWS_TEAM_AGENT) !== 'lead') {
    // A teammate process: no REPL, its team loop until shutdown.
    const rt = await setupRuntime(opts, false);
    const team = activeTeamSession();
    if (!team) throw new CliError('teammate mode needs a team session');
    const { runTeammateCli } = await import('./team-run.js');
    return runTeammateCli(rt, team);
  }
  if (opts.print !== undefined) {
    const prompt = opts.print === true ? await readStdin() : opts.print;
    if (!prompt.trim()) throw new CliError('-p needs a prompt (as its value or on stdin)');
    const rt = await setupRuntime(opts, false);
    // Nobody answers questions in -p: without --accept-all, guarded tools are refused with a reason.
    rt.permissions.setApprover(rt.approver ?? new DenyApprover());
    const team = activeTeamSession();
    if (team && team.role !== 'teammate') {
      const { runTeamPrint } = await import('./team-run.js');
      return runTeamPrint(rt, team, prompt, opts.outputFormat, opts.timeout);
    }
    return runPrint(rt, prompt, opts.outputFormat);
  }
  const rt = await setupRuntime(opts, true);
  return runRepl(rt);
}
