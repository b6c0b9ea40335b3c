/**
 * "Done" means committed: a worktree teammate's task completes only when everything it changed is on its
 * branch. Returns the branch head to record on the task, or why the completion is refused (the tool error the
 * teammate reads and the `not_done` the board shows).
 */
import { teammateBranch } from '../../contract/branch.js';
import fs from 'node:fs';
import path from 'node:path';
import { git, gitOut } from '../git.js';
import { dirtyFiles, quoteList } from '../review/merge-plan.js';

export type DoneCheck = { ok: true; commit: string | null } | { ok: false; reason: string };

/** No worktree (isolation none): nothing to check, no commit to record. */
export async function checkCommitted(worktree: string): Promise<DoneCheck> {
  if (!fs.existsSync(path.join(worktree, '.git'))) return { ok: true, commit: null };
  const left = await dirtyFiles(worktree);
  if (left.length) {
    // Say why a commit cannot have worked, when it cannot: every commit here fails for want of an identity.
    const ident = git(worktree, ['var', 'GIT_AUTHOR_IDENT'], { timeoutMs: 5000 });
    const why = ident.ok
      ? 'commit them first (git add -A && git commit -m "<what you did>"), then complete the task'
      : 'git commit failed: no identity (user.email) — git cannot commit on this machine until the person sets one (git config --global user.email you@example.com and user.name); tell the lead';
    return { ok: false, reason: `uncommitted changes in your worktree: ${quoteList(left, 8)}: ${why}` };
  }
  // Committed on a detached HEAD (a rebase or bisect stopped) or another branch is not on team/<name>: a landing
  // merges the branch, so the work would be left out while the task read done.
  const branch = teammateBranch(path.basename(worktree));
  const head = gitOut(worktree, ['rev-parse', 'HEAD']);
  if (head && !git(worktree, ['merge-base', '--is-ancestor', head, `refs/heads/${branch}`], { timeoutMs: 5000 }).ok) {
    const on = gitOut(worktree, ['symbolic-ref', '-q', '--short', 'HEAD']);
    return {
      ok: false,
      reason: `your commits are not on your branch ${branch} (HEAD ${head.slice(0, 12)} is ${on ? `on ${on}` : 'detached'}): bring them onto it (git checkout ${branch} && git merge --ff-only ${head.slice(0, 12)}), then complete the task`,
    };
  }
  return { ok: true, commit: head };
}
