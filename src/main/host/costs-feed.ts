/**
 * The cards' cost figures and behind counts: every SAMPLE_MS the live agents' process trees are read (one
 * pass over /proc) and each worktree teammate's branch is compared with the lead's; a worktree's disk use is
 * re-measured at most every DISK_MS (du walks every file). A member whose figures changed is pushed again.
 * Update and Archive from a card go through here, so the card shows their outcome at once.
 */
import type { TeamStore } from '../../core/store/index.js';
import { inBackground } from '../../core/git.js';
import { archiveTeammate, type Archived } from '../../core/teams/archive-worktree.js';
import { updateTeammate, type UpdateOutcome } from '../../core/teams/catch-up.js';
import { TeamCosts, type MemberCosts } from '../../core/teams/member-costs.js';
import { DiskCache } from '../../core/teams/resources.js';

const SAMPLE_MS = 5000;
const DISK_MS = 30_000;

export class CostsFeed {
  private readonly disk: DiskCache;
  private readonly costs: TeamCosts;
  private readonly current = new Map<string, string>();
  private timer: NodeJS.Timeout | null = null;
  private sampling: Promise<void> | null = null;

  constructor(
    private readonly store: TeamStore,
    private readonly root: string,
    private readonly names: () => string[],
    private readonly changed: (name: string) => void,
  ) {
    this.disk = new DiskCache(DISK_MS, () => void this.refresh());
    this.costs = new TeamCosts(store, root, (dir) => this.disk.get(dir));
  }

  start(): void {
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), SAMPLE_MS);
    this.timer.unref();
  }

  of(name: string): MemberCosts | undefined {
    const c = this.current.get(name);
    return c ? (JSON.parse(c) as MemberCosts) : undefined;
  }

  /** One sample (a second call while one runs waits for it, then samples again: it may follow a change). */
  async refresh(): Promise<void> {
    while (this.sampling) await this.sampling;
    this.sampling = inBackground(async () => {
      const names = this.names();
      const sample = await this.costs.sample(names).catch(() => new Map<string, MemberCosts>());
      for (const [name, c] of sample) {
        const json = JSON.stringify(c);
        if (this.current.get(name) === json) continue;
        this.current.set(name, json);
        this.changed(name);
      }
    }).finally(() => (this.sampling = null));
    await this.sampling;
  }

  async update(name: string): Promise<UpdateOutcome> {
    try {
      return await updateTeammate(this.store, this.root, name);
    } finally {
      await this.refresh();
    }
  }

  async archive(name: string, force: boolean): Promise<Archived> {
    try {
      return await archiveTeammate(this.store, this.root, name, { force });
    } finally {
      await this.refresh();
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
