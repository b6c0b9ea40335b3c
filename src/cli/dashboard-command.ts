import fs from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
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
  inProcess?: boolean;
  claudeCode?: string | boolean;
  remote?: string;
  remoteBin?: string;
  useMyKey?: boolean;
}

/** `thclaws dashboard`: the team dashboard in a browser, served from this machine. */
export function registerDashboardCommand(program: Command): void {
  program
    .command('dashboard')
    .description('serve the team dashboard over HTTP + WebSocket (loopback; the printed URL carries the access token)')
    .option('--port <n>', "port (default: this workspace's last dashboard port while it is free, so an open page comes back; else a free one)")
    .option('--host <addr>', 'address to bind', '127.0.0.1')
    .option('--dir <workspace>', 'workspace to open', process.cwd())
    .option('--no-lead', 'do not start the lead agent')
    .option('--lead-script <file>', 'run the lead on the scripted provider with this script')
    .option('--lead-prompt <text>', 'type this first prompt into the lead once it is ready (the live demo)')
    .option('--demo', 'the live demo: a throw-away workspace where the scripted demo team works in the dashboard (no key needed)')
    .option('--keep', 'with --demo: keep the demo workspace')
    .option('--in-process', "run the team inside this dashboard instead of the workspace's host (the agents stop with it)")
    .option('--claude-code [team]', "Claude Code's own agent teams (~/.claude/teams) instead of a thclaws workspace; a team by name, else the newest live one")
    .option('--remote <url>', 'the team on another machine: ssh://[user@]host[:port]/path (through your own ssh; THCLAWS_SSH or the setting remote.ssh name another command)')
    .option('--remote-bin <program>', 'with --remote: the thclaws program there (default: the setting remote.bin, else thclaws on its PATH)')
    .option('--use-my-key', "with --remote: hold this machine's ANTHROPIC_API_KEY in the remote host's memory (default: the agents use the remote's own key)")
    .addOption(new Option('--via-host', 'the default: be a client of the workspace host').hideHelp())
    .action(async (opts: DashboardOptions) => {
      const port = opts.port === undefined ? 0 : Number(opts.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`invalid --port ${JSON.stringify(opts.port)}`);
      // Loaded on demand: the rest of the CLI never pays for node-pty and ws.
      if (opts.remote !== undefined) {
        if (opts.demo || opts.inProcess || opts.claudeCode !== undefined) throw new CliError(`--remote cannot be used with ${opts.demo ? '--demo' : opts.inProcess ? '--in-process' : '--claude-code'}: the team runs on the other machine`);
        // The folder is on the other machine: --dir is not looked at here.
        const { runRemoteDashboard } = await import('./dashboard-remote.js');
        return runRemoteDashboard({ ...opts, remote: opts.remote }, port, untilInterrupted);
      }
      if (opts.remoteBin !== undefined || opts.useMyKey) throw new CliError(`${opts.useMyKey ? '--use-my-key' : '--remote-bin'} needs --remote`);
      const [{ runDashboard, runDashboardViaHost }, { HOST_STOPPING }] = await Promise.all([import('../main/web/run.js'), import('../main/daemon/host-client.js')]);
      if (opts.claudeCode !== undefined) return claudeCode(opts, port);
      const dir = path.resolve(opts.dir);
      if (!opts.demo && !fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new CliError(`--dir ${dir} is not a directory`);
      if (opts.inProcess) return inProcess(runDashboard, opts, dir, port);
      // The default: a client of the workspace's host, which owns the agents (started detached when none runs).
      const demo = opts.demo ? (await import('../main/daemon/host-targets.js')).demoTarget() : null;
      const kept = demo ? null : await keepEndpoint(dir);
      const run = { workspace: demo?.target.workspace ?? dir, port, host: opts.host, startLead: opts.lead, leadScript: opts.leadScript, leadPrompt: opts.leadPrompt, ...(demo ? { target: demo.target } : {}), ...endpointOptions(kept, opts) };
      const server = await runDashboardViaHost(run).catch((err: NodeJS.ErrnoException) => {
        demo?.demo.remove();
        // Stopping on purpose: no host is started behind the person's back; they run this again once it is done.
        const hint = err.code === HOST_STOPPING ? '; run thclaws dashboard again once it has stopped' : '';
        throw new CliError(`${err.message.split('\n')[0]!}${hint}`);
      });
      const ws = server.workspace;
      keepServed(kept, server);
      process.stdout.write(`thclaws dashboard for ${ws}\n${server.url}\n`);
      process.stdout.write(`agents run in the workspace's host (pid ${server.hostPid}): closing this dashboard leaves them running; thclaws host --stop --dir ${ws} stops them\n`);
      if (demo) process.stdout.write(DEMO_HELP);
      await untilInterrupted();
      await server.close();
      if (demo) {
        // The demo is throw-away: its team stops with this dashboard, unless kept.
        if (!opts.keep) {
          process.stdout.write(`${demoStopping(ws, `the demo's host (pid ${server.hostPid})`)}\n`);
          const { stopHost } = await import('../main/daemon/host-client.js');
          await stopHost(ws, demo.target.env).catch(() => undefined);
          demo.demo.remove();
          process.stdout.write(`stopped the demo; removed ${ws}\n`);
          return;
        }
        process.stdout.write(`kept the demo workspace ${ws}; its team runs on in its host (pid ${server.hostPid})\n`);
      }
      process.stdout.write(`the team keeps running in the workspace's host (pid ${server.hostPid}); come back: thclaws dashboard --dir ${ws}; stop it: thclaws host --stop --dir ${ws}\n`);
    });
}

const DEMO_HELP =
  "The demo team works in the dashboard (scripted provider, no key): approve backend's request and frontend's plan when they appear. Ctrl-C stops the demo's agents and removes its workspace.\n";

/** What Ctrl-C is about to stop, said before it does: the demo's agents by name, where they run, the folder removed. */
export function demoStopping(ws: string, where: string): string {
  let names: string[] = [];
  try {
    const cfg = JSON.parse(fs.readFileSync(path.join(ws, '.thclaws', 'state', 'team', 'config.json'), 'utf8')) as { members?: Array<{ name?: unknown }> };
    names = (cfg.members ?? []).map((m) => m.name).filter((n): n is string => typeof n === 'string');
  } catch {
    // no team yet: only the lead runs
  }
  return `stopping the demo: the lead${names.length ? ` and ${names.join(', ')}` : ''} in ${where}, then removing its workspace ${ws}`;
}

type Kept = import('../main/web/endpoint.js').KeptEndpoint;

/**
 * The port and token this workspace's last dashboard served (a throw-away demo keeps none): the same URL again,
 * so a page left open comes back by itself. Without a runtime dir to keep them in, a new URL, said once.
 */
async function keepEndpoint(dir: string): Promise<Kept | null> {
  const { keptEndpoint } = await import('../main/web/endpoint.js');
  try {
    const kept = keptEndpoint(dir);
    if (kept.note) process.stderr.write(`thclaws: warning: ${kept.note}\n`);
    return kept;
  } catch (err) {
    process.stderr.write(`thclaws: warning: the dashboard's address cannot be kept (${String((err as Error).message).split('\n')[0]}): this dashboard has a new URL\n`);
    return null;
  }
}

/** The kept token, and the kept port unless --port names one. */
const endpointOptions = (kept: Kept | null, opts: DashboardOptions) => (kept ? { token: kept.token, ...(opts.port === undefined && kept.port ? { preferredPort: kept.port } : {}) } : {});

/**
 * Records the port now served. The kept port taken (another dashboard of this workspace, or another program)
 * is said, and stays the workspace's address: a page open on it comes back on a later run once it is free.
 */
export function keepServed(kept: Kept | null, server: { port: number; portTaken?: number }): void {
  if (server.portTaken) {
    process.stdout.write(`port ${server.portTaken}, this workspace's dashboard address, is taken (another dashboard of it, or another program): serving on ${server.port} for now; the next run takes port ${server.portTaken} again once it is free\n`);
  }
  if (!kept || server.portTaken) return;
  try {
    kept.save(server.port);
  } catch (err) {
    process.stderr.write(`thclaws: warning: could not keep the dashboard's address in ${kept.file} (${(err as NodeJS.ErrnoException).code ?? String(err)}): the next dashboard gets a new URL\n`);
  }
}

/** `--claude-code`: Claude Code's teams, read from its files; nothing of thclaws is started. */
async function claudeCode(opts: DashboardOptions, port: number): Promise<void> {
  const { runClaudeCodeDashboard } = await import('../main/claude-code/run.js');
  const team = typeof opts.claudeCode === 'string' ? opts.claudeCode : undefined;
  const server = await runClaudeCodeDashboard({ port, host: opts.host, ...(team ? { team } : {}) }).catch((err: Error) => {
    throw new CliError(err.message.split('\n')[0]!);
  });
  const teams = server.views.snapshot.teams;
  if (server.views.snapshot.error) process.stderr.write(`thclaws: warning: ${server.views.snapshot.error}\n`);
  // A team not there yet may start later: said, not refused; the page shows it once its files appear.
  if (team && !teams.some((t) => t.name === team)) process.stderr.write(`thclaws: warning: no Claude Code team "${team}" yet (known: ${teams.map((t) => t.name).join(', ') || 'none'}); the page shows it once it appears\n`);
  process.stdout.write(`thclaws dashboard for Claude Code's teams in ${server.views.root} (${teams.length ? teams.map((t) => `${t.name}${t.ended ? ' (ended)' : ''}`).join(', ') : 'none yet'})\n${server.url}\n`);
  await untilInterrupted();
  await server.close();
}

const untilInterrupted = () =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });

/** `--in-process`: the team runs inside this dashboard and stops with it. */
async function inProcess(runDashboard: typeof import('../main/web/run.js').runDashboard, opts: DashboardOptions, dir: string, port: number): Promise<void> {
  const demo = opts.demo ? (await import('../main/host/demo-workspace.js')).prepareDemoWorkspace() : null;
  const ws = demo ? demo.workspace : dir;
  const kept = demo ? null : await keepEndpoint(dir);
  const run = demo ? { workspace: ws, port, host: opts.host, extra: demo.hostOptions } : { workspace: ws, port, host: opts.host, startLead: opts.lead, leadScript: opts.leadScript, leadPrompt: opts.leadPrompt, ...endpointOptions(kept, opts) };
  const server = await runDashboard(run).catch((err: Error) => {
    if (demo && !opts.keep) demo.remove();
    throw new CliError(err.message.split('\n')[0]!);
  });
  keepServed(kept, server);
  process.stdout.write(`thclaws dashboard for ${ws}\n${server.url}\n`);
  process.stdout.write('the team runs inside this dashboard (--in-process): it stops when the dashboard does\n');
  if (demo) process.stdout.write(DEMO_HELP);
  await untilInterrupted();
  if (demo && !opts.keep) process.stdout.write(`${demoStopping(ws, 'this dashboard')}\n`);
  await server.close();
  if (demo && !opts.keep) {
    demo.remove();
    process.stdout.write(`stopped the demo; removed ${ws}\n`);
  } else if (demo) process.stdout.write(`kept the demo workspace ${ws}\n`);
}
