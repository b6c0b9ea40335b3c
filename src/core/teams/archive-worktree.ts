/**
 * Archive: once a teammate's work landed (its branch has nothing the lead's branch lacks, its worktree
 * nothing uncommitted) its worktree `.worktrees/<name>` and branch `team/<name>` go, with a line in the
 * team's log naming the branch's last commit (`git branch team/<name> <sha>` brings it back). A live teammate
 * or unlanded work is refused unless forced by name; a forced live teammate is stopped first. Nothing else
 * is ever removed: only the worktree git registered at that path on that branch, and that branch.
 */
import fs from 'node:fs';
import path from 'node:path';
import { deriveState, holdExclusive, isLive, TeamError, USER, type TeamStore } from '../store/index.js';
import { runGit } from '../git.js';
import { leadBranch, revParse, worktreeOf } from '../review/changes.js';
import { teammateBranch } from '../../contract/branch.js';
import { TEAM_POLICY } from '../../contract/policy.js';
import { stopMember } from './stop-member.js';

export interface Archived {
  agent: string;
  branch: string;
  /** The branch's last commit, kept in the team's log. */
  head: string | null;
  worktree: string | null;
  /** Commits the lead's branch lacked and uncommitted files, thrown away by a forced archive. */
  unlanded: number;
  dirty: number;
}

async function dirtyCount(dir: string | null): Promise<number> {
  if (!dir) return 0;
  const r = await runGit(dir, ['status', '--porcelain', '-z', '--untracked-files=all']);
  return r.stdout.toString('utf8').split('\0').filter(Boolean).length;
}

/** The registered worktree at `.worktrees/<agent>` on `team/<agent>`, or null (then nothing there is removed). */
async function registered(root: string, agent: string): Promise<string | null> {
  const dir = worktreeOf(root, agent);
  if (!dir) return null;
  const list = (await runGit(root, ['worktree', 'list', '--porcelain', '-z'])).stdout.toString('utf8').split('\0');
  const real = (p: string) => (fs.existsSync(p) ? fs.realpathSync(p) : path.resolve(p));
  const at = list.findIndex((l) => l.startsWith('worktree ') && real(l.slice(9)) === real(dir));
  const branch = at < 0 ? undefined : list.slice(at + 1, list.indexOf('', at)).find((l) => l.startsWith('branch '));
  return branch === `branch refs/heads/${teammateBranch(agent)}` ? dir : null;
}

/** Removes `agent`'s worktree and branch; `force` (the caller named it) also takes unlanded work and a live agent. */
export async function archiveTeammate(store: TeamStore, root: string, agent: string, opts: { force?: boolean; graceMs?: number } = {}): Promise<Archived> {
  const cfg = await store.config.require();
  if (!cfg.members.some((m) => m.name === agent)) throw new TeamError('not_found', `${agent} is not a member of team "${cfg.name}"`);
  // One archive of a name at a time (a double click, two cleanups): the other is told, not half-failed by git.
  const held = holdExclusive(store.paths, `archive-${agent}`, `an archive of ${agent}`, store.journal);
  try {
    return await archiveOne(store, root, agent, opts);
  } finally {
    held.release();
  }
}

async function archiveOne(store: TeamStore, root: string, agent: string, opts: { force?: boolean; graceMs?: number }): Promise<Archived> {
  const branch = teammateBranch(agent);
  const head = await revParse(root, `refs/heads/${branch}`);
  const dir = await registered(root, agent);
  if (!head && !dir) throw new TeamError('invalid', `${agent} has no worktree and no branch ${branch}: nothing to archive`);
  const into = await leadBranch(root);
  const unlanded = head ? Number((await runGit(root, ['rev-list', '--count', `${into}..refs/heads/${branch}`, '--'])).stdout.toString('utf8').trim() || 0) : 0;
  const dirty = await dirtyCount(dir);
  const state = deriveState(await store.statuses.read(agent));
  if (!opts.force) {
    const force = `thclaws team cleanup --force ${agent}`;
    if (isLive(state)) throw new TeamError('conflict', `${agent} is ${state}: stop it first, or force with \`${force}\``);
    if (unlanded || dirty) {
      const what = [unlanded ? `${unlanded} commit(s) ${into} lacks` : '', dirty ? `${dirty} uncommitted file(s)` : ''].filter(Boolean).join(' and ');
      throw new TeamError('conflict', `${agent}'s work has not landed (${what}): merge it first, or throw it away with \`${force}\``);
    }
  }
  if (isLive(state)) await stopMember(store, agent, { from: USER, graceMs: opts.graceMs ?? TEAM_POLICY.shutdownGraceMs, reason: 'its worktree is archived' });
  if (dir) {
    const r = await runGit(root, ['worktree', 'remove', '--force', '--force', dir]);
    if (r.code !== 0) throw new TeamError('conflict', `cannot remove ${dir}: ${r.stderr.trim().split('\n')[0]}`);
  }
  if (head) {
    const r = await runGit(root, ['branch', '-D', branch]);
    if (r.code !== 0) throw new TeamError('conflict', `removed ${dir ?? 'no worktree'} but cannot delete ${branch}: ${r.stderr.trim().split('\n')[0]}`);
  }
  const lost = opts.force && (unlanded || dirty) ? `; forced: ${unlanded} unlanded commit(s) and ${dirty} uncommitted file(s) thrown away` : '; its work had landed';
  store.journal.record({ event: 'note', file: store.paths.config, reason: `archived ${agent}: worktree ${dir ? path.relative(root, dir) : '(none)'} and branch ${branch}${head ? ` at ${head} (restore: git branch ${branch} ${head})` : ''} removed${lost}` });
  return { agent, branch, head, worktree: dir, unlanded, dirty };
}

/** Every teammate that can be archived without force (landed, not live); the others with why not. */
export async function archiveLanded(store: TeamStore, root: string): Promise<{ archived: Archived[]; kept: { agent: string; why: string }[] }> {
  const archived: Archived[] = [];
  const kept: { agent: string; why: string }[] = [];
  for (const m of (await store.config.require()).members) {
    if (!worktreeOf(root, m.name) && !(await revParse(root, `refs/heads/${teammateBranch(m.name)}`))) continue;
    try {
      archived.push(await archiveTeammate(store, root, m.name));
    } catch (err) {
      if (!(err instanceof TeamError)) throw err;
      kept.push({ agent: m.name, why: err.message });
    }
  }
  return { archived, kept };
}
