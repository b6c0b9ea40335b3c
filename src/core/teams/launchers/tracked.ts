import type { LaunchedTeammate, SpawnRequest, TeammateLauncher } from '../launcher.js';
import { killGroup } from './env.js';

/**
 * The bookkeeping every launcher shares: a started process is tracked by spawn id until it exits, killed by
 * its own process group (never by a pattern), and signalled on dispose.
 */
export abstract class TrackedLauncher implements TeammateLauncher {
  abstract readonly kind: string;
  protected readonly running = new Map<string, LaunchedTeammate>();

  abstract launch(req: SpawnRequest): Promise<LaunchedTeammate>;

  protected track(req: SpawnRequest, pid: number, exited: LaunchedTeammate['exited'], where?: string): LaunchedTeammate {
    let gone = false;
    // Once the child has exited its pid may name another process: it is never signalled again.
    const kill = (sig?: NodeJS.Signals) => void (gone || killGroup(pid, sig));
    const t: LaunchedTeammate = { agent: req.agent, spawn_id: req.spawn_id, pid, exited, kill, ...(where ? { where } : {}) };
    this.running.set(req.spawn_id, t);
    void exited.then(() => {
      gone = true;
      this.running.delete(req.spawn_id);
    });
    return t;
  }

  live(): LaunchedTeammate[] {
    return [...this.running.values()];
  }

  async dispose(): Promise<void> {
    for (const t of this.running.values()) t.kill('SIGTERM');
  }
}
