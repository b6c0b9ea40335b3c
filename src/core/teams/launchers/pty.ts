import type { TeamStore } from '../../team/index.js';
import type { LaunchedTeammate, SpawnRequest } from '../launcher.js';
import { resolveEnv } from './env.js';
import { TrackedLauncher } from './tracked.js';

/**
 * Each teammate in a pseudo-terminal (node-pty) through the same tail-safe PtyProcess the desktop host uses,
 * its output appended to output.log through the store; exit is reported only once the log holds every byte.
 */
export class PtyLauncher extends TrackedLauncher {
  readonly kind = 'host';

  constructor(private readonly store: TeamStore) {
    super();
  }

  async launch(req: SpawnRequest): Promise<LaunchedTeammate> {
    // Loaded on first use: node-pty is native and most CLI runs never need it.
    const { PtyProcess } = await import('./pty-process.js');
    let proc;
    try {
      proc = new PtyProcess(req.argv, { cwd: req.cwd, env: resolveEnv(req), cols: req.cols ?? 120, rows: req.rows ?? 32 });
    } catch (err) {
      throw new Error(`cannot start ${req.argv[0]}: ${(err as Error).message}`);
    }
    const log = this.store.outputs.append(req.agent, req.spawn_id);
    proc.onData((d) => log.write(d));
    const exited = proc.exited.then(async (exit) => {
      await log.close();
      return exit;
    });
    return this.track(req, proc.pid, exited);
  }

  override async dispose(): Promise<void> {
    const all = [...this.running.values()];
    for (const t of all) t.kill('SIGTERM');
    await Promise.race([Promise.all(all.map((t) => t.exited)), new Promise((r) => setTimeout(r, 3000))]);
    for (const t of this.running.values()) t.kill('SIGKILL');
  }
}
