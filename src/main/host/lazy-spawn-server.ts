import fs from 'node:fs';
import type { TeamStore } from '../../core/store/index.js';
import type { TeammateLauncher } from '../../core/teams/launcher.js';
import { serveSpawnRequests, type SpawnServer } from '../../core/teams/serve-spawn-requests.js';

/**
 * Serves the runtime's spawn requests once the team directory exists. The spawn server's change feed makes
 * the team's directories, and a dashboard that merely opened a folder must write nothing into it: requests
 * can only arrive in a team dir someone created, so the server starts when one appears (the host pokes it on
 * every team event and liveness tick).
 */
export class LazySpawnServer {
  private server: SpawnServer | null = null;
  private closed = false;

  constructor(
    private readonly store: TeamStore,
    private readonly launcher: () => TeammateLauncher,
    private readonly by: string,
  ) {}

  poke(): void {
    if (this.server || this.closed || !fs.existsSync(this.store.dir)) return;
    this.server = serveSpawnRequests(this.store, this.launcher(), { by: this.by });
  }

  close(): void {
    this.closed = true;
    this.server?.close();
  }
}
