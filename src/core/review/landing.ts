/**
 * A landing is news: after the person lands team branches (merge panel or `thclaws team merge`), each landed
 * teammate and the lead get one message naming the branch, its commits and the target; the teammate's
 * completed tasks whose commit is on the target are marked `landed`; its sent review comments are resolved
 * (the work they asked about is on the target now).
 */
import { LEAD, USER, type TeamStore } from '../store/index.js';
import { runGit } from '../git.js';
import { teammateBranch } from '../../contract/branch.js';
import { updateIdleTeammates } from '../teams/catch-up.js';

export interface Landed {
  agent: string;
  branch: string;
  /** `<short sha> <subject>`, oldest first (at most MAX_LISTED). */
  commits: string[];
  count: number;
  tasks: string[];
  /** Commits the branch has that did not land (made after it was merged). */
  left: number;
}

const MAX_LISTED = 20;

/** What landed with `head` on `into` (it was at `start` before): one entry per agent with commits in it. */
export async function landedCommits(root: string, start: string, head: string, agents: string[]): Promise<Landed[]> {
  const out: Landed[] = [];
  for (const agent of agents) {
    const branch = teammateBranch(agent);
    // What `head` holds of the branch (the newest commit of it merged there): the branch may have moved on
    // while the checks ran (a live teammate committing), and those commits did not land.
    const tip = await runGit(root, ['merge-base', head, `refs/heads/${branch}`]);
    const log = tip.code === 0 ? await runGit(root, ['log', '--reverse', '--format=%h %s', `${start}..${tip.stdout.toString('utf8').trim()}`]) : null;
    const lines = log?.code === 0 ? log.stdout.toString('utf8').split('\n').filter(Boolean) : [];
    const left = await runGit(root, ['rev-list', '--count', `${head}..refs/heads/${branch}`]);
    if (lines.length) out.push({ agent, branch, commits: lines.slice(0, MAX_LISTED), count: lines.length, tasks: [], left: left.code === 0 ? Number(left.stdout.toString('utf8').trim()) : 0 });
  }
  return out;
}

function leftNote(landed: Landed[]): string {
  const moved = landed.filter((l) => l.left > 0);
  if (!moved.length) return 'These branches are merged: nothing of theirs is left to merge.';
  return `Not in this landing (committed after the merge): ${moved.map((l) => `${l.branch} ${l.left} commit(s)`).join(', ')}.`;
}

function commitList(l: Landed): string {
  const more = l.count > l.commits.length ? `\n  … and ${l.count - l.commits.length} more` : '';
  return `${l.commits.map((c) => `  ${c}`).join('\n')}${more}`;
}

/**
 * Marks, resolves and tells; returns the landings with their task ids. A failed message never undoes a landing.
 * `tell: false` (the lead's own TeamMerge: it knows) only marks and resolves.
 */
export async function announceLanding(store: TeamStore, root: string, landing: { into: string; start: string; head: string; agents: string[] }, tell = true): Promise<Landed[]> {
  const landed = await tellLanding(store, root, landing, tell);
  // Setting team.updateAfterLanding: the rest of the team catches up (after the news, which names the landing).
  if (landed.length) await updateIdleTeammates(store, root).catch(() => undefined);
  return landed;
}

async function tellLanding(store: TeamStore, root: string, landing: { into: string; start: string; head: string; agents: string[] }, tell: boolean): Promise<Landed[]> {
  const landed = await landedCommits(root, landing.start, landing.head, landing.agents);
  if (!landed.length) return landed;
  const at = Date.now();
  const completed = await store.tasks.list({ status: 'completed' }).catch(() => []);
  for (const l of landed) {
    for (const t of completed) {
      if (t.owner !== l.agent || t.cancelled || t.landed) continue;
      // A task completed at a commit the target does not hold (it kept working after) has not landed.
      if (t.commit && (await runGit(root, ['merge-base', '--is-ancestor', t.commit, landing.head])).code !== 0) continue;
      await store.tasks.update(t.id, { extra: { landed: { at, into: landing.into, commit: landing.head } } });
      l.tasks.push(t.id);
    }
    const sent = (await store.reviews.list(l.agent).catch(() => [])).filter((c) => c.state === 'sent').map((c) => c.id);
    if (sent.length) await store.reviews.setState(l.agent, sent, 'resolved');
    if (!tell) continue;
    const tasks = l.tasks.length ? ` Tasks landed: ${l.tasks.map((id) => `#${id}`).join(', ')}.` : '';
    await store
      .send(USER, l.agent, `Your branch ${l.branch} landed on ${landing.into} (${landing.head.slice(0, 12)}): ${l.count} commit(s)\n${commitList(l)}\n${tasks.trim() || 'No task was waiting on it.'} Start your next work from ${landing.into}.`, { summary: `${l.branch} landed on ${landing.into}` })
      .catch(() => undefined);
  }
  if (!tell) return landed;
  const parts = landed.map((l) => `${l.branch} (${l.count} commit(s)${l.tasks.length ? `; tasks ${l.tasks.map((id) => `#${id}`).join(', ')}` : ''}):\n${commitList(l)}`);
  await store
    .send(USER, LEAD, `The person landed on ${landing.into} (${landing.head.slice(0, 12)}): ${parts.join('\n')}\n${leftNote(landed)}`, { summary: `landed on ${landing.into}: ${landed.map((l) => l.branch).join(', ')}` })
    .catch(() => undefined);
  return landed;
}

/**
 * Branch tips merged into `into` (a second parent of a merge on its first-parent line, newest 500): a branch
 * whose head is one has landed there, by the panel, `team merge` or TeamMerge alike.
 */
export async function landedTips(root: string, into: string): Promise<Map<string, { commit: string; at: number }>> {
  const out = new Map<string, { commit: string; at: number }>();
  const r = await runGit(root, ['log', '--first-parent', '--merges', '-n', '500', '--format=%H %ct %P', into, '--']);
  if (r.code !== 0) return out;
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const [commit, at, , ...merged] = line.trim().split(' ');
    if (!commit || !at) continue;
    for (const tip of merged) if (!out.has(tip)) out.set(tip, { commit, at: Number(at) * 1000 });
  }
  return out;
}
