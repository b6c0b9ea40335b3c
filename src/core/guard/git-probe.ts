/** The real GitProbe: short read-only git calls (rev-parse, merge-base, reflog, diff --diff-filter=U). */
import { gitOut } from '../git.js';
import type { GitProbe } from './types.js';

/** A probe is short: a hung git (a lock, a network filesystem) must not hang the guard. */
const git = (args: string[], cwd: string): string | null => gitOut(cwd, args, { timeoutMs: 5_000 });

/** Refs come from model-written commands: never let one be read as an option. */
const safe = (ref: string): boolean => ref !== '' && !ref.startsWith('-') && !ref.includes('\0');

export function createGitProbe(): GitProbe {
  return {
    symbolicName: (ref, cwd) => (safe(ref) ? git(['rev-parse', '--symbolic-full-name', ref], cwd) : null),
    resolve: (ref, cwd) => (safe(ref) ? git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], cwd) || null : null),
    isAncestor: (commit, of, cwd) => safe(commit) && safe(of) && git(['merge-base', '--is-ancestor', commit, of], cwd) !== null,
    mergeBase: (a, b, cwd) => (safe(a) && safe(b) ? git(['merge-base', a, b], cwd) || null : null),
    remoteBranches: (name, cwd) =>
      safe(name) && !/[*?[]/.test(name) ? (git(['for-each-ref', '--format=%(refname:short)', `refs/remotes/*/${name}`], cwd) ?? '').split('\n').filter(Boolean) : [],
    reflog: (ref, cwd) => (safe(ref) ? (git(['log', '-g', '--format=%H', ref], cwd) ?? '').split('\n').filter(Boolean) : []),
  };
}

/**
 * Files git lists as unmerged, root-relative; empty when no merge is in progress. Bound to the index,
 * not to MERGE_HEAD or conflict markers, so `touch .git/MERGE_HEAD` opens nothing.
 */
export function unmergedFiles(root: string): string[] {
  if (git(['rev-parse', '--verify', '--quiet', 'MERGE_HEAD'], root) === null) return [];
  const out = git(['diff', '--name-only', '--diff-filter=U', '-z'], root);
  return out ? out.split('\0').filter(Boolean) : [];
}
