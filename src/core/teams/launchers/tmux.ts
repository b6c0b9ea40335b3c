import { spawnSync } from 'node:child_process';
import type { TeamStore } from '../../store/index.js';
import type { LaunchedTeammate, SpawnRequest } from '../launcher.js';
import { pidExit, resolveEnv } from './env.js';
import { TrackedLauncher } from './tracked.js';

export const TMUX_SESSION = 'thclaws-team';

export function tmuxAvailable(): boolean {
  return spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
}

/** POSIX single quotes: every token, no exceptions. */
export function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function tmux(args: string[]): { ok: boolean; out: string; err: string } {
  const r = spawnSync('tmux', args, { encoding: 'utf8' });
  return { ok: r.status === 0, out: (r.stdout ?? '').trim(), err: (r.stderr ?? '').trim() };
}

/**
 * A pane: a split of the current window when inside tmux (tiled), else a window of the detached session
 * `thclaws-team`. The environment is passed explicitly with `-e` (a tmux server's own env is stale), the
 * command is `exec`'d so the pane pid is the teammate, and the pane is piped to output.log.
 */
export class TmuxLauncher extends TrackedLauncher {
  readonly kind = 'tmux';

  constructor(
    private readonly store: TeamStore,
    private readonly inside = !!process.env.TMUX,
  ) {
    super();
  }

  async launch(req: SpawnRequest): Promise<LaunchedTeammate> {
    const env = resolveEnv(req);
    const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    const cmd = `exec ${req.argv.map(shQuote).join(' ')}`;
    const fmt = ['-P', '-F', '#{pane_id} #{pane_pid}'];
    let r;
    let where = `tmux session '${TMUX_SESSION}'`;
    if (this.inside) where = 'tmux pane (current window)';
    if (this.inside) r = tmux(['split-window', '-h', '-d', ...fmt, '-c', req.cwd, ...envArgs, cmd]);
    else {
      // A window of the team session; the session is created when that fails (one tmux call in the usual case).
      r = tmux(['new-window', '-d', '-t', `${TMUX_SESSION}:`, '-n', req.agent, ...fmt, '-c', req.cwd, ...envArgs, cmd]);
      if (!r.ok) r = tmux(['new-session', '-d', '-s', TMUX_SESSION, '-n', req.agent, '-x', '200', '-y', '50', ...fmt, '-c', req.cwd, ...envArgs, cmd]);
      // Another spawn created the session meanwhile.
      if (!r.ok && /duplicate session/.test(r.err)) r = tmux(['new-window', '-d', '-t', `${TMUX_SESSION}:`, '-n', req.agent, ...fmt, '-c', req.cwd, ...envArgs, cmd]);
    }
    if (!r.ok) throw new Error(`tmux could not start ${req.agent}: ${r.err}`);
    const [pane, pidText] = r.out.split(' ');
    const pid = Number(pidText);
    if (this.inside) tmux(['select-layout', 'tiled']);
    // Boot output, and everything after, lands in output.log (the pane also shows it live).
    const fd = this.store.outputs.openForSpawn(req.agent, req.spawn_id);
    (await import('node:fs')).closeSync(fd);
    tmux(['pipe-pane', '-t', pane!, `cat >> ${shQuote(this.store.paths.output(req.agent))}`]);
    const exited = pidExit(pid);
    return this.track(req, pid, exited, where);
  }
}
