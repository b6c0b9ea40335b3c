import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { NO_HOST_LINE } from '../contract/api.js';
import { CliError } from './errors.js';
import { launchOptions, type HostOptions } from './host-command.js';

/**
 * `thclaws host connect --stdio --dir <path>`: what a dashboard on another machine runs here over ssh. It makes
 * sure the workspace's host runs (started detached, as a local dashboard starts it: it outlives this ssh
 * session) and bridges the host's socket to stdin/stdout byte for byte; the far end says the hello. Nothing
 * listens on TCP. The host's launch flags (`--no-lead`, `--lead-script`, `--idle-ms` …) are `thclaws host`'s own.
 */
export function registerHostConnect(host: Command): void {
  launchOptions(host.command('connect'))
    .description("bridge the workspace's host (started when none runs) to stdin/stdout: what a remote dashboard runs here over ssh")
    .option('--stdio', 'over stdin/stdout (the only transport)')
    .option('--no-start', 'only a host that runs: none is started (a dashboard linking again after a drop)')
    .action((opts: HostOptions & { stdio?: boolean; start?: boolean }) => runHostConnect(opts));
}

/** `~` and `~/x` against this user's home (a URL's path is taken as given, like git's `ssh://host/~/repo`). */
export function resolveRemoteDir(dir: string, home = os.homedir()): string {
  if (dir === '~') return home;
  if (dir.startsWith('~/')) return path.join(home, dir.slice(2));
  return path.resolve(dir);
}

/** The variables of the ssh session that mean nothing to a host that outlives it (a forwarded agent's socket goes with the session). */
const sessionOnly = (name: string) => name.startsWith('SSH_');

export async function runHostConnect(opts: HostOptions & { stdio?: boolean; start?: boolean }): Promise<void> {
  if (!opts.stdio) throw new CliError('thclaws host connect needs --stdio (the only transport)');
  if (opts.stop) throw new CliError('--stop goes with thclaws host, not host connect');
  const dir = resolveRemoteDir(opts.dir);
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new CliError(`no folder ${dir} on ${os.hostname()}`, 1);
  for (const [flag, v] of [['--idle-ms', opts.idleMs], ['--exit-unused-ms', opts.exitUnusedMs]] as const) {
    if (!Number.isInteger(Number(v)) || Number(v) < 0) throw new CliError(`invalid ${flag} ${JSON.stringify(v)}`);
  }
  const [{ reachOrStartHost, hostSocket }, { thclawsBin }] = await Promise.all([import('../main/daemon/host-client.js'), import('../main/host/host-options.js')]);
  const argv = [
    thclawsBin(), 'host', '--dir', dir,
    ...(opts.lead ? [] : ['--no-lead']),
    ...(opts.leadScript ? ['--lead-script', resolveRemoteDir(opts.leadScript)] : []),
    ...(opts.leadPrompt ? ['--lead-prompt', opts.leadPrompt] : []),
    ...(opts.demo ? ['--demo'] : []),
    '--idle-ms', String(opts.idleMs),
    '--exit-unused-ms', String(opts.exitUnusedMs),
  ];
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !sessionOnly(k)));
  // Within the far end's 20 s: a host that cannot start is said here ("the host exited (code 2); see <log>"), not left to its timeout.
  const reached = opts.start === false
    ? hostSocket(dir, env).catch(() => {
        throw new Error(`${NO_HOST_LINE} ${dir} on ${os.hostname()} (stopped, or gone): nothing was started`);
      })
    : reachOrStartHost(dir, argv, { env, timeoutMs: 15_000 }, () => hostSocket(dir, env));
  const socket = await reached.catch((err: Error) => {
    throw new CliError(err.message.split('\n')[0]!, 1);
  });
  // Byte for byte both ways; whichever side ends first ends the bridge (ssh gone: stdin ends; host gone: the socket closes).
  await new Promise<void>((resolve) => {
    const done = () => {
      socket.destroy();
      resolve();
    };
    process.stdin.pipe(socket);
    socket.pipe(process.stdout);
    process.stdin.once('error', done);
    process.stdout.once('error', done);
    socket.once('error', done);
    // stdout to a pipe is written synchronously on Linux and macOS: all of it is out when the socket closes.
    socket.once('close', done);
  });
  // Nothing else may keep this process (a stdin read pending on a pipe ssh still holds open).
  process.exit(0);
}
