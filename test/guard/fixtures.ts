/** Shared contexts for the guard tests: a fake GitProbe modelling a team repo, so corpus checks stay pure. */
import type { GitProbe, GuardContext } from '../../src/core/guard/types.js';

/** team/alice's history: h0 (HEAD) ← a1 (tag v1, sha abc1234…) ← mb (merge-base with main). */
const REFS: Record<string, { sha: string; full: string }> = {
  HEAD: { sha: 'h0', full: 'refs/heads/team/alice' },
  '@': { sha: 'h0', full: 'refs/heads/team/alice' },
  'team/alice': { sha: 'h0', full: 'refs/heads/team/alice' },
  main: { sha: 'm1', full: 'refs/heads/main' },
  master: { sha: 'm1', full: 'refs/heads/master' },
  'team/bob': { sha: 'b1', full: 'refs/heads/team/bob' },
  'feature-x': { sha: 'f1', full: 'refs/heads/feature-x' },
  'origin/main': { sha: 'm1', full: 'refs/remotes/origin/main' },
  'origin/team/alice': { sha: 'h0', full: 'refs/remotes/origin/team/alice' },
  'origin/team/bob': { sha: 'b1', full: 'refs/remotes/origin/team/bob' },
  'origin/team/carol': { sha: 'c1', full: 'refs/remotes/origin/team/carol' },
  v1: { sha: 'a1', full: 'refs/tags/v1' },
  v2: { sha: 'b1', full: 'refs/tags/v2' },
  ORIG_HEAD: { sha: 'o1', full: 'ORIG_HEAD' },
  abc1234: { sha: 'a1', full: '' },
  def5678: { sha: 'b1', full: '' },
};
const OWN_HISTORY = new Set(['h0', 'a1', 'mb']);

function base(ref: string): string {
  return ref.replace(/^refs\/(heads|remotes|tags)\//, '').replace(/\^\{commit\}$/, '').replace(/([~^]\d*|@\{[^}]*\})+$/, '');
}

export const fakeGit: GitProbe = {
  symbolicName: (ref) => REFS[base(ref)]?.full ?? null,
  resolve: (ref) => REFS[base(ref)]?.sha ?? null,
  isAncestor: (commit) => OWN_HISTORY.has(commit),
  mergeBase: (a, b) => (['HEAD', 'team/alice', '@'].includes(a) || ['HEAD', 'team/alice', '@'].includes(b) ? 'mb' : 'b1'),
  reflog: () => ['h0', 'o1'],
  remoteBranches: (name) => Object.keys(REFS).filter((k) => REFS[k]?.full === `refs/remotes/origin/${name}`),
};

export const WS = '/ws';
export const leadCtx: GuardContext = { workspaceRoot: WS, cwd: WS, branch: 'main', agentName: 'lead', tmpDirs: ['/tmp'], home: '/home/u', git: fakeGit };
export const teammateCtx: GuardContext = {
  workspaceRoot: WS,
  cwd: `${WS}/.worktrees/alice`,
  branch: 'team/alice',
  agentName: 'alice',
  tmpDirs: ['/tmp'],
  home: '/home/u',
  git: fakeGit,
};
