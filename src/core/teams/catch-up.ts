/**
 * After a landing the other teammates work on a stale base: `behind` counts the commits of the lead's branch
 * a teammate's branch lacks, and an update merges the lead's branch into an idle teammate's worktree. A
 * conflict is the teammate's to resolve: the merge is left in progress in its worktree and it is told which
 * files. Never while it works (its next commit would land in the middle of the merge).
 */
import { deriveState, TeamError, USER, type TeamStore } from '../store/index.js';
import { runGit } from '../git.js';
import { leadBranch, revParse, worktreeOf } from '../review/changes.js';
import { teammateBranch } from '../../contract/branch.js';
import { loadSettings } from '../agent/settings.js';

const IDENT = { GIT_AUTHOR_NAME: 'thclaws', GIT_AUTHOR_EMAIL: 'thclaws@local', GIT_COMMITTER_NAME: 'thclaws', GIT_COMMITTER_EMAIL: 'thclaws@local' };

/** Commits of the lead's branch (`into`) that `team/<agent>` lacks; null without that branch. */
export async function behindCount(root: string, agent: string, into?: string): Promise<number | null> {
  const branch = `refs/heads/${teammateBranch(agent)}`;
  const r = await runGit(root, ['rev-list', '--count', `${branch}..${into ?? (await leadBranch(root))}`, '--']);
  return r.code === 0 ? Number(r.stdout.toString('utf8').trim()) : null;
}

export type UpdateOutcome =
  | { agent: string; result: 'up_to_date'; into: string }
  | { agent: string; result: 'updated'; into: string; merged: number }
  | { agent: string; result: 'conflict'; into: string; files: string[] };

async function conflicted(dir: string): Promise<string[]> {
  const r = await runGit(dir, ['diff', '--name-only', '-z', '--diff-filter=U']);
  return r.stdout.toString('utf8').split('\0').filter(Boolean);
}

/** Merges the lead's branch into `agent`'s worktree; refused (nothing changed) for a working teammate. */
export async function updateTeammate(store: TeamStore, root: string, agent: string): Promise<UpdateOutcome> {
  const cfg = await store.config.require();
  if (!cfg.members.some((m) => m.name === agent)) throw new TeamError('not_found', `${agent} is not a member of team "${cfg.name}"`);
  const dir = worktreeOf(root, agent);
  if (!dir) throw new TeamError('invalid', `${agent} has no worktree (.worktrees/${agent}): it works in the project folder, nothing to update`);
  const state = deriveState(await store.statuses.read(agent));
  if (state === 'working' || state === 'spawning') throw new TeamError('conflict', `${agent} is ${state}: update it once it is idle (a merge under a working agent mixes with its edits)`);
  const into = await leadBranch(root);
  if (into === 'HEAD') throw new TeamError('invalid', "the lead's checkout is on a detached HEAD: no branch to update from");
  if (await revParse(dir, 'MERGE_HEAD')) throw new TeamError('conflict', `${agent}'s worktree already has a merge in progress: it must finish or abort it first`);
  const behind = (await behindCount(root, agent, into)) ?? 0;
  if (behind === 0) return { agent, result: 'up_to_date', into };
  const env = (await runGit(dir, ['config', 'user.email'])).code === 0 ? {} : IDENT;
  const r = await runGit(dir, ['merge', '--no-edit', '-m', `Merge ${into} into ${teammateBranch(agent)} (thclaws team update)`, `refs/heads/${into}`], { env });
  if (r.code === 0) {
    store.journal.record({ event: 'note', file: store.paths.config, reason: `updated ${agent}: merged ${behind} commit(s) of ${into} into ${teammateBranch(agent)}` });
    return { agent, result: 'updated', into, merged: behind };
  }
  const files = await conflicted(dir);
  if (!files.length || !(await revParse(dir, 'MERGE_HEAD'))) {
    // Refused before it started (uncommitted changes in the way): nothing was changed.
    const why = (r.stderr.trim().split('\n').find((l) => l.startsWith('error:')) ?? r.stderr.trim().split('\n')[0] ?? `exit ${r.code}`).replace(/^error:\s*/, '');
    throw new TeamError('conflict', `cannot merge ${into} into ${agent}'s worktree: ${why}`);
  }
  const list = files.slice(0, 50).join(', ') + (files.length > 50 ? ` and ${files.length - 50} more` : '');
  await store.send(
    USER,
    agent,
    `Merging ${into} into your branch ${teammateBranch(agent)} stopped on conflicts in: ${list}. The merge is in progress in your worktree: resolve those files, \`git add\` them and \`git commit\` to finish it (or \`git merge --abort\` to back out).`,
    { summary: `update from ${into}: conflicts in ${files.length} file(s)` },
  );
  store.journal.record({ event: 'note', file: store.paths.config, reason: `update of ${agent} from ${into} left a merge in progress (conflicts in ${list}); ${agent} was told` });
  return { agent, result: 'conflict', into, files };
}

/** Setting `team.updateAfterLanding`: after a landing every idle teammate behind the lead's branch is updated. */
export async function updateIdleTeammates(store: TeamStore, root: string): Promise<UpdateOutcome[]> {
  let on = false;
  try {
    on = loadSettings(root).settings.team.updateAfterLanding;
  } catch {
    return [];
  }
  if (!on) return [];
  const out: UpdateOutcome[] = [];
  for (const m of (await store.config.require()).members) {
    if (!worktreeOf(root, m.name) || !((await behindCount(root, m.name)) ?? 0)) continue;
    // One teammate's refusal (working, a merge of its own in progress) never stops the others'.
    const r = await updateTeammate(store, root, m.name).catch(() => null);
    if (r) out.push(r);
  }
  return out;
}
