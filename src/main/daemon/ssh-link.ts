import { spawn, type ChildProcess } from 'node:child_process';
import { HOST_PROTOCOL, NO_HOST_LINE } from '../../contract/api.js';
import { VERSION } from '../../cli/version.js';
import { isSecretEnvName } from './host-client.js';
import { helloOver, HOST_STOPPING, type HostConnection, type HostStream } from './host-handshake.js';
import { launchFlags, type HostLaunch } from './host-targets.js';
import { shellQuote, sshCommand, type RemoteSpec } from './remote-url.js';

export type { RemoteSpec } from './remote-url.js';

export interface RemoteConnectOptions {
  client: string;
  /** The ssh command's words (default: `sshCommand(env)`, i.e. `THCLAWS_SSH` or `ssh`). */
  ssh?: string[];
  /** The program on the remote (default `thclaws` on its PATH). */
  bin?: string;
  env?: NodeJS.ProcessEnv;
  /** Till the welcome (default 20 s): ssh's own connect, the remote's start of its host, the hello. */
  timeoutMs?: number;
  protocol?: number;
}

export type RemoteHostConnection = HostConnection & {
  transport: 'ssh';
  remote: RemoteSpec;
  /** The local ssh process (the link: killing it drops the link, never the remote team). */
  sshPid: number;
};

/** Dead links are noticed within 45 s (ssh's own keepalive over the encrypted channel; a TCP keepalive can be spoofed). */
const KEEPALIVE = ['-o', 'ServerAliveInterval=15', '-o', 'ServerAliveCountMax=3'];
/** The last stderr kept for the message of a failed connect. */
const STDERR_KEPT = 8 * 1024;

/** The code of a `--no-start` connect that found no host running there. */
export const NO_HOST = 'ENOHOST';

/** What to install on the remote, in every message that asks for it. */
export const installLine = (): string => `npm i -g thclaws@${VERSION}`;

/** The ssh argv for a remote's `thclaws host connect --stdio` (the command string goes through the remote's shell). */
export function sshArgv(remote: RemoteSpec, launch: HostLaunch, ssh: string[], bin = 'thclaws'): string[] {
  if (remote.host.startsWith('-') || remote.user?.startsWith('-')) throw new Error(`refusing a host or user that starts with "-": ${remote.label}`);
  const command = [bin, 'host', 'connect', '--stdio', '--dir', remote.dir, ...launchFlags(launch)].map(shellQuote).join(' ');
  // `--` before the host: neither the host nor the words after it are read as ssh options.
  return [...ssh, '-T', ...KEEPALIVE, ...(remote.port ? ['-p', String(remote.port)] : []), ...(remote.user ? ['-l', remote.user] : []), '--', remote.host, command];
}

/**
 * Connects to the host of a workspace on another machine: the person's own ssh runs `thclaws host connect
 * --stdio` there (which starts that workspace's host detached when none runs and bridges its socket), and the
 * hello goes over ssh's stdio. The remote host outlives the link: `close()` and a dropped link end only ssh.
 * Every failure before the welcome is one line naming the remote (`explainSshFailure`), never a hang.
 */
export function connectRemoteHost(remote: RemoteSpec, launch: HostLaunch, opts: RemoteConnectOptions): Promise<RemoteHostConnection> {
  const env = opts.env ?? process.env;
  const ssh = opts.ssh ?? sshCommand(env);
  const bin = opts.bin ?? 'thclaws';
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const argv = sshArgv(remote, launch, ssh, bin);
  // The team uses the remote's own key: none of this machine's credentials go to ssh (whose SendEnv could pass them on).
  const sshEnv = Object.fromEntries(Object.entries(env).filter(([k]) => !isSecretEnvName(k)));
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'], env: sshEnv });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-STDERR_KEPT)));
  return helloOver(childStream(child), { client: opts.client, protocol: opts.protocol, timeoutMs, what: `thclaws on ${remote.label}`, skipNoise: true }).then(
    (conn) => ({ ...conn, transport: 'ssh' as const, remote, sshPid: child.pid! }),
    // helloOver has dropped the stream by then (ssh killed): nothing of a failed connect is left running.
    (err: NodeJS.ErrnoException) => {
      const text = explainSshFailure({ label: remote.label, ssh: ssh[0]!, bin, err, code: child.exitCode, stderr, timeoutMs, protocol: opts.protocol });
      // The codes a caller acts on survive the rewording: a team stopping (never started again behind the person),
      // no host there (`--no-start`), a host that did not answer.
      const code = err.code === HOST_STOPPING || err.code === 'ETIMEDOUT' ? err.code : lastLine(stderr).startsWith(NO_HOST_LINE) ? NO_HOST : undefined;
      throw Object.assign(new Error(text, { cause: err }), code ? { code } : {});
    },
  );
}

/** ssh's stdio as a host stream; it is gone once ssh exited and its pipes closed (its exit code known by then). */
function childStream(child: ChildProcess): HostStream {
  return {
    input: child.stdout!,
    output: child.stdin!,
    end: () => {
      child.stdin!.end();
      // EOF first (the bridge then closes its end of the host's socket), then ssh itself, whatever it waits on.
      const t = setTimeout(() => child.exitCode === null && child.kill('SIGTERM'), 1000);
      t.unref();
    },
    destroy: () => void child.kill('SIGKILL'),
    onGone: (cb) => void child.once('close', cb),
    // `on`, not `once`: a failed kill() is an 'error' too, and one unheard would end this process.
    onError: (cb) => void child.on('error', cb),
  };
}

/** ssh's note on a host key it just learnt (LogLevel INFO, the default): never the reason for anything. */
const KEY_NOTE = /^Warning: Permanently added .* to the list of known hosts\.$/;

/** The last non-empty line of ssh's stderr (its own complaint, or the remote's), without a `thclaws: ` prefix. */
const lastLine = (stderr: string): string =>
  stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !KEY_NOTE.test(l))
    .at(-1)
    ?.replace(/^thclaws: /, '') ?? '';

/**
 * One line for a connect that got no welcome. ssh exits 255 for its own failures (unreachable, auth, host key),
 * the remote shell 127 for a program it cannot find; an old thclaws (no `host connect`) exits with a usage error.
 */
export function explainSshFailure(f: { label: string; ssh: string; bin: string; err: NodeJS.ErrnoException; code: number | null; stderr: string; timeoutMs: number; protocol?: number }): string {
  const line = lastLine(f.stderr);
  const install = `${f.label} has no thclaws on its PATH: install it there (${installLine()}) or name it with --remote-bin`;
  if (f.err.code === 'ENOENT' && (f.err as { syscall?: string }).syscall?.startsWith('spawn')) return `cannot run ${JSON.stringify(f.ssh)} (the ssh command; THCLAWS_SSH names another): not found`;
  if (f.err.code === 'ETIMEDOUT') return `${f.label} did not answer over ssh in ${Math.round(f.timeoutMs / 1000)} s${line ? `: ${line}` : ''}`;
  if (f.err.code === HOST_STOPPING) return `the team on ${f.label} is stopping: ${f.err.message.replace(/^the team is stopping: /, '')}`;
  if (f.err.code !== 'ECONNRESET') {
    // The remote host's own refusal: another protocol version.
    const m = /speaks protocol (\d+)/.exec(f.err.message);
    if (m) return `thclaws on ${f.label} speaks protocol ${m[1]}, this one ${f.protocol ?? HOST_PROTOCOL}: install the same version there (${installLine()}), or stop its host there (thclaws host --stop)`;
    return `${f.label}: ${f.err.message}`;
  }
  // 255 is also the remote command killed by a signal, which ssh does not explain: its own failures it always does.
  if (f.code === 255) return line ? `cannot reach ${f.label} over ssh: ${line}` : `${f.label}: the ssh session ended before the host answered, and ssh gave no reason (ssh exit 255): was the remote side killed?`;
  if (f.code === 127 || /command not found|: not found$/.test(line)) return f.bin === 'thclaws' ? install : `${f.label} cannot run ${f.bin}: ${line || 'not found'}; install thclaws there (${installLine()})`;
  // A thclaws from before `host connect`: commander refuses the subcommand's words.
  if (/unknown option|unknown command|too many arguments/.test(line)) return `thclaws on ${f.label} is too old for a remote dashboard: install ${installLine()} there`;
  return `${f.label}: ${line || `the remote side exited (code ${f.code ?? 'none'}) before the host answered`}`;
}
