import fs from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { CliError } from './errors.js';
import { registerHostConnect } from './host-connect.js';

export interface HostOptions {
  dir: string;
  lead: boolean;
  leadScript?: string;
  leadPrompt?: string;
  demo?: boolean;
  idleMs: string;
  exitUnusedMs: string;
  stop?: boolean;
  force?: boolean;
  secretsStdin?: boolean;
}

/** Exit after 10 minutes with no client and no live agent, unless told otherwise. */
const DEFAULT_IDLE_MS = 10 * 60_000;

/** `thclaws host`: the workspace's host process, owner of every pty; dashboards connect to it. */
export function registerHostCommand(program: Command): void {
  const host = launchOptions(program.command('host'))
    .description("run the workspace's host (owns the lead's and teammates' terminals; dashboards connect to it); one per workspace")
    .option('--stop', "stop the workspace's running host as \"Stop the team and quit\" does: each teammate is asked to stop (15 s grace), then the rest and the lead are stopped and the host exits")
    .option('--force', 'with --stop: stop the agents at once, without asking the teammates')
    .option('--secrets-stdin', 'read credentials (a JSON object of environment variables) from stdin, so that they never appear in this long-lived process\'s environment listing')
    .action(runHost);
  registerHostConnect(host);
}

/** The options of how a host is started: `thclaws host`'s, and `thclaws host connect`'s for the host it starts. */
export function launchOptions(cmd: Command): Command {
  return cmd
    .option('--dir <workspace>', 'workspace', process.cwd())
    .option('--no-lead', 'do not start the lead agent')
    .option('--lead-script <file>', 'run the lead on the scripted provider with this script')
    .option('--lead-prompt <text>', 'type this first prompt into the lead once it is ready (the live demo)')
    .addOption(new Option('--demo', 'the live demo workspace (views open the team\'s changes once its tasks are done)').hideHelp())
    .option('--idle-ms <ms>', 'exit after this long with no client and no live agent (0: never)', String(DEFAULT_IDLE_MS))
    .addOption(new Option('--exit-unused-ms <ms>', 'exit after this long with no client, even with live agents (a throw-away demo a dashboard opened; 0: never)').default('0').hideHelp());
}

/** The host, or `--stop` of the running one (also what the deprecated `thclaws team host` runs). */
export async function runHost(opts: HostOptions): Promise<void> {
  const dir = path.resolve(opts.dir);
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new CliError(`--dir ${dir} is not a directory`);
  if (opts.force && !opts.stop) throw new CliError('--force goes with --stop');
  if (opts.stop) return stopCommand(dir, opts.force);
  const idleMs = Number(opts.idleMs);
  if (!Number.isInteger(idleMs) || idleMs < 0) throw new CliError(`invalid --idle-ms ${JSON.stringify(opts.idleMs)}`);
  const exitUnusedMs = Number(opts.exitUnusedMs);
  if (!Number.isInteger(exitUnusedMs) || exitUnusedMs < 0) throw new CliError(`invalid --exit-unused-ms ${JSON.stringify(opts.exitUnusedMs)}`);
  if (opts.secretsStdin) await readSecrets();
  const [{ startHostDaemon, HostRunningError }, { openHostManager }, { HostLog }, { hostPaths }] = await Promise.all([
    import('../main/daemon/host-daemon.js'),
    import('../main/daemon/open-host.js'),
    import('../main/daemon/host-log.js'),
    import('../main/daemon/runtime-dir.js'),
  ]);
  // Started detached, its stderr is this file (a bad socket path is the daemon's to report, below).
  const hostLog = new HostLog(((): string => {
    try {
      return hostPaths(dir).log;
    } catch {
      return '';
    }
  })());
  let closed!: () => void;
  const done = new Promise<void>((r) => (closed = r));
  const daemon = await startHostDaemon({
    workspace: dir,
    idleMs,
    exitUnusedMs,
    open: (ws) => openHostManager(ws, { startLead: opts.lead, leadScript: opts.leadScript, leadPrompt: opts.leadPrompt, extra: { hostPid: process.pid, ...(opts.demo ? { demo: true } : {}) } }),
    onClosed: () => closed(),
    log: (line) => {
      process.stderr.write(`thclaws host: ${line}\n`);
      hostLog.bound();
    },
  }).catch((err: Error) => {
    throw err instanceof HostRunningError ? new CliError(err.message, 1) : new CliError(err.message.split('\n')[0]!, 1);
  });
  process.stdout.write(`thclaws host ready (pid ${process.pid}) for ${daemon.paths.workspace}\n${daemon.paths.socket}\n`);
  const stop = () => void daemon.close('interrupted');
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await done;
  hostLog.removeAfterCleanExit();
}

/**
 * `thclaws host --stop` (and the deprecated `thclaws team host --stop`): one line, its progress written as it goes and the
 * host's account of the stop at its end.
 */
export async function stopCommand(dir: string, force = false): Promise<void> {
  const { stopHost } = await import('../main/daemon/host-client.js');
  const { STOP_GRACE_MS } = await import('../main/daemon/stop-team.js');
  let started = false;
  const stopped = await stopHost(dir, undefined, {
    force,
    onWelcome: (pid) => {
      started = true;
      process.stdout.write(`stopping the team of ${dir} (host pid ${pid})${force ? ' at once' : `, each teammate asked first (up to ${STOP_GRACE_MS / 1000} s)`} … `);
    },
  }).catch((err: Error) => {
    if (started) process.stdout.write('\n');
    throw new CliError(err.message.split('\n')[0]!, 1);
  });
  if (!stopped) return void process.stdout.write(`no host runs for ${dir}\n`);
  process.stdout.write(`stopped (${stopped.reason ?? 'the host exited'})\n`);
}

/**
 * Credentials handed over by the client that started this host: set in this process's environment (so the
 * agents it spawns get them) after start, where `/proc/<pid>/environ`, which lists the start-time block, never shows them.
 */
async function readSecrets(): Promise<void> {
  const { isSecretEnvName } = await import('../main/daemon/host-client.js');
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.length > 1024 * 1024) throw new CliError('--secrets-stdin: more than 1 MiB on stdin');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text || '{}');
  } catch {
    throw new CliError('--secrets-stdin: stdin is not a JSON object');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new CliError('--secrets-stdin: stdin is not a JSON object');
  for (const [k, v] of Object.entries(parsed)) {
    if (typeof v === 'string' && isSecretEnvName(k)) process.env[k] = v;
  }
}
