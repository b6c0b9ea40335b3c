import { Option, type Command } from 'commander';
import { CliError } from './errors.js';
import type { AgentCliOptions } from './agent/options.js';

export type { AgentCliOptions } from './agent/options.js';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`--max-iterations must be a positive integer, got "${value}"`);
  return n;
}

/**
 * Root command: the agent REPL, or one prompt with -p. The runtime is imported on use so that
 * `thclaws --version` and the subcommands do not load it.
 */
export function registerAgentCommand(program: Command): void {
  program
    .option('-p, --print [prompt]', 'run one prompt to completion and print the answer (prompt from stdin when omitted)')
    .addOption(new Option('--output-format <format>', 'output of -p').choices(['text', 'json', 'stream-json']).default('text'))
    .option('--model <id>', 'model id or alias: sonnet, opus, haiku (default: settings "model", else the current Sonnet)')
    .addOption(new Option('--effort <level>', 'thinking effort (default: settings "effort", else the model\'s own)').choices(['low', 'medium', 'high', 'xhigh', 'max']))
    .addOption(new Option('--thinking-display <mode>', 'summarized: thinking text is returned and shown; omitted: signatures only').choices(['summarized', 'omitted']))
    .addOption(new Option('--input-format <format>', 'input of -p: text, or stream-json (one user message per line on stdin)').choices(['text', 'stream-json']).default('text'))
    .option('--verbose', 'show every tool call and result (in -p text mode: on stderr)')
    .addOption(new Option('--provider <name>', 'model provider (default: settings "provider")').choices(['anthropic', 'scripted']))
    .option('--script <file>', 'JSON script for the scripted provider (docs/scripted-provider.md)')
    .option('--accept-all', 'never ask before Write, Edit or Bash (role guards still apply)')
    .addOption(new Option('--permission-mode <mode>', 'ask: ask before Write/Edit/Bash; auto: do not ask').choices(['ask', 'auto']))
    .option('--max-iterations <n>', 'model calls per prompt before stopping', positiveInt)
    .option('--cwd <dir>', 'working directory (default: the current one)')
    .option('--resume <session-id>', 'continue a saved session (.thclaws/sessions/<id>.jsonl)')
    .option('--team-agent <name>', 'run as this team agent (sets THCLAWS_TEAM_AGENT)')
    .option('--team-dir <dir>', 'team directory (sets THCLAWS_TEAM_DIR)')
    .option('--timeout <seconds>', '-p with a team: stop waiting for the team after this many seconds', (v: string) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n <= 0) throw new CliError(`--timeout must be a positive number of seconds, got "${v}"`);
      return n;
    })
    .addOption(new Option('--cli', 'force the terminal interface (accepted for compatibility)').hideHelp())
    .action(async (opts: AgentCliOptions) => {
      const { runAgentCli } = await import('./agent/run.js');
      process.exitCode = await runAgentCli(opts);
    });
}
