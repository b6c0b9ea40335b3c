import fs from 'node:fs';
import type { TeamStore } from '../../team/index.js';
import type { LaunchedTeammate, SpawnRequest } from '../launcher.js';
import { resolveEnv } from './env.js';
import { TrackedLauncher } from './tracked.js';

/** Each teammate in a pseudo-terminal (node-pty), its output appended to output.log through one fd. */
export class PtyLauncher extends TrackedLauncher {
  readonly kind = 'host';

  constructor(private readonly store: TeamStore) {
    super();
  }

  async launch(req: SpawnRequest): Promise<LaunchedTeammate> {
    const pty = await import('@lydell/node-pty');
    const fd = this.store.outputs.openForSpawn(req.agent, req.spawn_id);
    let term;
    try {
      term = pty.spawn(req.argv[0]!, req.argv.slice(1), { cwd: req.cwd, env: resolveEnv(req), cols: req.cols ?? 120, rows: req.rows ?? 32, name: 'xterm-256color' });
    } catch (err) {
      fs.closeSync(fd);
      throw new Error(`cannot start ${req.argv[0]}: ${(err as Error).message}`);
    }
    term.onData((d) => {
      try {
        fs.writeSync(fd, d);
      } catch {
        // log unwritable: the teammate keeps running
      }
    });
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      term.onExit(({ exitCode, signal }) => {
        fs.closeSync(fd);
        resolve({ code: signal ? null : exitCode, signal: signal ? String(signal) : null });
      }),
    );
    return this.track(req, term.pid, exited);
  }

  override async dispose(): Promise<void> {
    const all = [...this.running.values()];
    for (const t of all) t.kill('SIGTERM');
    await Promise.race([Promise.all(all.map((t) => t.exited)), new Promise((r) => setTimeout(r, 3000))]);
    for (const t of this.running.values()) t.kill('SIGKILL');
  }
}
