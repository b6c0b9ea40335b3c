/**
 * TeamMerge: every team/<name> branch into `into`, one result per candidate (merged / conflicted with its
 * files / nothing to merge); one conflict never stops the others. The dry run predicts conflicts with
 * `git merge-tree --write-tree` and touches neither the index nor the tree.
 */
import { deriveState, isLive, TeamError } from '../store/index.js';
import { git, gitOut } from '../git.js';
import { announceLanding } from '../review/landing.js';
import type { TeamSession } from './session.js';
import { ensureRepo } from './worktree.js';
import { fetchRemoteBranches } from './remote-placement.js';
import { abortLeftMerge, personResolving, recordLeftMerge } from '../review/merge-work.js';
import { TEAMMATE_BRANCHES_REF, teammateBranch } from '../../contract/branch.js';

export interface MergeInput {
  into?: string;
  only?: string[];
  dry_run?: boolean;
  cleanup?: boolean;
  leave_conflicted?: boolean;
  /** Back out of a merge left in progress (the lead guard refuses a raw `git merge --abort`; this is the way out). */
  abort?: boolean;
}

const IDENT = ['-c', 'user.name=thclaws lead', '-c', 'user.email=lead@thclaws.local'];

function identity(root: string): string[] {
  return gitOut(root, ['config', 'user.email']) ? [] : IDENT;
}

export async function teamMerge(session: TeamSession, input: MergeInput): Promise<string> {
  const root = session.projectRoot;
  ensureRepo(root);
  const current = gitOut(root, ['rev-parse', '--abbrev-ref', 'HEAD']);
  if (!current) throw new TeamError('conflict', 'not a git repository (no HEAD)');
  const merging = git(root, ['rev-parse', '-q', '--verify', 'MERGE_HEAD']).ok;
  const resolving = merging ? await personResolving(root) : null;
  if (input.abort) {
    if (!merging) return 'No merge in progress: nothing to abort.';
    if (resolving) throw new TeamError('conflict', `abort refused: ${resolving}`);
    // The lead's own merge: whatever it did in it is saved to a patch, never thrown away.
    const a = await abortLeftMerge(root, { confirm: true });
    return `Merge aborted: the tree is back where it was before the merge.${a.saved ? ` What was changed in it (${a.kept.join(', ')}) is saved in ${a.saved}.` : ''}`;
  }
  if (resolving) throw new TeamError('conflict', `a merge is in progress: ${resolving}`);
  if (merging) {
    throw new TeamError('conflict', 'a merge is already in progress: resolve the files git lists as unmerged and commit, or back out with TeamMerge { abort: true }');
  }
  // Remote teammates' branches come home first (docs/remote.md); one that cannot is said, the rest merge.
  const unfetched = await fetchRemoteBranches(session.opts.remote, session.store, input.only);
  const into = input.into?.trim() || current;
  if (!git(root, ['rev-parse', '--verify', '-q', `refs/heads/${into}`]).ok) throw new TeamError('invalid', `no local branch "${into}"`);
  const names = (gitOut(root, ['for-each-ref', '--format=%(refname:lstrip=3)', TEAMMATE_BRANCHES_REF]) ?? '').split('\n').filter(Boolean);
  let candidates = names.map((name) => ({ branch: teammateBranch(name), name }));
  if (input.only?.length) candidates = candidates.filter((c) => input.only!.includes(c.name));
  if (!candidates.length) return `No team/* branches found to merge into '${into}'.`;

  const out = [`Merge target: ${into}${input.dry_run ? ' (dry run — no changes made)' : ''}`];
  for (const f of unfetched) out.push(`  (not fetched: ${f})`);
  if (input.dry_run) {
    for (const c of candidates) {
      const ahead = Number(gitOut(root, ['rev-list', '--count', `${into}..${c.branch}`]) ?? 0);
      if (!ahead) {
        out.push(`  ${c.name} (${c.branch}): nothing to merge`);
        continue;
      }
      const log = (gitOut(root, ['log', '--format=%h %s', `${into}..${c.branch}`]) ?? '').split('\n').slice(0, 10);
      const mt = git(root, ['merge-tree', '--write-tree', '--name-only', '--no-messages', into, c.branch]);
      const conflicts = mt.ok ? [] : mt.stdout.split('\n').slice(1).filter(Boolean);
      out.push(`  ${c.name} (${c.branch}): ${ahead} commit(s) ahead — ${mt.ok ? 'would merge cleanly' : `would CONFLICT in: ${conflicts.join(', ')}`}`);
      for (const l of log) out.push(`    ${l}`);
    }
    return out.join('\n');
  }

  const dirty = (gitOut(root, ['status', '--porcelain']) ?? '').trim();
  if (dirty) throw new TeamError('conflict', `the lead's working tree is not clean — commit or stash before TeamMerge:\n${dirty}`);
  if (into !== current) {
    const co = git(root, ['checkout', '-q', into]);
    if (!co.ok) throw new TeamError('conflict', `cannot check out ${into}: ${co.stderr.trim()}`);
    out.push(`  (checked out ${into})`);
  }
  const conflicted: string[] = [];
  const merged: string[] = [];
  const start = gitOut(root, ['rev-parse', 'HEAD']);
  for (const c of candidates) {
    const ahead = Number(gitOut(root, ['rev-list', '--count', `${into}..${c.branch}`]) ?? 0);
    if (!ahead) {
      out.push(`  ${c.name} (${c.branch}): nothing to merge`);
      if (input.cleanup) out.push(await cleanup(session, c.name, c.branch));
      continue;
    }
    const m = git(root, [...identity(root), 'merge', '--no-ff', '--no-edit', '-m', `Merge ${c.branch} (thclaws team)`, c.branch]);
    if (m.ok) {
      out.push(`  ${c.name} (${c.branch}): merged ${ahead} commit(s)`);
      merged.push(c.name);
      if (input.cleanup) out.push(await cleanup(session, c.name, c.branch));
      continue;
    }
    const files = (gitOut(root, ['diff', '--name-only', '--diff-filter=U']) ?? '').split('\n').filter(Boolean);
    conflicted.push(c.name);
    if (!files.length) {
      git(root, ['merge', '--abort']);
      out.push(`  ${c.name} (${c.branch}): merge could not start — lead-side git error: ${(m.stderr || m.stdout).trim()}`);
      continue;
    }
    git(root, ['merge', '--abort']);
    out.push(`  ${c.name} (${c.branch}): CONFLICT in: ${files.join(', ')} — aborted; delegate a fix to '${c.name}' (rebase/merge ${into} in its worktree), then re-run TeamMerge`);
  }
  const head = gitOut(root, ['rev-parse', 'HEAD']);
  // The merged teammates' tasks read landed on the board (the lead merged them: no message to itself).
  if (merged.length && start && head) await announceLanding(session.store, root, { into, start, head, agents: merged }, false).catch(() => undefined);
  if (conflicted.length) out.push(`${conflicted.length} branch(es) conflicted: ${conflicted.join(', ')}`);
  if (input.leave_conflicted && conflicted.length) {
    // Everything else is merged; now reopen the first conflict and leave it for the lead.
    const name = conflicted[0]!;
    git(root, [...identity(root), 'merge', '--no-ff', '--no-edit', teammateBranch(name)]);
    await recordLeftMerge(root, 'lead');
    const files = (gitOut(root, ['diff', '--name-only', '--diff-filter=U']) ?? '').split('\n').filter(Boolean);
    out.push(`  ${name}: merge left in progress — conflicted files: ${files.join(', ')}. Edit only those files, then git add + git commit; or back out with TeamMerge { abort: true }.`);
  }
  return out.join('\n');
}

/** Removes a merged teammate's worktree and branch — never while the teammate lives. */
async function cleanup(session: TeamSession, name: string, branch: string): Promise<string> {
  const state = deriveState(await session.store.statuses.read(name));
  if (isLive(state)) return `    cleanup refused: teammate '${name}' is ${state} — stop it first`;
  const root = session.projectRoot;
  const wt = session.worktreePath(name);
  const r = git(root, ['worktree', 'remove', wt]);
  const b = git(root, ['branch', '-d', branch]);
  return `    cleanup: worktree ${r.ok ? 'removed' : `kept (${r.stderr.trim()})`}, branch ${b.ok ? 'deleted' : `kept (${b.stderr.trim()})`}`;
}
