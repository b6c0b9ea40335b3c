/** Entry of the root command: -p or the REPL. */
import readline from 'node:readline';
import type { AgentCliOptions } from './options.js';
import { CliError } from '../errors.js';
import { DenyApprover } from '../../core/agent/permissions.js';
import { runPrint } from './print.js';
import { announceQuestion } from './question-file.js';
import { runRepl } from './repl.js';
import { setupRuntime, type Runtime } from './setup.js';
import { activeTeamSession, registerTeamHooks } from './team-hooks.js';

/** One question before the REPL starts; the answer is stored in the user's config by the caller. */
async function askTrust(projectRoot: string, ignored: string[]): Promise<boolean> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  const withdraw = announceQuestion({ kind: 'trust', tool: 'folder trust', summary: `Trust the files in ${projectRoot}? Its settings loosen permissions: ${ignored.join(', ')}`, detail: projectRoot, rule: null });
  try {
    const keys = ignored.map((i) => `  ${i}`).join('\n');
    const answer = await new Promise<string>((resolve) => {
      rl.on('close', () => resolve(''));
      rl.question(`This folder's settings loosen permissions:\n${keys}\nDo you trust the files in ${projectRoot}? [y/N] `, resolve);
    });
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    withdraw();
    rl.close();
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The session's MCP clients are closed at its end: their stdio servers would keep the process alive. */
async function closing(rt: Runtime, run: Promise<number>): Promise<number> {
  try {
    return await run;
  } finally {
    await rt.mcp.close();
  }
}

export async function runAgentCli(opts: AgentCliOptions): Promise<number> {
  registerTeamHooks(opts);
  if (opts.print === undefined && (opts.teamAgent ?? process.env.THCLAWS_TEAM_AGENT) && (opts.teamAgent ?? process.env.THCLAWS_TEAM_AGENT) !== 'lead') {
    // A teammate process: no REPL, its team loop until shutdown.
    const explicit = opts.acceptAll ? 'auto' : opts.permissionMode;
    // A teammate's plan mode is the team's (planModeRequired, approved by the lead or the person).
    if (explicit === 'acceptEdits' || explicit === 'plan') throw new CliError(`--permission-mode ${explicit} is for a solo or lead session; a teammate's plan mode is set by its team (planModeRequired)`);
    const rt = await setupRuntime(opts, false);
    const team = activeTeamSession();
    if (!team) throw new CliError('teammate mode needs a team session');
    const { runTeammateCli } = await import('./team-run.js');
    return closing(rt, runTeammateCli(rt, team, explicit));
  }
  if (opts.print !== undefined || opts.inputFormat === 'stream-json') {
    if (opts.includePartialMessages && opts.outputFormat !== 'stream-json') throw new CliError('--include-partial-messages needs --output-format stream-json');
    const printOpts = { format: opts.outputFormat, verbose: !!opts.verbose, includePartial: !!opts.includePartialMessages };
    if (opts.inputFormat === 'stream-json') {
      if (opts.outputFormat !== 'stream-json') throw new CliError('--input-format stream-json needs --output-format stream-json');
      if (typeof opts.print === 'string') throw new CliError('--input-format stream-json reads its prompts from stdin; give -p no value');
      const rt = await setupRuntime(opts, false);
      rt.permissions.setApprover(rt.approver ?? new DenyApprover());
      const { runStreamSession } = await import('./stream-session.js');
      return closing(rt, runStreamSession(rt, { ...printOpts, permissionPromptStdio: opts.permissionPromptTool === 'stdio' }));
    }
    const prompt = opts.print === true ? await readStdin() : (opts.print as string);
    if (!prompt.trim()) throw new CliError('-p needs a prompt (as its value or on stdin)');
    if (opts.permissionPromptTool) throw new CliError('--permission-prompt-tool stdio needs --input-format stream-json (the SDK answers on stdin)');
    const rt = await setupRuntime(opts, false);
    // Nobody answers questions in -p: without --accept-all, guarded tools are refused with a reason.
    rt.permissions.setApprover(rt.approver ?? new DenyApprover());
    const team = activeTeamSession();
    if (team && team.role !== 'teammate') {
      const { runTeamPrint } = await import('./team-run.js');
      return closing(rt, runTeamPrint(rt, team, prompt, opts.outputFormat, opts.timeout));
    }
    return closing(rt, runPrint(rt, prompt, printOpts));
  }
  const rt = await setupRuntime(opts, true, process.stdin.isTTY ? askTrust : undefined);
  return closing(rt, runRepl(rt, { verbose: !!opts.verbose }));
}
