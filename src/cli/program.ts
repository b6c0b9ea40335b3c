import { Command } from 'commander';
import { registerAgentCommand } from './agent-command.js';
import { registerClaudeTeamCommand } from './claude-team-command.js';
import { registerDashboardCommand } from './dashboard-command.js';
import { registerDoctorCommand } from './doctor-command.js';
import { registerGuardCommand } from './guard-command.js';
import { registerMcpCommand } from './mcp-command.js';
import { registerHostCommand } from './host-command.js';
import { registerTeamCommand } from './team/index.js';
import { VERSION } from './version.js';

/** The whole `thclaws` command tree; each area registers its own subcommands. */
export function buildProgram(): Command {
  const program = new Command('thclaws');
  program.version(VERSION, '--version').description('thclaws: a coding agent, alone or in a team');
  program.showHelpAfterError(false);
  // Options after a subcommand belong to it: `thclaws guard --cwd DIR` must not hand --cwd to the agent command.
  program.enablePositionalOptions();
  // Set before subcommands are added: commander copies these settings into each subcommand at creation.
  program.exitOverride();
  // Usage errors in the CLI's one-line form: `thclaws: unknown option '--x'`.
  program.configureOutput({
    writeErr: (s) => process.stderr.write(s),
    outputError: (s, write) => write(`thclaws: ${s.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ').trim()}\n`),
  });
  registerTeamCommand(program);
  registerGuardCommand(program);
  registerDashboardCommand(program);
  registerHostCommand(program);
  registerDoctorCommand(program);
  registerMcpCommand(program);
  registerAgentCommand(program);
  registerClaudeTeamCommand(program);
  return program;
}
