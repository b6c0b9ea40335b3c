/**
 * Each member's cost to the machine (resources.ts) and how far its branch is behind the lead's (catch-up.ts),
 * as `thclaws team status` and the dashboard's cards show them. Only live agents are sampled; a worktree's
 * disk use is shown whatever the state (an idle or dead teammate's worktree still takes the space).
 */
import { deriveState, isLive, LEAD, type TeamStore } from '../store/index.js';
import { leadBranch, worktreeOf } from '../review/changes.js';
import { behindCount } from './catch-up.js';
import { runGit } from '../git.js';
import { teammateBranch } from '../../contract/branch.js';
import { readProcs, ResourceSampler, type Resources } from './resources.js';

export interface MemberCosts {
  resources: Resources;
  /** Commits of the lead's branch its branch lacks; null without a branch of its own. */
  behind: number | null;
  /** The lead's branch (`behind` counts its commits). */
  behind_of: string;
}

const MIB = 1024 * 1024;

export class TeamCosts {
  private readonly sampler = new ResourceSampler();

  constructor(
    private readonly store: TeamStore,
    private readonly root: string,
    /** A worktree's disk use: measured now (the CLI) or the last cached figure (the host). */
    private readonly disk: (dir: string) => Promise<number | null> | number | null,
  ) {}

  async sample(names: string[]): Promise<Map<string, MemberCosts>> {
    const procs = readProcs();
    const now = Date.now();
    const agents = await Promise.all(names.map(async (name) => ({ name, st: await this.store.statuses.read(name).catch(() => null) })));
    const live = agents.filter((a) => isLive(deriveState(a.st, now)) && a.st?.pid);
    const pids = new Set(live.map((a) => a.st!.pid!));
    const into = await leadBranch(this.root);
    // One git call for the branches that exist: a team of many members without branches costs no git each.
    const refs = await runGit(this.root, ['for-each-ref', '--format=%(refname:short)', 'refs/heads/team/']);
    const branches = new Set(refs.code === 0 ? refs.stdout.toString('utf8').split('\n').filter(Boolean) : []);
    const out = new Map<string, MemberCosts>();
    for (const { name, st } of agents) {
      const on = live.some((a) => a.name === name);
      const { cpu_percent, rss_bytes: rss } = on ? this.sampler.sample(name, procs, st!.pid!, (st!.command_groups ?? []).map((g) => g.pgid), pids, now) : (this.sampler.forget(name), { cpu_percent: null, rss_bytes: null });
      const dir = name === LEAD ? null : worktreeOf(this.root, name);
      const disk_bytes = dir ? await this.disk(dir) : null;
      // Whole MiB, as the card shows it: a member is pushed again when what it shows changed, not every byte.
      const rss_bytes = rss === null ? null : Math.round(rss / MIB) * MIB;
      out.set(name, { resources: { cpu_percent: cpu_percent === null ? null : Math.round(cpu_percent), rss_bytes, disk_bytes }, behind: name === LEAD || !branches.has(teammateBranch(name)) ? null : await behindCount(this.root, name, into), behind_of: into });
    }
    return out;
  }
}
