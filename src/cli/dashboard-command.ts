import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { CliError } from './errors.js';

interface DashboardOptions {
  port?: string;
  host: string;
  dir: string;
  lead: boolean;
  leadScript?: string;
  leadPrompt?: string;
  demo?: boolean;
  keep?: boolean;
  viaHost?: boolean;
}

/** `thclaws dashboard`: the team dashboard in a browser, served from this machine. */
export function registerDashboardCommand(program: Command): void {
  program
    .command('dashboard')
    .description('serve the team dashboard over HTTP + WebSocket (loopback; the printed URL carries the access token)')
    .option('--port <n>', 'port (default: a free one)')
    .option('--host <addr>', 'address to bind', '127.0.0.1')
    .option('--dir <workspace>', 'workspace to open', process.cwd())
    .option('--no-lead', 'do not start the lead agent')
    .option('--lead-script <file>', 'run the lead on the scripted provider with this script')
    .option('--lead-prompt <text>', 'type this first prompt into the lead once it is ready (the live demo)')
    .option('--demo', 'the live demo: a throw-away workspace where the scripted demo team works in the dashboard (no key needed)')
    .option('--keep', 'with --demo: keep the demo workspace')
    .option('--via-host', "be a client of the workspace's host process (thclaws host, started when none runs): the agents outlive this dashboard")
    .action(async (opts: DashboardOptions) => {
      const port = opts.port === undefined ? 0 : Number(opts.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`invalid --port ${JSON.stringify(opts.port)}`);
      // Loaded on demand: the rest of the CLI never pays for node-pty and ws.
      const { runDashboard, runDashboardViaHost } = await import('../main/web/run.js');
      const demo = opts.demo ? (await import('../main/host/demo-workspace.js')).prepareDemoWorkspace() : null;
      const dir = demo ? demo.workspace : path.resolve(opts.dir);
      if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new CliError(`--dir ${dir} is not a directory`);
      const run = demo
        ? { workspace: dir, port, host: opts.host, extra: demo.hostOptions }
        : { workspace: dir, port, host: opts.host, startLead: opts.lead, leadScript: opts.leadScript, leadPrompt: opts.leadPrompt };
      if (opts.viaHost && demo) throw new CliError('--via-host cannot be combined with --demo');
      const server = await (opts.viaHost ? runDashboardViaHost(run) : runDashboard(run)).catch((err: Error) => {
        if (demo && !opts.keep) demo.remove();
        throw new CliError(err.message.split('\n')[0]!);
      });
      process.stdout.write(`thclaws dashboard for ${dir}\n${server.url}\n`);
      if ('hostPid' in server) process.stdout.write(`agents run in the workspace's host (pid ${server.hostPid}): closing this dashboard leaves them running; thclaws host --stop --dir ${dir} stops them\n`);
      if (demo) process.stdout.write('The demo team works in the dashboard (scripted provider, no key): approve backend\'s request and frontend\'s plan when they appear. Ctrl-C to stop.\n');
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await server.close();
      if (demo && !opts.keep) demo.remove();
      else if (demo) process.stdout.write(`kept the demo workspace ${dir}\n`);
    });
}
