/**
 * The merge panel's reading side: each teammate branch with ahead/behind, last commit, completed tasks, open
 * review comments and uncommitted files; the dry run that predicts, in the chosen order, which branches would
 * merge and which would conflict (each clean merge is simulated as a commit object, so a later branch is
 * checked against the tree the earlier ones would leave); and the reasons a merge must be refused.
 */
import { deriveState, TeamError, type AgentState, type TeamStore } from '../store/index.js';
import { leadBranch, revParse, teamBranches, teammateChanges, worktreeOf, type FileChange } from './changes.js';
import { parseMergeTree } from './diff-parse.js';
import { landedTips } from './landing.js';
import { gitText, runGit, splitZ } from '../git.js';
import { teammateBranch } from '../../contract/branch.js';

export interface BranchOverview {
  agent: string;
  branch: string;
  ahead: number;
  behind: number;
  last_commit: { sha: string; subject: string; at: number } | null;
  completed_tasks: Array<{ id: string; subject: string }>;
  open_comments: number;
  /** Files the merge would leave out (not committed in the teammate's worktree). */
  uncommitted: string[];
  state: AgentState;
  landed: { into: string; at: number; commit: string } | null;
}

export async function mergeOverview(store: TeamStore, root: string): Promise<{ into: string; branches: BranchOverview[] }> {
  const into = await leadBranch(root);
  const tasks = await store.tasks.list({ status: 'completed' }).catch(() => []);
  const tips = await landedTips(root, into);
  const out: BranchOverview[] = [];
  for (const agent of await teamBranches(root)) {
    const ch = await teammateChanges(root, agent, { into });
    const comments = await store.reviews.list(agent).catch(() => []);
    const state = deriveState(await store.statuses.read(agent).catch(() => null));
    const mine = tasks.filter((t) => t.owner === agent);
    // Landed: its head merged into the target (or, merged some other way, its tasks marked landed).
    const tip = ch.head ? tips.get(ch.head) : undefined;
    const last = tip ? { into, ...tip } : mine.flatMap((t) => (t.landed ? [t.landed] : [])).sort((a, b) => b.at - a.at)[0];
    out.push({
      agent,
      branch: ch.branch,
      ahead: ch.ahead,
      behind: ch.behind,
      last_commit: ch.last_commit,
      completed_tasks: mine.map((t) => ({ id: t.id, subject: t.subject })),
      open_comments: comments.filter((c) => c.state === 'pending' || c.state === 'sent').length,
      uncommitted: uniq(ch.files.filter((f: FileChange) => f.source !== 'committed').map((f) => f.path)),
      state,
      landed: ch.ahead === 0 && last ? { into: last.into, at: last.at, commit: last.commit } : null,
    });
  }
  return { into, branches: out };
}

function uniq(a: string[]): string[] {
  return [...new Set(a)];
}

export interface PredictedMerge {
  agent: string;
  branch: string;
  result: 'clean' | 'conflict' | 'nothing' | 'missing';
  ahead: number;
  conflicts: string[];
  messages: string[];
}

const SIM_ENV = { GIT_AUTHOR_NAME: 'thclaws', GIT_AUTHOR_EMAIL: 'dry-run@thclaws.local', GIT_COMMITTER_NAME: 'thclaws', GIT_COMMITTER_EMAIL: 'dry-run@thclaws.local' };

/**
 * Dry run in order: each branch is merged (with `merge-tree`, no checkout touched) into the result of the
 * clean merges before it, exactly as the real merge applies them one after another.
 */
export async function predictMerges(root: string, agents: string[], into?: string): Promise<{ into: string; results: PredictedMerge[] }> {
  const target = into ?? (await leadBranch(root));
  let tip = await revParse(root, target);
  if (!tip) throw new TeamError('invalid', `no branch "${target}" to merge into`);
  const results: PredictedMerge[] = [];
  for (const agent of agents) {
    const branch = teammateBranch(agent);
    const head = await revParse(root, `refs/heads/${branch}`);
    if (!head) {
      results.push({ agent, branch, result: 'missing', ahead: 0, conflicts: [], messages: [] });
      continue;
    }
    const ahead = Number((await gitText(root, ['rev-list', '--count', `${tip}..${head}`])).trim());
    if (!ahead) {
      results.push({ agent, branch, result: 'nothing', ahead, conflicts: [], messages: [] });
      continue;
    }
    const mt = await runGit(root, ['merge-tree', '--write-tree', '-z', tip, head]);
    if (mt.code !== 0 && mt.code !== 1) throw new Error(`git merge-tree failed: ${mt.stderr.trim().split('\n')[0] ?? ''}`);
    const parsed = parseMergeTree(mt.stdout, mt.code === 0);
    if (!parsed.clean) {
      results.push({ agent, branch, result: 'conflict', ahead, conflicts: parsed.conflicted, messages: parsed.messages });
      continue;
    }
    tip = (await gitText(root, ['commit-tree', parsed.tree, '-p', tip, '-p', head, '-m', `dry run: merge ${branch}`], { env: SIM_ENV })).trim();
    results.push({ agent, branch, result: 'clean', ahead, conflicts: [], messages: [] });
  }
  return { into: target, results };
}

export interface Refusal {
  reason: string;
  files?: string[];
}

/**
 * Why merging `agents` now must be refused (empty: go ahead). Nothing here changes anything.
 * `allowLive`: merge a working teammate's last commit anyway; `allowUncommitted`: leave uncommitted files out.
 */
export async function mergeRefusals(store: TeamStore, root: string, agents: string[], opts: { allowLive?: boolean; allowUncommitted?: boolean; allowOpenComments?: boolean } = {}): Promise<{ refusals: Refusal[]; warnings: Refusal[] }> {
  const refusals: Refusal[] = [];
  const warnings: Refusal[] = [];
  if ((await runGit(root, ['rev-parse', '-q', '--verify', 'MERGE_HEAD'])).code === 0) refusals.push({ reason: "a merge is already in progress in the lead's checkout: finish it or abort it first" });
  const dirty = await dirtyFiles(root, true);
  if (dirty.length) refusals.push({ reason: `the lead's checkout has uncommitted changes (commit or stash them first): ${quoteList(dirty)}`, files: dirty });
  const known = await teamBranches(root);
  for (const agent of agents) {
    if (!known.includes(agent)) {
      refusals.push({ reason: `no branch ${teammateBranch(agent)}` });
      continue;
    }
    const state = deriveState(await store.statuses.read(agent).catch(() => null));
    if (state === 'working' && !opts.allowLive) {
      refusals.push({ reason: `${agent} is working on ${teammateBranch(agent)} right now: merge its last commit anyway (--last-commit), or ask it to commit and pause first` });
    }
    // A comment still open asks for a change the landing would go without: the person decides.
    const open = (await store.reviews.list(agent).catch(() => [])).filter((c) => c.state === 'pending' || c.state === 'sent');
    if (open.length) {
      const unsent = open.filter((c) => c.state === 'pending').length;
      const reason = `${agent} has ${open.length} open review comment(s)${unsent ? ` (${unsent} not sent yet)` : ''} on ${quoteList([...new Set(open.map((c) => c.path))], 5)}`;
      if (opts.allowOpenComments) warnings.push({ reason: `${reason}: landed anyway` });
      else refusals.push({ reason: `${reason}: land anyway (--despite-comments), or send and settle them first` });
    }
    const wt = worktreeOf(root, agent);
    if (wt) {
      const left = await dirtyFiles(wt);
      if (left.length) {
        const r = { reason: `${agent}'s uncommitted changes would be left out: ${quoteList(left)}`, files: left };
        if (opts.allowUncommitted) warnings.push(r);
        else refusals.push({ ...r, reason: `${r.reason} (ask it to commit, or merge without them: --leave-uncommitted)` });
      }
    }
  }
  return { refusals, warnings };
}

/** Paths for a one-line message: each quoted, so a space or a newline in a name cannot break the line. */
export function quoteList(paths: string[], max = 20): string {
  const shown = paths.slice(0, max).map((p) => JSON.stringify(p));
  return `${shown.join(', ')}${paths.length > max ? ` and ${paths.length - max} more` : ''}`;
}

/** The team's own state and the teammates' worktrees inside the lead's checkout are never its changes. */
const TEAM_DIRS = ['.thclaws/', '.worktrees/'];

/**
 * Paths `git status` reports in a checkout (tracked changes and untracked files, not ignored ones);
 * `lead`: without the team's own directories.
 */
export async function dirtyFiles(dir: string, lead = false): Promise<string[]> {
  const r = await runGit(dir, ['status', '--porcelain=v1', '-z', '--untracked-files=all']);
  if (r.code !== 0) return [];
  const f = splitZ(r.stdout);
  const out: string[] = [];
  for (let i = 0; i < f.length; i++) {
    const rec = f[i]!;
    out.push(rec.slice(3));
    if (rec[0] === 'R' || rec[0] === 'C') i++; // the rename's source follows as its own field
  }
  return lead ? out.filter((p) => !TEAM_DIRS.some((d) => p === d || p.startsWith(d))) : out;
}
