import path from 'node:path';
import type { Command } from 'commander';
import { archiveLanded, archiveTeammate } from '../../core/teams/archive-worktree.js';
import { updateTeammate, type UpdateOutcome } from '../../core/teams/catch-up.js';
import { CliError } from '../errors.js';
import { action, openStore, print, withCommon, type CommonOpts } from './common.js';

const rootOf = (opts: CommonOpts) => path.resolve(opts.dir ?? process.cwd());

function updateLine(u: UpdateOutcome): string {
  if (u.result === 'up_to_date') return `${u.agent} is up to date with ${u.into}`;
  if (u.result === 'updated') return `updated ${u.agent}: merged ${u.merged} commit(s) of ${u.into}; 0 behind`;
  return `${u.agent}: merging ${u.into} stopped on conflicts in ${u.files.join(', ')}; the merge is left in progress in its worktree and ${u.agent} was told`;
}

/** `team update` and `team cleanup`: teammates' worktrees after a landing. */
export function registerWorktreeCommands(team: Command): void {
  withCommon(team.command('update <name>'))
    .description("merge the lead's branch into an idle teammate's worktree (a conflict is left to the teammate, who is told which files)")
    .action(
      action(async (name: string, opts: CommonOpts) => {
        const u = await updateTeammate(openStore(opts), rootOf(opts), name);
        print(opts, u, () => updateLine(u));
      }),
    );

  withCommon(team.command('cleanup [name]'))
    .description('remove the worktree and branch of teammates whose work landed (all of them, or <name>); recorded in the team log')
    .option('--force <name>', 'also a live teammate (stopped first) or unlanded work: named, never all at once')
    .action(
      action(async (name: string | undefined, opts: CommonOpts & { force?: string }) => {
        if (opts.force && name && name !== opts.force) throw new CliError(`--force names ${opts.force} but the teammate given is ${name}: name one`, 2);
        const store = openStore(opts);
        const one = opts.force ?? name;
        if (one) {
          const a = await archiveTeammate(store, rootOf(opts), one, { force: !!opts.force });
          print(opts, { archived: [a], kept: [] }, () => `archived ${a.agent}: removed ${a.worktree ? path.relative(rootOf(opts), a.worktree) : 'no worktree'} and ${a.branch}${a.head ? ` (was ${a.head.slice(0, 12)}, kept in the team log)` : ''}`);
          return;
        }
        const r = await archiveLanded(store, rootOf(opts));
        print(opts, r, () => [...r.archived.map((a) => `archived ${a.agent}: removed its worktree and ${a.branch}`), ...r.kept.map((k) => `kept ${k.agent}: ${k.why}`)].join('\n') || 'no teammate worktree to clean up');
      }),
    );
}
