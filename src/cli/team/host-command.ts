import path from 'node:path';
import type { Command } from 'commander';
import { action, openStore, withCommon, type CommonOpts } from './common.js';
import { CliError } from '../errors.js';

/** `thclaws team host`: serves `host`-mode spawn requests, each teammate in a node-pty, until interrupted. */
export function registerHostCommand(team: Command): void {
  withCommon(team.command('host'))
    .description('run teammates for spawn requests (teammateMode "host"), each in a pseudo-terminal; Ctrl-C stops them')
    .option('--stop', "stop the workspace's host process (thclaws host) as \"Stop the team and quit\" does: each teammate asked to stop (15 s grace), then the rest")
    .option('--force', 'with --stop: stop the agents at once, without asking the teammates')
    .action(
      action(async (opts: CommonOpts & { stop?: boolean; force?: boolean }) => {
        if (opts.force && !opts.stop) throw new CliError('--force goes with --stop');
        if (opts.stop) return (await import('../host-command.js')).stopCommand(path.resolve(opts.dir ?? process.cwd()), opts.force);
        const store = openStore(opts);
        store.init();
        const [{ PtyLauncher }, { serveSpawnRequests }] = await Promise.all([import('../../core/teams/launchers/pty.js'), import('../../core/teams/serve-spawn-requests.js')]);
        const launcher = new PtyLauncher(store);
        const out = (obj: Record<string, unknown>) => process.stdout.write(opts.json ? `${JSON.stringify({ ts: Date.now(), ...obj })}\n` : `${describe(obj)}\n`);
        const server = serveSpawnRequests(store, launcher, { by: `thclaws team host ${process.pid}`, onEvent: (e) => out(e as unknown as Record<string, unknown>) });
        out({ kind: 'ready', dir: store.dir, pid: process.pid });
        await new Promise<void>((resolve) => {
          const keepAlive = setInterval(() => {}, 1 << 30);
          const stop = () => {
            clearInterval(keepAlive);
            server.close();
            void launcher.dispose().then(resolve);
          };
          process.once('SIGINT', stop);
          process.once('SIGTERM', stop);
        });
      }),
    );
}

function describe(e: Record<string, unknown>): string {
  switch (e.kind) {
    case 'ready':
      return `team host ready (pid ${String(e.pid)}) for ${String(e.dir)}`;
    case 'launched':
      return `launched ${String(e.agent)} (pid ${String(e.pid)}, spawn ${String(e.spawn_id)})`;
    case 'failed':
      return `could not launch ${String(e.agent)}: ${String(e.error)}`;
    case 'exited':
      return `${String(e.agent)} exited (${e.signal ? String(e.signal) : `code ${String(e.code)}`})`;
    default:
      return JSON.stringify(e);
  }
}
