import chokidar, { type FSWatcher } from 'chokidar';
import type { TeamEvent } from '../../core/team/index.js';
import { classifyTeamPath } from '../../core/team/index.js';

/**
 * The host's view of the team directory: chokidar (robust to re-created directories), classified into the
 * store's level-triggered events and coalesced per key within one macrotask. Consumers re-read state.
 */
export class TeamDirWatcher {
  private readonly watcher: FSWatcher;
  private readonly pending = new Map<string, TeamEvent>();
  private scheduled = false;
  readonly ready: Promise<void>;

  constructor(
    private readonly teamDir: string,
    private readonly onEvents: (events: TeamEvent[]) => void,
  ) {
    this.watcher = chokidar.watch(teamDir, {
      ignoreInitial: true,
      depth: 3,
      // Temp files, lock directories and quarantined copies are never state.
      ignored: (p) => /(^|[\\/])\.tmp([\\/]|$)|\.lock([\\/]|$)|\.corrupt-/.test(p),
    });
    this.ready = new Promise((resolve) => this.watcher.once('ready', () => resolve()));
    this.watcher.on('all', (_event, file) => this.onPath(file));
    this.watcher.on('error', () => {}); // chokidar re-attaches; a transient error must not crash the host
  }

  private onPath(file: string): void {
    const ev = classifyTeamPath(this.teamDir, file);
    if (!ev) return;
    this.pending.set(ev.key, ev);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const batch = [...this.pending.values()];
      this.pending.clear();
      this.onEvents(batch);
    });
  }

  async close(): Promise<void> {
    await this.watcher.close();
  }
}
