import type { Command } from 'commander';
import { registerApprovalCommands } from './approval-commands.js';
import { registerBudgetCommand } from './budget-command.js';
import { registerHostCommand } from './host-command.js';
import { registerMessageCommands } from './message-commands.js';
import { registerResumeCommand } from './resume-command.js';
import { registerReviewCommands } from './review-commands.js';
import { registerTaskCommands } from './task-commands.js';
import { registerTeamLifecycle } from './team-commands.js';
import { registerWorktreeCommands } from './worktree-commands.js';

export function registerTeamCommand(program: Command): void {
  const team = program.command('team').description('inspect and drive the team state on disk');
  registerTeamLifecycle(team);
  registerMessageCommands(team);
  registerTaskCommands(team);
  registerHostCommand(team);
  registerResumeCommand(team);
  registerApprovalCommands(team);
  registerReviewCommands(team);
  registerBudgetCommand(team);
  registerWorktreeCommands(team);
}
