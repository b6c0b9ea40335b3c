import path from 'node:path';
import type { Command } from 'commander';
import { action, withCommon, type CommonOpts } from './common.js';

/**
 * `thclaws team host`, deprecated: one command serves spawn requests, the workspace's host (`thclaws host`),
 * which also owns the lead's pty and lets dashboards attach; two servers of the same requests would only race.
 * This name runs it headless (`--no-lead --idle-ms 0`: until Ctrl-C, like the old command) after one line on stderr.
 */
export function registerHostCommand(team: Command): void {
  withCommon(team.command('host'))
    .description('deprecated: runs `thclaws host --no-lead --idle-ms 0` (the workspace host serves the spawn requests)')
    .option('--stop', "stop the workspace's host process as `thclaws host --stop` does")
    .option('--force', 'with --stop: stop the agents at once, without asking the teammates')
    .action(
      action(async (opts: CommonOpts & { stop?: boolean; force?: boolean }) => {
        process.stderr.write(`thclaws: \`thclaws team host\` is deprecated; use \`thclaws host --no-lead --idle-ms 0\`${opts.stop ? ' (here: thclaws host --stop)' : ''}\n`);
        const { runHost } = await import('../host-command.js');
        await runHost({ dir: path.resolve(opts.dir ?? process.cwd()), lead: false, idleMs: '0', exitUnusedMs: '0', ...(opts.stop ? { stop: true } : {}), ...(opts.force ? { force: true } : {}) });
      }),
    );
}
