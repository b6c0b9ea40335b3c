import type { TeamEvent, TeamWatcher } from '../../core/store/index.js';
import { watchTeam } from '../../core/store/index.js';

/**
 * The host's view of the team directory: the store's own change feed (`watchTeam`: fs.watch on each team
 * directory and its parent, so a team dir deleted and created again, or a re-pointed symlink, is followed,
 * plus a stat-diff safety poll), handed over as one batch: the feed already coalesces per macrotask and key,
 * and calls its listeners for a batch in one go, so a microtask gathers them. Consumers re-read state.
 *
 * Not chokidar: chokidar answers every event in a directory by re-reading that directory and lstat'ing each
 * entry, so each heartbeat of each idle teammate cost the host a readdir and five lstats; here an event costs
 * its classification. (Locks and temp files live in `.locks/` and `.tmp/`, which no watch follows.)
 */
export class TeamDirWatcher {
  private readonly feed: TeamWatcher;
  private readonly pending = new Map<string, TeamEvent>();
  private scheduled = false;
  readonly ready: Promise<void> = Promise.resolve();

  constructor(
    teamDir: string,
    private readonly onEvents: (events: TeamEvent[]) => void,
  ) {
    this.feed = watchTeam(teamDir, { createDirs: false });
    this.feed.onChange((ev) => this.onEvent(ev));
  }

  private onEvent(ev: TeamEvent): void {
    this.pending.set(ev.key, ev);
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      const batch = [...this.pending.values()];
      this.pending.clear();
      this.onEvents(batch);
    });
  }

  async close(): Promise<void> {
    this.feed.close();
  }
}
