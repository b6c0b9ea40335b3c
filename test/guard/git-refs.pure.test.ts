/**
 * The teammate hard-reset rule (git-refs.ts) beyond the corpus: a teammate known without a branch, the
 * lexical fallback without a git probe, reflog entries, and which repository the probe is asked about.
 */
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/core/guard/index.js';
import type { GitProbe, GuardContext } from '../../src/core/guard/types.js';
import { fakeGit, teammateCtx, WS } from './fixtures.js';

const reasonOf = (v: { allowed: boolean; reason?: string }) => (v.allowed ? null : v.reason);
const own = `${WS}/.worktrees/alice`;

describe('teammate hard reset', () => {
  it('a teammate with no branch in its context owns team/<name>, or HEAD without a name', () => {
    const noBranch = { ...teammateCtx, branch: undefined };
    expect(checkCommand('teammate', 'git reset --hard team/alice~1', noBranch)).toEqual({ allowed: true });
    expect(reasonOf(checkCommand('teammate', 'git reset --hard team/bob', noBranch))).toMatch(/another branch \(team\/bob\)/);
    const calls: string[] = [];
    const nameless: GuardContext = { ...teammateCtx, branch: undefined, agentName: undefined, git: { ...fakeGit, reflog: (ref) => (calls.push(ref), []) } };
    expect(checkCommand('teammate', 'git reset --hard team/alice', nameless).allowed).toBe(false);
    expect(checkCommand('teammate', 'git reset --hard def5678', nameless).allowed).toBe(false);
    expect(calls).toEqual(['HEAD']);
    const named: string[] = [];
    checkCommand('teammate', 'git reset --hard def5678', { ...teammateCtx, git: { ...fakeGit, reflog: (ref) => (named.push(ref), []) } });
    expect(named).toEqual(['refs/heads/team/alice']);
  });

  it('names of its own branch in every spelling are its history', () => {
    for (const ref of ['refs/heads/team/alice', 'heads/team/alice', 'refs/heads/team/alice~2', '@~1', '~1'])
      expect(checkCommand('teammate', `git reset --hard ${ref}`, teammateCtx), ref).toEqual({ allowed: true });
  });

  it('a reflog position (HEAD@{1}) is checked against the history, not trusted as an ancestor', () => {
    // After `git checkout main; git checkout team/alice`, HEAD@{1} is main's tip.
    const git: GitProbe = { ...fakeGit, resolve: (ref) => (ref === 'HEAD@{1}' ? 'm1' : fakeGit.resolve(ref, own)), isAncestor: (c) => c !== 'm1', reflog: () => [] };
    expect(reasonOf(checkCommand('teammate', 'git reset --hard HEAD@{1}', { ...teammateCtx, git }))).toBe(
      "teammate may not run `git reset --hard HEAD@{1}`: it would hard-reset to HEAD@{1} (m1), which is not on your branch's history — it would discard your commits and overwrite your worktree with someone else's tree.",
    );
    // Undoing a reset: the commit was on this branch once (its reflog holds it).
    expect(checkCommand('teammate', 'git reset --hard HEAD@{1}', { ...teammateCtx, git: { ...git, reflog: () => ['m1'] } })).toEqual({ allowed: true });
  });

  it('each refusal says why: another branch, a remote ref, a ref that does not resolve, a fetch before it', () => {
    expect(reasonOf(checkCommand('teammate', 'git reset --hard main', teammateCtx))).toMatch(/it would hard-reset to another branch \(main\) — it would discard your branch's commits/);
    expect(reasonOf(checkCommand('teammate', 'git reset --hard origin/main', teammateCtx))).toMatch(/it would hard-reset to a remote ref \(origin\/main\) — it would discard/);
    expect(reasonOf(checkCommand('teammate', 'git reset --hard v2', teammateCtx))).toMatch(/hard-reset to v2 \(b1\), which is not on your branch's history/);
    expect(reasonOf(checkCommand('teammate', 'git reset --hard nope', teammateCtx))).toMatch(/hard-reset to nope, which does not resolve to a commit now/);
    expect(reasonOf(checkCommand('teammate', 'git fetch; git reset --hard v1', teammateCtx))).toMatch(/hard-reset to v1 in a command that fetches first/);
    expect(reasonOf(checkCommand('teammate', 'git reset --hard $REF', teammateCtx))).toMatch(/hard-reset to a target computed at run time/);
    expect(reasonOf(checkCommand('teammate', 'git reset --hard --$Q main', teammateCtx))).toMatch(/hard-reset to a target hidden in a dynamic word/);
  });

  it('only a bare $(git merge-base A B) is evaluated, in the directory git runs in', () => {
    const asked: Array<[string, string, string]> = [];
    const git: GitProbe = { ...fakeGit, mergeBase: (a, b, cwd) => (asked.push([a, b, cwd]), fakeGit.mergeBase(a, b, cwd)) };
    const ctx = { ...teammateCtx, git };
    expect(checkCommand('teammate', 'git -C sub reset --hard $(git merge-base team/bob main)', ctx).allowed).toBe(false);
    expect(asked).toEqual([['team/bob', 'main', `${own}/sub`]]);
    expect(checkCommand('teammate', 'git reset --hard "v$(git merge-base HEAD main)"', ctx).allowed).toBe(false);
    expect(checkCommand('teammate', 'git reset --hard $(git merge-base HEAD main)$(git merge-base HEAD main)', ctx).allowed).toBe(false);
    expect(checkCommand('teammate', 'git reset --hard $(git merge-base main team/alice)', ctx)).toEqual({ allowed: true });
    // Two branches with no common commit: git's reset fails by itself.
    const none = { ...teammateCtx, git: { ...fakeGit, mergeBase: () => null } };
    expect(checkCommand('teammate', 'git reset --hard $(git merge-base team/bob main)', none)).toEqual({ allowed: true });
  });

  it('a commit off its history is named by its ref and a short sha, checked against HEAD', () => {
    const long = 'f00dfeedf00dfeedf00dfeedf00dfeedf00dfeed';
    const of: string[] = [];
    const git: GitProbe = { ...fakeGit, resolve: () => long, mergeBase: () => long, isAncestor: (_c, o) => (of.push(o), false), reflog: () => [] };
    const ctx = { ...teammateCtx, git };
    expect(reasonOf(checkCommand('teammate', 'git reset --hard v9', ctx))).toMatch(/hard-reset to v9 \(f00dfeedf0\), which is not on your branch's history/);
    expect(reasonOf(checkCommand('teammate', 'git reset --hard $(git merge-base team/bob main)', ctx))).toMatch(/hard-reset to \$\(git merge-base team\/bob main\) \(f00dfeedf0\), which is not/);
    expect(of).toEqual(['HEAD', 'HEAD']);
  });

  it('resolves refs in the directory git runs in (-C)', () => {
    const asked: string[] = [];
    const git: GitProbe = { ...fakeGit, resolve: (ref, cwd) => (asked.push(cwd), fakeGit.resolve(ref, cwd)) };
    checkCommand('teammate', 'git -C sub reset --hard v1', { ...teammateCtx, git });
    expect(asked).toEqual([`${own}/sub`]);
  });

  describe('without a git probe (lexical fallback)', () => {
    const ctx: GuardContext = { ...teammateCtx, git: undefined };
    it('shas, ORIG_HEAD and its own branch pass; any other name is another branch', () => {
      for (const ref of ['abc1234', 'ABCDEF0', '0123456789abcdef0123456789abcdef01234567', 'ORIG_HEAD', 'HEAD~2', 'team/alice@{1}', '@~1', '@{1}', 'HEAD@{10}',
        'HEAD^^', 'HEAD~^2', 'HEAD^{commit}', 'refs/heads/team/alice~2', 'heads/team/alice'])
        expect(checkCommand('teammate', `git reset --hard ${ref}`, ctx), ref).toEqual({ allowed: true });
      for (const ref of ['main', 'abc123', '0123456789abcdef0123456789abcdef012345678', 'abc1234x', 'v1'])
        expect(reasonOf(checkCommand('teammate', `git reset --hard ${ref}`, ctx)), ref).toMatch(new RegExp(`hard-reset to ${ref}, a different branch or ref`));
    });
    it('a merge-base with its own branch passes; any other is refused', () => {
      expect(checkCommand('teammate', 'git reset --hard $(git merge-base HEAD main)', ctx)).toEqual({ allowed: true });
      expect(reasonOf(checkCommand('teammate', 'git reset --hard $(git merge-base team/bob main)', ctx))).toMatch(/merge-base of team\/bob and main, which may not be on your branch/);
    });
  });
});
