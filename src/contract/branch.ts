/** Every teammate works in its own worktree on its own branch, `team/<name>`; the lead merges those branches. */
const PREFIX = 'team/';

/** The ref folder every teammate branch sits under (what `git for-each-ref` lists). */
export const TEAMMATE_BRANCHES_REF = `refs/heads/${PREFIX}`;

/** The local branch teammate `name` works on. */
export function teammateBranch(name: string): string {
  return PREFIX + name;
}

/** The teammate whose branch this is, or undefined for any other branch (the lead's, `main`). */
export function teammateOfBranch(branch: string | undefined): string | undefined {
  return branch?.startsWith(PREFIX) ? branch.slice(PREFIX.length) : undefined;
}
