import type { Command } from 'commander';

export function registerTeamCommand(program: Command): void {
  program.command('team').description('inspect and drive the team state on disk');
}
