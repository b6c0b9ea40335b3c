import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { TeamStore } from '../../store/index.js';
import type { LaunchedTeammate, SpawnRequest } from '../launcher.js';
import { resolveEnv } from './env.js';
import { TrackedLauncher } from './tracked.js';

/**
 * A detached child in its own process group; stdout and stderr share one O_APPEND fd on output.log, so
 * nothing else truncates or interleaves over it. It survives the lead (shutdown decides its fate).
 */
export class BackgroundLauncher extends TrackedLauncher {
  readonly kind = 'background';

  constructor(private readonly store: TeamStore) {
    super();
  }

  async launch(req: SpawnRequest): Promise<LaunchedTeammate> {
    const fd = this.store.outputs.openForSpawn(req.agent, req.spawn_id);
    let child;
    try {
      child = spawn(req.argv[0]!, req.argv.slice(1), { cwd: req.cwd, env: resolveEnv(req), stdio: ['ignore', fd, fd], detached: true });
    } finally {
      fs.closeSync(fd);
    }
    const pid = await new Promise<number>((resolve, reject) => {
      child.once('spawn', () => resolve(child.pid!));
      child.once('error', (e) => reject(new Error(`cannot start ${req.argv[0]}: ${e.message}`)));
    });
    child.unref();
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    return this.track(req, pid, exited);
  }
}
