import path from 'node:path';
import type { Command } from 'commander';
import { createCommandGuard } from '../core/guard/index.js';
import { gitOut } from '../core/git.js';
import { CliError } from './errors.js';
import { teammateOfBranch } from '../contract/branch.js';

interface GuardOptions {
  role?: string;
  cwd: string;
  branch?: string;
  workspace?: string;
  json?: boolean;
}

function gitLine(args: string[], cwd: string): string | undefined {
  return gitOut(cwd, args, { timeoutMs: 5_000 }) || undefined;
}

/** `<ws>/.worktrees/<name>/…` → ws and name; otherwise the repository top level. */
function locate(cwd: string): { workspace: string; agentName?: string } {
  const parts = cwd.split(path.sep);
  const i = parts.lastIndexOf('.worktrees');
  if (i > 0 && parts[i + 1]) return { workspace: parts.slice(0, i).join(path.sep) || path.sep, agentName: parts[i + 1] };
  return { workspace: gitLine(['rev-parse', '--show-toplevel'], cwd) ?? cwd };
}

/** `thclaws guard`: the role guard verdict for one command, for people checking hooks and for scripts. */
export function registerGuardCommand(program: Command): void {
  program
    .command('guard')
    .description('check a shell command against the team role guards (exit 0 allowed, 3 refused, 2 bad usage)')
    .option('--role <role>', 'lead or teammate')
    .option('--cwd <dir>', 'directory the command would run in', process.cwd())
    .option('--branch <branch>', "the agent's branch (default: the branch checked out in --cwd)")
    .option('--workspace <dir>', 'team workspace root (default: derived from --cwd)')
    .option('--json', 'print the verdict as JSON')
    .argument('[command...]', 'the command, after --')
    .action((words: string[], opts: GuardOptions) => {
      const role = opts.role;
      if (role !== 'lead' && role !== 'teammate') throw new CliError(`guard: --role must be lead or teammate${role ? ` (got "${role}")` : ''}`, 2);
      const command = words.join(' ');
      if (command.trim() === '') throw new CliError('guard: no command given (usage: thclaws guard --role lead|teammate [--cwd DIR] -- "<command>")', 2);
      const cwd = path.resolve(opts.cwd);
      const found = locate(cwd);
      const workspace = opts.workspace ? path.resolve(opts.workspace) : found.workspace;
      const branch = opts.branch ?? gitLine(['rev-parse', '--abbrev-ref', 'HEAD'], cwd);
      const agentName = role === 'lead' ? 'lead' : found.agentName ?? teammateOfBranch(branch);
      const guard = createCommandGuard(role, { workspaceRoot: workspace, cwd, branch, agentName });
      const verdict = guard.checkCommand(command, cwd);
      if (opts.json) process.stdout.write(`${JSON.stringify(verdict)}\n`);
      else if (verdict.allowed) process.stdout.write('allowed\n');
      else process.stdout.write(`refused: ${verdict.reason}\nadvice: ${verdict.advice}\n`);
      process.exitCode = verdict.allowed ? 0 : 3;
    });
}
