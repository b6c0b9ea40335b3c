/**
 * TeamMerge's `leave_conflicted` for the merge panel: one teammate branch that conflicts is merged into the
 * lead's own checkout and left in progress, so the person sees each conflicted file with both sides (the
 * lead's version against the teammate's, and the file as git left it, with its conflict markers); abort puts
 * the lead's checkout back where it was. Refused, changing nothing: a dirty lead checkout, a merge already in
 * progress, a branch that merges cleanly (that goes through the integration and checks instead).
 */
import fs from 'node:fs';
import path from 'node:path';
import { TeamError } from '../store/index.js';
import { leadBranch, revParse } from './changes.js';
import { gitText, runGit, splitZ } from '../git.js';
import { dirtyFiles, quoteList } from './merge-plan.js';
import { abortLeftMerge, mergeWork, recordLeftMerge, type Aborted } from './merge-work.js';
import { teammateBranch } from '../../contract/branch.js';

/** Past this a conflicted file's marked content is not sent (its path and sides' patch still are). */
const MAX_MARKED_BYTES = 512 * 1024;

export interface ConflictSide {
  path: string;
  /** The lead's side against the teammate's, as a unified patch (null: one side deleted the file, or too large). */
  patch: string | null;
  /** The working-tree file as git left it, with `<<<<<<<` / `>>>>>>>` markers (null: absent, binary or too large). */
  marked: string | null;
}

export interface LeftConflicted {
  agent: string | null;
  into: string;
  files: ConflictSide[];
  /** Files resolved or edited since the merge was left (abort asks before throwing them away). */
  touched: string[];
}

const IDENT = { GIT_AUTHOR_NAME: 'thclaws lead', GIT_AUTHOR_EMAIL: 'lead@thclaws.local', GIT_COMMITTER_NAME: 'thclaws lead', GIT_COMMITTER_EMAIL: 'lead@thclaws.local' };

async function merging(root: string): Promise<boolean> {
  return (await revParse(root, 'MERGE_HEAD')) !== null;
}

/** The merge left in progress in the lead's checkout, file by file with both sides; null when there is none. */
export async function conflictSides(root: string): Promise<LeftConflicted | null> {
  if (!(await merging(root))) return null;
  const msgFile = path.resolve(root, (await gitText(root, ['rev-parse', '--git-path', 'MERGE_MSG'])).trim());
  const msg = fs.existsSync(msgFile) ? fs.readFileSync(msgFile, 'utf8') : '';
  const agent = /team\/([A-Za-z0-9_][A-Za-z0-9_-]*)/.exec(msg)?.[1] ?? null;
  const stages = new Map<string, Set<string>>();
  for (const rec of splitZ((await runGit(root, ['ls-files', '-u', '-z'])).stdout)) {
    const tab = rec.indexOf('\t');
    const p = rec.slice(tab + 1);
    (stages.get(p) ?? stages.set(p, new Set()).get(p)!).add(rec.slice(tab - 1, tab));
  }
  const files: ConflictSide[] = [];
  for (const [p, s] of stages) {
    let patch: string | null = null;
    if (s.has('2') && s.has('3')) {
      const d = await runGit(root, ['diff', '--no-color', '--no-ext-diff', `:2:${p}`, `:3:${p}`], { maxBytes: MAX_MARKED_BYTES * 4 });
      patch = d.code === 0 && !d.truncated ? d.stdout.toString('utf8') : null;
    }
    let marked: string | null = null;
    const abs = path.join(root, p);
    try {
      const st = fs.statSync(abs);
      if (st.isFile() && st.size <= MAX_MARKED_BYTES) {
        const buf = fs.readFileSync(abs);
        if (!buf.includes(0)) marked = buf.toString('utf8');
      }
    } catch {
      // deleted on one side: only the patch (or nothing) to show
    }
    files.push({ path: p, patch, marked });
  }
  return { agent, into: await leadBranch(root), files, touched: (await mergeWork(root)).touched };
}

/** Merges team/<agent> into the lead's checkout and leaves the conflict in progress for the person. */
export async function leaveConflicted(root: string, agent: string): Promise<LeftConflicted> {
  const into = await leadBranch(root);
  if (into === 'HEAD') throw new TeamError('invalid', "the lead's checkout is on a detached HEAD: check out the branch to merge into first");
  if (await merging(root)) throw new TeamError('conflict', 'a merge is already in progress in the lead\'s checkout: finish it or abort it first');
  const branch = `refs/heads/${teammateBranch(agent)}`;
  if (!(await revParse(root, branch))) throw new TeamError('invalid', `no branch ${teammateBranch(agent)}`);
  const dirty = await dirtyFiles(root, true);
  if (dirty.length) throw new TeamError('conflict', `the lead's checkout has uncommitted changes (commit or stash them first): ${quoteList(dirty)}`);
  const predicted = await runGit(root, ['merge-tree', '--write-tree', '--name-only', '--no-messages', 'HEAD', branch]);
  if (predicted.code === 0) throw new TeamError('conflict', `${teammateBranch(agent)} merges cleanly into ${into}: nothing to leave conflicted (merge it with the checks)`);
  const env = (await runGit(root, ['config', 'user.email'])).code === 0 ? {} : IDENT;
  await runGit(root, ['merge', '--no-ff', '--no-commit', '-m', `Merge ${teammateBranch(agent)} (thclaws team)`, branch], { env });
  if (await merging(root)) await recordLeftMerge(root, 'person');
  const left = await conflictSides(root);
  if (!left || !left.files.length) {
    if (left) await runGit(root, ['merge', '--abort']);
    throw new TeamError('conflict', `git could not start the merge of ${teammateBranch(agent)}`);
  }
  return { ...left, agent };
}

/** Backs out of the merge left in progress; refused while it holds the person's work unless confirmed (then saved). */
export function abortMerge(root: string, opts: { confirm?: boolean } = {}): Promise<Aborted> {
  return abortLeftMerge(root, opts);
}
