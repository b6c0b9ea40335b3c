/**
 * The role rules for git (git-rules.ts), one row per spelling: every subcommand the lead or a teammate is
 * refused, the neighbouring spelling that stays allowed, and the exact reason and advice a refusal gives.
 * Then contexts the corpus does not use: other protected branches, the lead on its own branch, a teammate
 * without a worktree, no git probe, a probe without remote branches, and which directory the probe is asked.
 */
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/core/guard/index.js';
import type { GitProbe, GuardContext } from '../../src/core/guard/types.js';
import { fakeGit, leadCtx, teammateCtx, WS } from './fixtures.js';

type Row = [cmd: string, why: string | null];

function verdicts(role: 'lead' | 'teammate', ctx: GuardContext, rows: readonly Row[]): void {
  for (const [cmd, why] of rows) {
    const v = checkCommand(role, cmd, ctx);
    if (why === null) expect(v, cmd).toEqual({ allowed: true });
    else expect(v.allowed ? 'allowed' : v.reason, cmd).toBe(`${role === 'lead' ? 'team lead' : 'teammate'} may not run \`${cmd.replace(/^.*&& /, '')}\`: it would ${why}.`);
  }
}
const adviceOf = (role: 'lead' | 'teammate', cmd: string, ctx: GuardContext = role === 'lead' ? leadCtx : teammateCtx) => {
  const v = checkCommand(role, cmd, ctx);
  return v.allowed ? 'allowed' : v.advice;
};

/** Lead at /ws on main; `null`: allowed. */
const LEAD: Row[] = [
  ['git reset --help', null],
  ['git reset -h', null],
  ['git rebase --help', null],
  ['git rebase -h', null],
  ['git rebase -h main', 'rewrite committed history (rebase)'],
  ['git clean -h', null],
  ['git clean -f', 'delete untracked files (git clean)'],
  ['git clean --dry', null],
  ['git clean -fn', null],
  ['git fetch origin +main:refs/heads/main', 'force-update or prune a shared branch (main) with git fetch'],
  ['git fetch origin +x:heads/main', 'force-update or prune a shared branch (main) with git fetch'],
  ['git fetch origin +x:feature', null],
  ['git fetch origin +x:refs/remotes/origin/x', null],
  ['git fetch origin +x:refs/tags/v1', null],
  ['git fetch origin x:team/bob', null],
  ['git fetch -f origin x:team/bob', 'force-update or prune a shared branch (team/bob) with git fetch'],
  ['git fetch --force origin x:team/bob', 'force-update or prune a shared branch (team/bob) with git fetch'],
  ['git fetch --prune origin x:team/bob', null],
  [`git fetch -p origin 'refs/heads/*:refs/heads/*'`, 'force-update or prune a shared branch (team/*) with git fetch'],
  ['git fetch --prune origin refs/heads/x:refs/heads/feature', null],
  ['git fetch -p origin main:refs/remotes/origin/main', null],
  ['git fetch origin +main:', null],
  ['git fetch origin +main', null],
  ['git fetch origin "+$SRC:feature"', 'force-update or prune a shared branch (feature) with git fetch'],
  ['git push -f', 'rewrite or delete shared history (force-push, mirror, delete or prune)'],
  ['git push --force-with-lease', 'rewrite or delete shared history (force-push, mirror, delete or prune)'],
  ['git push --force-if-includes', 'rewrite or delete shared history (force-push, mirror, delete or prune)'],
  ['git push -d origin x', 'rewrite or delete shared history (force-push, mirror, delete or prune)'],
  ['git push --delete origin x', 'rewrite or delete shared history (force-push, mirror, delete or prune)'],
  ['git push --mirror', 'rewrite or delete shared history (force-push, mirror, delete or prune)'],
  ['git push --prune origin', 'rewrite or delete shared history (force-push, mirror, delete or prune)'],
  ['git push origin +x', 'rewrite or delete shared history (force-push, mirror, delete or prune)'],
  ['git push origin :x', 'rewrite or delete shared history (force-push, mirror, delete or prune)'],
  ['git push origin a:b', null],
  ['git push --forc origin x', 'rewrite or delete shared history (force-push, mirror, delete or prune)'],
  ['git reset --keep HEAD~1', 'discard committed work via a hard reset'],
  ['git reset --merge', 'discard committed work via a hard reset'],
  ['git reset --h', 'discard committed work via a hard reset'],
  ['git worktree add /tmp/w', null],
  ['git worktree remove /ws/.worktrees/bob', `remove a teammate's worktree (it would kill or orphan a live teammate)`],
  ['git worktree prune', `prune a teammate's worktree (it would kill or orphan a live teammate)`],
  ['git worktree move a b', `move a teammate's worktree (it would kill or orphan a live teammate)`],
  ['git worktree lock x', null],
  ['git worktree $X', 'run a dynamic git worktree command whose words (variables, $(…), backticks or brace lists) cannot be verified'],
  ['git checkout -f main', 'discard uncommitted work (git checkout --force)'],
  ['git checkout --force main', 'discard uncommitted work (git checkout --force)'],
  ['git checkout -B main', 'force-update a shared branch (main) with checkout -B'],
  ['git checkout -B feature', null],
  ['git checkout -b team/x', null],
  ['git checkout --', null],
  ['git checkout ./', 'discard uncommitted work (git checkout of a whole-tree pathspec)'],
  ['git checkout :/', 'discard uncommitted work (git checkout of a whole-tree pathspec)'],
  ['git checkout :', 'discard uncommitted work (git checkout of a whole-tree pathspec)'],
  ['git checkout *', 'discard uncommitted work (git checkout of a whole-tree pathspec)'],
  [`git checkout ':(top)src'`, 'discard uncommitted work (git checkout of a whole-tree pathspec)'],
  ['git checkout src/*.ts', 'discard uncommitted work (git checkout of a whole-tree pathspec)'],
  ['git checkout --ours .', null],
  ['git checkout --theirs -- src/a.ts', null],
  ['git checkout main src/a.ts', `overwrite working-tree files with another commit's (git checkout main <path>)`],
  ['git checkout src/a.ts', 'discard uncommitted work (git checkout src/a.ts, a path, not a branch)'],
  ['git checkout feature-x', null],
  ['git checkout team/carol', null],
  ['git fetch && git checkout src/a.ts', null],
  ['git checkout -', null],
  ['git checkout @{-1}', null],
  ['git checkout feature-x --', null],
  ['git checkout src/a.ts --', null],
  ['git checkout-index --force --prefix=/tmp/x/ -a', null],
  ['git checkout-index -f --prefix=/tmp/x/ -a', null],
  ['git read-tree -u -m HEAD', 'discard uncommitted work (git read-tree -u rewrites the working tree)'],
  ['git read-tree -u --reset HEAD', 'discard uncommitted work (git read-tree -u rewrites the working tree)'],
  ['git read-tree -m HEAD', null],
  ['git read-tree -u HEAD', null],
  ['git restore src/a.ts', 'discard uncommitted work (git restore without --staged)'],
  ['git restore -S src', null],
  ['git restore --stag src', null],
  ['git restore --staged --worktree src', 'discard uncommitted work (git restore without --staged)'],
  ['git restore -W --staged src', 'discard uncommitted work (git restore without --staged)'],
  ['git restore --work --staged src', 'discard uncommitted work (git restore without --staged)'],
  ['git restore --ours src/a.ts', null],
  ['git restore --theirs src/a.ts', null],
  ['git merge --abort', 'tear down a merge instead of resolving it'],
  ['git merge --ab', 'tear down a merge instead of resolving it'],
  ['git merge $B', 'run a dynamic git merge command whose words (variables, $(…), backticks or brace lists) cannot be verified'],
  ['git branch -d team/bob', null],
  ['git branch -d -f team/bob', 'delete, rename or force-update a shared branch (team/bob)'],
  ['git branch --delete --force team/bob', 'delete, rename or force-update a shared branch (team/bob)'],
  ['git branch -D team/bob', 'delete, rename or force-update a shared branch (team/bob)'],
  ['git branch -f team/bob HEAD', 'delete, rename or force-update a shared branch (team/bob)'],
  ['git branch -C x team/bob', 'delete, rename or force-update a shared branch (team/bob)'],
  ['git branch -M team/bob x', 'delete, rename or force-update a shared branch (team/bob)'],
  ['git branch -m team/bob x', 'delete, rename or force-update a shared branch (team/bob)'],
  ['git branch --move team/bob x', 'delete, rename or force-update a shared branch (team/bob)'],
  ['git branch -m feature y', null],
  ['git branch -D $B', 'run a dynamic git branch command whose words (variables, $(…), backticks or brace lists) cannot be verified'],
  ['git branch -D team/bob $X', 'run a dynamic git branch command whose words (variables, $(…), backticks or brace lists) cannot be verified'],
  ['git branch $B', 'run a dynamic git branch command whose words (variables, $(…), backticks or brace lists) cannot be verified'],
  ['git branch -D master', 'delete, rename or force-update a shared branch (master)'],
  ['git switch -f main', 'discard uncommitted work (git switch --discard-changes)'],
  ['git switch --discard-changes main', 'discard uncommitted work (git switch --discard-changes)'],
  ['git switch --force main', 'discard uncommitted work (git switch --discard-changes)'],
  ['git switch -C main', 'force-update a shared branch (main) with switch -C'],
  ['git switch -C feature', null],
  ['git switch -c main', null],
  ['git update-ref refs/tags/v1 HEAD', null],
  ['git update-ref -d refs/tags/v1', 'delete or move a branch ref directly'],
  ['git update-ref --stdin', 'delete or move a branch ref directly'],
  ['git update-ref team/bob x', 'delete or move a branch ref directly'],
  ['git update-ref refs/remotes/origin/x y', null],
  ['git update-ref HEAD x', 'delete or move a branch ref directly'],
  ['git update-ref $R x', 'delete or move a branch ref directly'],
  ['git update-ref refs/heads/feature x', 'delete or move a branch ref directly'],
  ['git update-ref --delete refs/tags/v1', 'delete or move a branch ref directly'],
  ['git symbolic-ref HEAD refs/heads/x', 'repoint HEAD at another branch without a checkout'],
  ['git symbolic-ref HEAD', null],
  ['git symbolic-ref -d HEAD', 'repoint HEAD at another branch without a checkout'],
  ['git symbolic-ref --delete HEAD', 'repoint HEAD at another branch without a checkout'],
  ['git symbolic-ref -m why HEAD', null],
  ['git stash drop', 'discard stashed work'],
  ['git stash clear', 'discard stashed work'],
  ['git stash -u', 'stash untracked files away (they vanish from the workspace until someone pops them)'],
  ['git stash push -a', 'stash untracked files away (they vanish from the workspace until someone pops them)'],
  ['git stash save --include-untracked', 'stash untracked files away (they vanish from the workspace until someone pops them)'],
  ['git stash --all', 'stash untracked files away (they vanish from the workspace until someone pops them)'],
  ['git stash pop', null],
  ['git stash show -u', null],
  ['git stash list', null],
  ['git rm -r src', 'recursively remove tracked files'],
  ['git rm --recursive src', 'recursively remove tracked files'],
  ['git rm -r --cached build', null],
  ['git mv a b', 'move source files (authoring)'],
  ['git apply p.diff', 'apply a patch to source files (authoring)'],
  ['git apply --check p.diff', null],
  ['git apply --stat p.diff', null],
  ['git apply --numstat p.diff', null],
  ['git apply --summary p.diff', null],
  ['git am x.mbox', 'apply a patch to source files (authoring)'],
  ['git reset $X', 'run a dynamic git reset command whose words (variables, $(…), backticks or brace lists) cannot be verified'],
  ['git log $X', null],
  ['git filter-branch x', 'rewrite the whole history'],
  ['git filter-repo x', 'rewrite the whole history'],];

/** Teammate alice in /ws/.worktrees/alice on team/alice. */
const TEAMMATE: Row[] = [
  ['git -C "$D" log', null],
  ['git -C ../bob commit -m x', `run git commit in another teammate's worktree (/ws/.worktrees/bob)`],
  ['git -C /ws/.worktrees add .', `run git add in another teammate's worktree (/ws/.worktrees)`],
  ['git -C /ws reset --hard', `run git reset in the lead's worktree (/ws), whose branch is not yours`],
  ['git -C /ws log', null],
  ['git -C /ws push origin team/alice', null],
  ['git -C /ws commit -m x', `run git commit in the lead's worktree (/ws), whose branch is not yours`],
  ['git -C /ws/src add .', `run git add in the lead's worktree (/ws/src), whose branch is not yours`],
  ['git -C /tmp/repo commit -m x', null],
  ['git -C /ws/.worktrees/alice commit -m x', null],
  ['git -C /ws fetch', null],
  ['git symbolic-ref HEAD refs/heads/main', `repoint your worktree's HEAD off your branch team/alice`],
  ['git symbolic-ref HEAD', null],
  ['git reset --keep main', `hard-reset to another branch (main) — it would discard your branch's commits and overwrite your worktree with someone else's tree`],
  ['git reset --merge main', `hard-reset to another branch (main) — it would discard your branch's commits and overwrite your worktree with someone else's tree`],
  ['git reset main', null],
  ['git branch -d team/bob', 'delete, rename or force-update a branch that is not yours (team/bob)'],
  ['git branch -d feature-x', null],
  ['git branch -d main', 'delete, rename or force-update a branch that is not yours (main)'],
  ['git branch -D team/alice', null],
  ['git branch -f team/bob x', 'delete, rename or force-update a branch that is not yours (team/bob)'],
  ['git branch -C team/bob', 'delete, rename or force-update a branch that is not yours (team/bob)'],
  ['git branch -C x team/bob', 'delete, rename or force-update a branch that is not yours (team/bob)'],
  ['git branch -m team/bob', 'delete, rename or force-update a branch that is not yours (team/bob)'],
  ['git branch -M team/bob x', 'delete, rename or force-update a branch that is not yours (team/bob)'],
  ['git branch --move team/bob x', 'delete, rename or force-update a branch that is not yours (team/bob)'],
  ['git branch --delete team/bob', 'delete, rename or force-update a branch that is not yours (team/bob)'],
  ['git branch --force team/bob x', 'delete, rename or force-update a branch that is not yours (team/bob)'],
  ['git branch team/bob', null],
  ['git branch -D $B', 'run a dynamic git branch command whose words (variables, $(…), backticks or brace lists) cannot be verified'],
  ['git branch $B', null],
  ['git branch -d refs/heads/team/bob', 'delete, rename or force-update a branch that is not yours (refs/heads/team/bob)'],
  ['git fetch origin +main:team/bob', 'force-update or prune a branch that is not yours (team/bob) with git fetch'],
  ['git fetch origin +x:team/alice', null],
  ['git fetch origin "+$X:y"', 'force-update or prune a branch that is not yours (y) with git fetch'],
  ['git fetch origin +x:feature', null],
  ['git fetch -f origin x:main', 'force-update or prune a branch that is not yours (main) with git fetch'],
  ['git update-ref --stdin', 'run a dynamic git update-ref --stdin whose words (variables, $(…), backticks or brace lists) cannot be verified'],
  ['git update-ref refs/heads/team/bob HEAD', 'move or delete a branch that is not yours (refs/heads/team/bob)'],
  ['git update-ref refs/heads/team/alice HEAD~1', null],
  ['git update-ref $R x', 'move or delete a branch that is not yours ($R)'],
  ['git update-ref refs/tags/v1 HEAD', null],
  ['git worktree prune', 'prune worktree metadata other teammates rely on'],
  ['git worktree remove x', 'remove or move a worktree'],
  ['git worktree move a b', 'remove or move a worktree'],
  ['git worktree add /tmp/w', null],
  ['git push -f origin team/bob', 'delete or force-update a branch that is not yours on the remote (team/bob)'],
  ['git push -f origin team/alice', null],
  ['git push origin :team/bob', 'delete or force-update a branch that is not yours on the remote (team/bob)'],
  ['git push origin +main', 'delete or force-update a branch that is not yours on the remote (main)'],
  ['git push origin +x:refs/heads/team/bob', 'delete or force-update a branch that is not yours on the remote (team/bob)'],
  ['git push origin HEAD:team/bob', null],
  ['git push -f origin $B', 'run a dynamic git push command whose words (variables, $(…), backticks or brace lists) cannot be verified'],
  ['git push origin $B', null],
  ['git push --mirror', `force-update every branch on the remote, including other teammates'`],
  ['git push -f --all', `force-update every branch on the remote, including other teammates'`],
  ['git push --force --branches', `force-update every branch on the remote, including other teammates'`],
  ['git push --all', null],
  ['git push --branches', null],
  ['git push --prune origin', `delete remote branches that have no local counterpart, which may be other teammates'`],
  ['git push --pru origin', `delete remote branches that have no local counterpart, which may be other teammates'`],
  ['git push --mir', `force-update every branch on the remote, including other teammates'`],
  ['git push -f main', null],
  ['git push -d origin team/bob', 'delete or force-update a branch that is not yours on the remote (team/bob)'],
  ['git push --delete origin feature-x', null],
  ['git push -f origin feature-x', null],
  ['git checkout -b x', 'switch your worktree off your branch team/alice (to new branch x)'],
  ['git checkout -B x', 'switch your worktree off your branch team/alice (to new branch x)'],
  ['git switch -c x', 'switch your worktree off your branch team/alice (to new branch x)'],
  ['git switch -C x', 'switch your worktree off your branch team/alice (to new branch x)'],
  ['git checkout --orphan x', 'switch your worktree off your branch team/alice (to a new branch)'],
  ['git switch --create x', 'switch your worktree off your branch team/alice (to a new branch)'],
  ['git switch --force-create x', 'switch your worktree off your branch team/alice (to a new branch)'],
  ['git switch --orphan x', 'switch your worktree off your branch team/alice (to a new branch)'],
  ['git checkout --detach', 'switch your worktree off your branch team/alice (to a detached HEAD)'],
  ['git switch -d main', 'switch your worktree off your branch team/alice (to a detached HEAD)'],
  ['git switch --detach main', 'switch your worktree off your branch team/alice (to a detached HEAD)'],
  ['git checkout main -- src/a.ts', null],
  ['git checkout -p main', null],
  ['git checkout --patch main', null],
  ['git checkout --ours main', null],
  ['git checkout --theirs main', null],
  ['git checkout --conflict=merge main', null],
  ['git checkout --pathspec-from-file=/tmp/l main', null],
  ['git checkout main src/a.ts', null],
  ['git checkout', null],
  ['git switch', null],
  ['git checkout $B', 'run a dynamic git checkout command whose words (variables, $(…), backticks or brace lists) cannot be verified'],
  ['git switch $B', 'run a dynamic git switch command whose words (variables, $(…), backticks or brace lists) cannot be verified'],
  ['git checkout team/alice', null],
  ['git switch refs/heads/team/alice', null],
  ['git checkout HEAD', null],
  ['git checkout @', null],
  ['git switch @', null],
  ['git checkout -', 'switch your worktree off your branch team/alice (to the previous branch)'],
  ['git switch -', 'switch your worktree off your branch team/alice (to the previous branch)'],
  ['git checkout @{-1}', 'switch your worktree off your branch team/alice (to the previous branch)'],
  ['git checkout .', null],
  ['git checkout ./src', null],
  ['git checkout :src', null],
  ['git checkout ../alice/x', null],
  ['git checkout src/*.ts', null],
  ['git switch .', 'switch your worktree off your branch team/alice (to .)'],
  ['git checkout team/carol', `switch your worktree off your branch team/alice (to a new branch team/carol created from origin/team/carol (git's guess))`],
  ['git checkout --no-guess team/carol', null],
  ['git fetch && git checkout newbranch', 'switch your worktree off your branch team/alice (to newbranch, which may name a branch once the fetch before it has run)'],
  ['git fetch && git checkout src/*.ts', null],
  ['git checkout src/a.ts', null],
  ['git checkout main', 'switch your worktree off your branch team/alice (to main)'],
  ['git switch main', 'switch your worktree off your branch team/alice (to main)'],
  ['git switch src/a.ts', 'switch your worktree off your branch team/alice (to src/a.ts)'],
  ['git switch feature-x', 'switch your worktree off your branch team/alice (to feature-x)'],
  ['git checkout feature-x', 'switch your worktree off your branch team/alice (to feature-x)'],];

describe('lead git rules', () => {
  it('each spelling is refused or allowed, with its reason', () => verdicts('lead', leadCtx, LEAD));
});

describe('teammate git rules', () => {
  it('each spelling is refused or allowed, with its reason', () => verdicts('teammate', teammateCtx, TEAMMATE));
});

describe('advice', () => {
  it('says what to do instead for each kind of refusal', () => {
    expect(adviceOf('lead', 'git reset --hard HEAD~1')).toMatch(/^You are the team lead.*TeamMerge\. To move back on your own branch use `git reset HEAD~N` \(keeps files\) after checking with git log\.$/);
    for (const cmd of ['git fetch origin +x:team/bob', 'git branch -D team/bob']) expect(adviceOf('lead', cmd), cmd).toMatch(/^You are the team lead.* Merged branches are cleaned up by TeamMerge\.$/);
    expect(adviceOf('lead', 'git worktree remove x')).toMatch(/^You are the team lead.* Worktrees are cleaned up by the team tools when a teammate is done\.$/);
    expect(adviceOf('lead', 'git restore src/a.ts')).toMatch(/^You are the team lead.* To unstage only, use `git restore --staged <path>`\.$/);
    expect(adviceOf('lead', 'git merge --abort')).toMatch(/^Resolve the conflict instead/);
    for (const cmd of ['git mv a b', 'git apply p.diff']) expect(adviceOf('lead', cmd), cmd).toMatch(/^The lead does not author files/);
    for (const cmd of ['git clean -f', 'git rebase main', 'git push -f', 'git checkout -f main'])
      expect(adviceOf('lead', cmd), cmd).toMatch(/^You are the team lead, a coordinator: .*integrate finished branches with TeamMerge\.$/);
    for (const cmd of ['git worktree $X', 'git branch -D $B', 'git update-ref --stdin']) expect(adviceOf(cmd === 'git update-ref --stdin' ? 'teammate' : 'lead', cmd), cmd).toMatch(/^Run a plain literal command/);
    for (const cmd of ['git branch -D team/bob', 'git push --mirror', 'git -C /ws commit -m x', 'git worktree prune']) expect(adviceOf('teammate', cmd), cmd).toMatch(/^Another teammate owns that/);
    for (const cmd of ['git checkout main', 'git symbolic-ref HEAD refs/heads/main']) expect(adviceOf('teammate', cmd), cmd).toMatch(/^Stay on your own branch/);
  });
});

describe('contexts the corpus does not use', () => {
  it('other protected branches replace main and master; the lead\'s own branch is guarded too', () => {
    const trunk = { ...leadCtx, branch: 'lead-work', protectedBranches: ['trunk'] };
    verdicts('lead', trunk, [
      ['git branch -D trunk', 'delete, rename or force-update a shared branch (trunk)'],
      ['git branch -D lead-work', 'delete, rename or force-update a shared branch (lead-work)'],
      ['git branch -D master', null],
      ['git checkout -B main', null],
    ]);
    verdicts('teammate', { ...teammateCtx, protectedBranches: ['trunk'] }, [
      ['git branch -D trunk', 'delete, rename or force-update a branch that is not yours (trunk)'],
      ['git branch -D main', null],
      ['git push -f origin trunk', 'delete or force-update a branch that is not yours on the remote (trunk)'],
    ]);
  });

  it('a teammate without a worktree of its own may write in the shared checkout', () => {
    const loose: GuardContext = { ...teammateCtx, agentName: undefined, branch: 'feature', cwd: WS };
    verdicts('teammate', loose, [['git commit -m x', null], ['git -C /ws reset --hard HEAD~1', null]]);
  });

  it('without a git probe, only names that can only be paths are path checkouts', () => {
    const lead: GuardContext = { ...leadCtx, git: undefined };
    verdicts('lead', lead, [
      ['git checkout ./x', 'discard uncommitted work (git checkout ./x, a path, not a branch)'],
      ['git checkout src/', 'discard uncommitted work (git checkout src/, a path, not a branch)'],
      ['git checkout src/a.ts', null],
      ['git checkout feature', null],
    ]);
    const tm: GuardContext = { ...teammateCtx, git: undefined };
    verdicts('teammate', tm, [
      ['git checkout feature.', 'switch your worktree off your branch team/alice (to feature.)'],
      ['git checkout .github', 'switch your worktree off your branch team/alice (to .github)'],
      ['git checkout x:y', 'switch your worktree off your branch team/alice (to x:y)'],
      ['git checkout :src', null],
      ['git checkout src/a.ts', 'switch your worktree off your branch team/alice (to src/a.ts)'],
      ['git checkout ./src', null],
      ['git checkout ../alice/src', null],
      ['git checkout .', null],
    ]);
  });

  it('a probe that cannot list remote branches: no guess', () => {
    const git: GitProbe = { ...fakeGit, remoteBranches: undefined };
    verdicts('lead', { ...leadCtx, git }, [['git checkout team/carol', 'discard uncommitted work (git checkout team/carol, a path, not a branch)']]);
    verdicts('teammate', { ...teammateCtx, git }, [['git checkout team/carol', null]]);
  });

  it('asks the probe in the directory git runs in', () => {
    for (const [role, ctx, dir] of [['lead', leadCtx, `${WS}/sub`], ['teammate', teammateCtx, `${WS}/.worktrees/alice/sub`]] as const) {
      const asked: string[] = [];
      const git: GitProbe = {
        ...fakeGit,
        resolve: (ref, cwd) => (asked.push(`resolve ${cwd}`), fakeGit.resolve(ref, cwd)),
        remoteBranches: (name, cwd) => (asked.push(`remote ${cwd}`), fakeGit.remoteBranches?.(name, cwd) ?? []),
      };
      checkCommand(role, 'git -C sub checkout nothing-here', { ...ctx, git });
      expect(asked, role).toEqual([`resolve ${dir}`, `remote ${dir}`]);
      asked.length = 0;
      checkCommand(role, 'git checkout nothing-here', { ...ctx, git });
      expect(asked, role).toEqual([`resolve ${ctx.cwd}`, `remote ${ctx.cwd}`]);
    }
  });
});

describe('survivors of the first mutation run (git-rules.ts:209-330)', () => {
  it('teammate: a dynamic option word without a target, a dynamic branch beside a literal one, dynamic push words', () => {
    verdicts('teammate', teammateCtx, [
      ['git reset --hard --$Q', 'hard-reset to a target hidden in a dynamic word'],
      ['git branch -D feature-x $B', 'run a dynamic git branch command whose words (variables, $(…), backticks or brace lists) cannot be verified'],
      ['git push -f --$X origin team/alice', 'run a dynamic git push command whose words (variables, $(…), backticks or brace lists) cannot be verified'],
      ['git push -f origin feature/$B', 'run a dynamic git push command whose words (variables, $(…), backticks or brace lists) cannot be verified'],
      ['git worktree', null],
      // --conflict restores files only for checkout: `git switch --conflict=merge main` still switches.
      ['git switch --conflict=merge main', 'switch your worktree off your branch team/alice (to main)'],
    ]);
  });
  it('lead: a path checkout under a dynamic -C is still a path checkout; a bare checkout is not', () => {
    verdicts('lead', leadCtx, [
      ['git -C "$D" checkout src/a.ts', 'discard uncommitted work (git checkout src/a.ts, a path, not a branch)'],
      ['git checkout', null],
    ]);
  });
});

describe('survivors of the first mutation run (git-rules.ts:101-208)', () => {
  it('lead: the exact reason of each checkout, checkout-index and branch spelling', () => {
    verdicts('lead', leadCtx, [
      ['git checkout -- src/a.ts', 'discard uncommitted work (git checkout -- <path>)'],
      ['git checkout .', 'discard uncommitted work (git checkout of a whole-tree pathspec)'],
      ['git checkout --pathspec-from-file=/tmp/l', 'discard uncommitted work (git checkout --pathspec-from-file)'],
      ['git checkout-index -f -a', 'discard uncommitted work (git checkout-index --force)'],
      ['git checkout-index -a', null],
      ['git branch --force team/bob HEAD', 'delete, rename or force-update a shared branch (team/bob)'],
      ['git worktree', null],
    ]);
  });
  it('main and master are protected by default even when the lead is on another branch', () => {
    verdicts('lead', { ...leadCtx, branch: 'feature' }, [
      ['git branch -D main', 'delete, rename or force-update a shared branch (main)'],
      ['git branch -D master', 'delete, rename or force-update a shared branch (master)'],
    ]);
  });
});

describe('survivors of the first mutation run (git-rules.ts:1-100, 142)', () => {
  const dyn = (sub: string) => `run a dynamic git ${sub} command whose words (variables, $(…), backticks or brace lists) cannot be verified`;
  it('lead: team/ only at the start of a branch name; a dynamic option word, one dynamic operand among literal ones, or after --', () => {
    verdicts('lead', leadCtx, [
      ['git branch -D feature/team/x', null],
      ['git branch -D team/x', 'delete, rename or force-update a shared branch (team/x)'],
      ['git rm --cached --$X src/a.ts', dyn('rm')],
      ['git rm --cached src/a.ts src/$F', dyn('rm')],
      ['git rm --cached -- src/a.ts $F', dyn('rm')],
      ['git rm --cached src/a.ts', null],
    ]);
  });

  it('lead: git fetch into a team branch only with +, --force or --prune; the remote is not a refspec; an empty destination is FETCH_HEAD', () => {
    verdicts('lead', leadCtx, [
      ['git fetch origin main:refs/heads/team/bob', null],
      ['git fetch -p origin main:refs/heads/team/bob', 'force-update or prune a shared branch (team/bob) with git fetch'],
      ['git fetch --prune origin main:refs/heads/team/bob', 'force-update or prune a shared branch (team/bob) with git fetch'],
      ['git fetch -f git@host:team/bob.git main', null],
      ['git fetch -f git@host:team/bob.git main:team/bob', 'force-update or prune a shared branch (team/bob) with git fetch'],
      ['git fetch origin +$B:', null],
      ['git fetch origin +$B:team/x', 'force-update or prune a shared branch (team/x) with git fetch'],
    ]);
  });

  it('lead: a path that ends in ., : or * is a path, not a whole-tree pathspec (git-rules.ts:142)', () => {
    verdicts('lead', leadCtx, [
      ['git checkout src/a.', 'discard uncommitted work (git checkout src/a., a path, not a branch)'],
      ['git checkout notes:', 'discard uncommitted work (git checkout notes:, a path, not a branch)'],
      ["git checkout 'src/*'", 'discard uncommitted work (git checkout src/*, a path, not a branch)'],
      ["git checkout '*'", 'discard uncommitted work (git checkout of a whole-tree pathspec)'],
    ]);
  });
});

describe('survivors of the Stryker re-measure (git-rules.ts:1-100, session 5)', () => {
  it("a teammate's branch with refs/heads/ or heads/ in its middle is not its own branch: only a leading one is cut", () => {
    // Cutting it anywhere made `team/refs/heads/alice` read as team/alice (the teammate's own branch): allowed.
    verdicts('teammate', teammateCtx, [
      ['git switch team/refs/heads/alice', 'switch your worktree off your branch team/alice (to team/refs/heads/alice)'],
      ['git switch team/heads/alice', 'switch your worktree off your branch team/alice (to team/heads/alice)'],
      ['git switch refs/heads/team/alice', null],
      ['git switch heads/team/alice', null],
    ]);
    expect(checkCommand('teammate', 'git push -f origin HEAD:team/heads/alice', teammateCtx).allowed).toBe(false);
    expect(checkCommand('teammate', 'git push -f origin HEAD:refs/heads/team/alice', teammateCtx)).toEqual({ allowed: true });
  });
});
