/**
 * Integration before landing: the selected branches are merged, in order, into a throw-away worktree at the
 * tip of the lead's branch (`.worktrees/.integration`, a name no teammate can have); the project's `checks`
 * run there, their output streamed; only when every check passes is the lead's branch fast-forwarded to the
 * result. A conflict skips that branch (the others still go in, as TeamMerge does); a red check lands nothing
 * and leaves the integration worktree for inspection. Refusals (dirty lead checkout, a working teammate,
 * uncommitted work left out) are decided before anything is touched.
 */
import fs from 'node:fs';
import path from 'node:path';
import { holdExclusive, TeamError, type TeamStore } from '../store/index.js';
import { leadBranch, revParse } from './changes.js';
import { gitText, runGit } from '../git.js';
import { announceLanding, type Landed } from './landing.js';
import { dirtyFiles, mergeRefusals, quoteList, type Refusal } from './merge-plan.js';
import { runCheck } from './run-check.js';
import { teammateBranch } from '../../contract/branch.js';

export interface IntegrateOptions {
  agents: string[];
  checks: string[];
  allowLive?: boolean;
  allowUncommitted?: boolean;
  /** Land even though review comments on a branch are still open (pending or sent). */
  allowOpenComments?: boolean;
  /** Check output as it comes (both streams). */
  onOutput?: (chunk: string) => void;
  /** Wraps a check command for the OS sandbox (null: runs unsandboxed). */
  wrap?: ((command: string, dir: string) => Promise<string>) | null;
  checkTimeoutMs?: number;
}

export interface IntegrateResult {
  landed: boolean;
  into: string;
  merged: string[];
  /** Branches with no commit the target lacks: nothing of theirs to merge. */
  nothing: string[];
  conflicted: Array<{ agent: string; files: string[] }>;
  refusals: Refusal[];
  warnings: Refusal[];
  checks: Array<{ command: string; code: number | null; ms: number }>;
  /** The check that failed, and where it ran (the integration worktree, kept). */
  failed: { command: string; code: number | null; dir: string } | null;
  head: string | null;
  /** Where the target was when the integration started (what landed is start..head). */
  start: string | null;
  /** What landed, per branch (commits, tasks marked landed); each was told, and so was the lead. */
  landings: Landed[];
}

const IDENT = { GIT_AUTHOR_NAME: 'thclaws lead', GIT_AUTHOR_EMAIL: 'lead@thclaws.local', GIT_COMMITTER_NAME: 'thclaws lead', GIT_COMMITTER_EMAIL: 'lead@thclaws.local' };

export function integrationDir(root: string): string {
  return path.join(root, '.worktrees', '.integration');
}

async function removeIntegration(root: string): Promise<void> {
  const dir = integrationDir(root);
  await runGit(root, ['worktree', 'remove', '--force', dir]);
  fs.rmSync(dir, { recursive: true, force: true });
  await runGit(root, ['worktree', 'prune']);
}

async function identityEnv(root: string): Promise<Record<string, string>> {
  return (await runGit(root, ['config', 'user.email'])).code === 0 ? {} : IDENT;
}

export async function integrateAndLand(store: TeamStore, root: string, opts: IntegrateOptions): Promise<IntegrateResult> {
  // One integration at a time: a second would remove the worktree the first's checks run in, then land unchecked.
  const held = holdExclusive(store.paths, 'integration', 'another merge of team branches', store.journal);
  try {
    const r = await integrate(store, root, opts);
    if (r.landed && r.head && r.start) r.landings = await announceLanding(store, root, { into: r.into, start: r.start, head: r.head, agents: r.merged });
    return r;
  } finally {
    held.release();
  }
}

async function integrate(store: TeamStore, root: string, opts: IntegrateOptions): Promise<IntegrateResult> {
  const into = await leadBranch(root);
  const result: IntegrateResult = { landed: false, into, merged: [], nothing: [], conflicted: [], refusals: [], warnings: [], checks: [], failed: null, head: null, start: null, landings: [] };
  if (into === 'HEAD') throw new TeamError('invalid', "the lead's checkout is on a detached HEAD: check out the branch to land on first");
  const start = await revParse(root, `refs/heads/${into}`);
  if (!start) throw new TeamError('invalid', `no branch "${into}"`);
  // A branch already on the target is nothing to merge, not a landing (a second `team merge` says so).
  const agents: string[] = [];
  for (const agent of opts.agents) {
    const ahead = await runGit(root, ['rev-list', '--count', `${start}..refs/heads/${teammateBranch(agent)}`]);
    if (ahead.code === 0 && Number(ahead.stdout.toString().trim()) === 0) result.nothing.push(agent);
    else agents.push(agent);
  }
  if (!agents.length) return result;
  const { refusals, warnings } = await mergeRefusals(store, root, agents, opts);
  result.refusals = refusals;
  result.warnings = warnings;
  if (refusals.length) return result;
  result.start = start;
  const dir = integrationDir(root);
  await removeIntegration(root);
  await gitText(root, ['worktree', 'add', '--detach', '-q', dir, start]);
  const env = await identityEnv(root);
  for (const agent of agents) {
    const m = await runGit(dir, ['merge', '--no-ff', '--no-edit', '-m', `Merge ${teammateBranch(agent)} (thclaws team)`, `refs/heads/${teammateBranch(agent)}`], { env });
    if (m.code === 0) {
      result.merged.push(agent);
      continue;
    }
    const files = (await gitText(dir, ['diff', '--name-only', '-z', '--diff-filter=U'])).split('\0').filter(Boolean);
    await runGit(dir, ['merge', '--abort']);
    result.conflicted.push({ agent, files });
  }
  if (!result.merged.length) {
    await removeIntegration(root);
    return result;
  }
  for (const command of opts.checks) {
    // Wrapped first: what the wrapper says (whether the checks run sandboxed) comes before the command's line.
    const line = opts.wrap ? await opts.wrap(command, dir) : command;
    opts.onOutput?.(`$ ${command}\n`);
    const t0 = Date.now();
    const code = await runCheck(line, dir, opts.onOutput, opts.checkTimeoutMs ?? 15 * 60_000);
    result.checks.push({ command, code, ms: Date.now() - t0 });
    opts.onOutput?.(`[exit ${code ?? 'killed'}]\n`);
    if (code !== 0) {
      result.failed = { command, code, dir };
      return result;
    }
  }
  const head = (await gitText(dir, ['rev-parse', 'HEAD'])).trim();
  // Land: the lead's branch moves only if it is still where the integration started and the checkout is clean.
  const dirty = await dirtyFiles(root, true);
  if (dirty.length) {
    result.refusals.push({ reason: `the lead's checkout changed while the checks ran: ${quoteList(dirty)}`, files: dirty });
    return result;
  }
  if ((await leadBranch(root)) === into) {
    const ff = await runGit(root, ['merge', '--ff-only', '-q', head]);
    if (ff.code !== 0) {
      result.refusals.push({ reason: `${into} moved while the checks ran: not landed (${ff.stderr.trim().split('\n')[0] ?? ''})` });
      return result;
    }
  } else {
    const up = await runGit(root, ['update-ref', `refs/heads/${into}`, head, start]);
    if (up.code !== 0) {
      result.refusals.push({ reason: `${into} moved while the checks ran: not landed` });
      return result;
    }
  }
  result.landed = true;
  result.head = head;
  await removeIntegration(root);
  return result;
}
