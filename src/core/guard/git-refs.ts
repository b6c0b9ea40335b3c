/**
 * The teammate hard-reset rule: a reset target must be on the teammate's own history. Refs are resolved
 * with the injected GitProbe; without one a lexical fallback (branch names only, no repository) applies.
 */
import { ADVICE, type Env, type Finding } from './finding.js';
import type { GitCall } from './git-argv.js';
import type { Word } from './words.js';
import { teammateBranch } from '../../contract/branch.js';

export function ownBranch(env: Env): string {
  return env.ctx.branch ?? (env.ctx.agentName ? teammateBranch(env.ctx.agentName) : 'HEAD');
}

const deny = (why: string): Finding => ({ why, advice: ADVICE.teammateReset });

/** `$(git merge-base A B)` / backticks, the one substitution the rule evaluates (read-only). */
const MERGE_BASE = /^\s*git\s+merge-base\s+([\w./@{}~^-]+)\s+([\w./@{}~^-]+)\s*$/;

function isSelf(ref: string, own: string): boolean {
  return ref === 'HEAD' || ref === '@' || ref === own || ref === `refs/heads/${own}` || ref === `heads/${own}`;
}

/** Splits `main~2^` into the name and its navigation suffix. */
function baseOf(ref: string): { base: string; suffix: string } {
  const m = /^(.*?)((?:[~^]\d*|@\{[^}]*\}|\^\{[^}]*\})*)$/.exec(ref);
  return { base: m?.[1] ?? ref, suffix: m?.[2] ?? '' };
}

/** `optionHidden`: a dynamic word stood where `--hard`'s target could be. */
export function checkResetTarget(w: Word | undefined, optionHidden: boolean, call: GitCall, env: Env): Finding | null {
  if (optionHidden) return { why: 'hard-reset to a target hidden in a dynamic word', advice: ADVICE.dynamic };
  if (!w) return null; // HEAD
  const own = ownBranch(env);
  const cwd = call.dirs?.[0] ?? env.ctx.cwd;
  const git = env.ctx.git;
  if (w.dynamic) {
    const m = w.substs.length === 1 && w.text === '' ? MERGE_BASE.exec(w.substs[0] as string) : null;
    if (!m) return { why: 'hard-reset to a target computed at run time', advice: ADVICE.dynamic };
    const [a, b] = [m[1] as string, m[2] as string];
    // The merge-base of HEAD and anything is an ancestor of HEAD by definition.
    if (isSelf(a, own) || isSelf(b, own)) return null;
    if (!git) return deny(`hard-reset to the merge-base of ${a} and ${b}, which may not be on your branch`);
    const sha = git.mergeBase(a, b, cwd);
    return sha === null ? null : ownHistory(sha, `$(git merge-base ${a} ${b})`, own, cwd, env);
  }
  const ref = w.text;
  const { base, suffix } = baseOf(ref);
  if ((base === '' || isSelf(base, own)) && !suffix.includes('@{')) return null; // HEAD~N, @^, own~2: ancestors
  if (!git) {
    if (/^[0-9a-f]{7,40}$/i.test(base) || base === 'ORIG_HEAD' || base === '' || isSelf(base, own)) return null;
    return deny(`hard-reset to ${ref}, a different branch or ref — it would discard your branch's commits and overwrite your worktree with someone else's tree`);
  }
  // A fetch earlier in the same input can move FETCH_HEAD and remote-tracking refs after this check.
  if (env.fetchFirst) return deny(`hard-reset to ${ref} in a command that fetches first — what ${ref} will point at cannot be checked now; run the fetch alone, then reset`);
  const full = git.symbolicName(base, cwd);
  if (full !== null && full !== `refs/heads/${own}`) {
    if (full.startsWith('refs/heads/')) return deny(`hard-reset to another branch (${ref}) — it would discard your branch's commits and overwrite your worktree with someone else's tree`);
    if (full.startsWith('refs/remotes/')) return deny(`hard-reset to a remote ref (${ref}) — it would discard your branch's commits`);
  }
  const sha = git.resolve(ref, cwd);
  // Fail closed: a ref that does not resolve now may resolve by the time the command runs.
  if (sha === null) return deny(`hard-reset to ${ref}, which does not resolve to a commit now — it cannot be checked against your branch's history`);
  return ownHistory(sha, ref, own, cwd, env);
}

function ownHistory(sha: string, label: string, own: string, cwd: string, env: Env): Finding | null {
  const git = env.ctx.git;
  if (!git) return null;
  if (git.isAncestor(sha, 'HEAD', cwd)) return null;
  // Undoing a reset (ORIG_HEAD, an old sha) is fine when the commit was once on this branch.
  const reflogRef = own === 'HEAD' ? 'HEAD' : `refs/heads/${own}`;
  if (git.reflog(reflogRef, cwd).includes(sha)) return null;
  return deny(`hard-reset to ${label} (${sha.slice(0, 10)}), which is not on your branch's history — it would discard your commits and overwrite your worktree with someone else's tree`);
}
