import fs from 'node:fs';
import path from 'node:path';
import chokidar, { type FSWatcher } from 'chokidar';
import type { TeamEvent } from '../../core/team/index.js';
import { classifyTeamPath } from '../../core/team/index.js';

// Temp files, locks (in `.locks/`, or beside the file from an older version; their break markers too) and
// quarantined copies are never state. Ignoring `.tmp/` and `.locks/` keeps chokidar from watching them at all.
const NOT_STATE = /(^|[\\/])\.(tmp|locks)([\\/]|$)|\.lock(\.break)?([\\/]|$)|\.corrupt-/;

const REARM_CHECK_MS = 1000;

/**
 * Device, inode and birth time of the directory (through a symlink), null when absent. The birth time tells a
 * re-created dir that got its predecessor's inode back (ext4 does that at once) from the same dir.
 */
function dirIdentity(dir: string): string | null {
  const st = fs.statSync(dir, { throwIfNoEntry: false });
  return st?.isDirectory() ? `${st.dev}:${st.ino}:${st.birthtimeMs}` : null;
}

/**
 * The host's view of the team directory: chokidar (robust to re-created directories), classified into the
 * store's level-triggered events and coalesced per key within one macrotask. Consumers re-read state.
 */
export class TeamDirWatcher {
  private readonly watcher: FSWatcher;
  private dirId: string | null;
  private readonly recheck: NodeJS.Timeout;
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
      ignored: (p) => NOT_STATE.test(p),
    });
    this.watcher.on('all', (event, file) => {
      // The root itself gone: whatever dir appears there next is a new one.
      if (event === 'unlinkDir' && path.resolve(file) === path.resolve(teamDir)) this.dirId = null;
      this.onPath(file);
    });
    this.watcher.on('error', () => {}); // chokidar re-attaches; a transient error must not crash the host
    // chokidar does not follow its own root through a delete and re-create (a team deleted and created again,
    // a symlink re-pointed), and a parent watcher misses a quick re-create: one stat a second notices the new
    // directory, which is then watched afresh and read whole.
    this.dirId = dirIdentity(teamDir);
    this.recheck = setInterval(() => {
      const id = dirIdentity(teamDir);
      if (id === this.dirId) return;
      this.dirId = id;
      if (id !== null) void this.rearm();
    }, REARM_CHECK_MS);
    this.recheck.unref();
    this.ready = new Promise((resolve) => this.watcher.once('ready', () => resolve()));
  }

  private async rearm(): Promise<void> {
    await this.watcher.unwatch(this.teamDir);
    this.watcher.add(this.teamDir);
    // What was written before the new watch began: every file now there, as events (consumers re-read).
    const walk = (dir: string, depth: number) => {
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const p = path.join(dir, e.name);
        if (NOT_STATE.test(p)) continue;
        if (e.isDirectory() && depth < 3) walk(p, depth + 1);
        else this.onPath(p);
      }
    };
    walk(this.teamDir, 0);
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
    clearInterval(this.recheck);
    await this.watcher.close();
  }
}
