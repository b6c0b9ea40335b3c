import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { helloOver, type HelloOptions, type HostConnection, type HostStream } from './host-handshake.js';
import { rotateHostLog } from './host-log.js';
import { hostPaths, type HostPaths } from './runtime-dir.js';

export { HOST_STOPPING, type HostConnection } from './host-handshake.js';

/**
 * Connects to the workspace's host and says hello. Rejects with the host's one-line reason when it refuses
 * (another protocol version), with `ENOENT`/`ECONNREFUSED` when none runs, never hangs (`timeoutMs`).
 */
export function connectHost(workspace: string, opts: HelloOptions & { env?: NodeJS.ProcessEnv }): Promise<HostConnection> {
  const paths = hostPaths(workspace, opts.env);
  const at = runningSocket(paths);
  const socket = net.connect(at);
  return helloOver(socketStream(socket), {
    ...opts,
    what: `the host for ${paths.workspace}`,
    // A host serving another workspace at this socket path is never talked to (not even to stop it).
    check: (w) => (w.workspace !== paths.workspace ? `the host at ${at} serves ${w.workspace}, not ${paths.workspace}` : null),
  });
}

/** A Unix socket as a host stream. */
export function socketStream(socket: net.Socket): HostStream {
  return {
    input: socket,
    output: socket,
    end: () => socket.end(),
    destroy: () => socket.destroy(),
    onGone: (cb) => void socket.once('close', cb),
    onError: (cb) => void socket.on('error', cb),
  };
}

/**
 * The running host's socket: where the lease dir's link points (the host may have been started with another
 * runtime dir), else this environment's own path. The lease dir is this user's only (0700, checked).
 */
function runningSocket(paths: HostPaths): string {
  try {
    const target = fs.readlinkSync(paths.link);
    return path.isAbsolute(target) ? target : paths.socket;
  } catch {
    return paths.socket;
  }
}

/** No host serves the socket: none runs, or one is exiting (idle) and dropped the connection it had just accepted. */
export const noHost = (err: unknown): boolean => ['ENOENT', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE'].includes((err as NodeJS.ErrnoException).code ?? '');

/**
 * Connects to the workspace's host, starting it detached (its output to the log in the runtime dir) when
 * none runs; the host outlives this process. `argv` runs `thclaws host --dir <workspace>`. A host that was
 * exiting when asked, or a start that lost the lease to one that then exited, is started again until the deadline.
 * Giving up, it stops the host it started and never reached: that one would otherwise win the lease later and
 * run on with nobody attached.
 */
export function connectOrStartHost(workspace: string, argv: string[], opts: { client: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<HostConnection> {
  return reachOrStartHost(workspace, argv, opts, () => connectHost(workspace, opts));
}

/**
 * `reach` (a hello, or a bare socket for a bridge), starting the host detached when none answers: the loop
 * `connectOrStartHost` runs, for any way of reaching the host.
 */
export async function reachOrStartHost<T>(workspace: string, argv: string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number }, reach: () => Promise<T>): Promise<T> {
  const paths = hostPaths(workspace, opts.env);
  const end = Date.now() + (opts.timeoutMs ?? 30_000);
  let child: Started | null = null;
  /** The code of the last child that exited: given up while its next try was still starting, that one's is the reason. */
  let lastExit: number | null = null;
  for (;;) {
    try {
      return await reach();
    } catch (err) {
      if (!noHost(err) || Date.now() > end) {
        if (child?.exited === null) child.kill();
        const code = child?.exited ?? lastExit;
        throw code !== null ? new Error(`the host exited (code ${code}); see ${paths.log}`) : err;
      }
    }
    // Another client may have started it first: this one's child then exits naming it, and the connect works.
    if (!child || child.exited !== null) {
      lastExit = child?.exited ?? lastExit;
      child = startDetached(argv, paths.log, opts.env ?? process.env);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The running host's socket, connected and not spoken to (a bridge's far end says the hello); ENOENT/ECONNREFUSED when none runs. */
export function hostSocket(workspace: string, env?: NodeJS.ProcessEnv): Promise<net.Socket> {
  const socket = net.connect(runningSocket(hostPaths(workspace, env)));
  return new Promise((resolve, reject) => {
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Names of variables that hold credentials: kept out of a long-lived process's environment listing. */
export const isSecretEnvName = (name: string): boolean =>
  // `…_KEY` covers API, access, secret and private keys (AWS_SECRET_ACCESS_KEY); PAT: a personal access token.
  /(^|_)(KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PAT|CREDENTIALS?)$/i.test(name) || /SECRET|^(ANTHROPIC|OPENAI)_.*KEY/i.test(name);

/**
 * Starts the host detached. Credentials from the environment (an API key the lead needs) go through its
 * stdin, not its environment: `/proc/<pid>/environ` of a process that outlives the terminal lists only what
 * it started with, and the host adds them to its own environment after reading them.
 */
interface Started {
  exited: number | null;
  /** SIGTERM: a host that is up stops its agents and exits; one still starting dies before serving. */
  kill(): void;
}

function startDetached(argv: string[], log: string, env: NodeJS.ProcessEnv): Started {
  const secrets = Object.fromEntries(Object.entries(env).filter(([k, v]) => v !== undefined && isSecretEnvName(k)));
  const plain = Object.fromEntries(Object.entries(env).filter(([k]) => !isSecretEnvName(k)));
  rotateHostLog(log);
  const out = fs.openSync(log, 'a', 0o600);
  const child = spawn(argv[0]!, [...argv.slice(1), '--secrets-stdin'], { detached: true, stdio: ['pipe', out, out], env: plain });
  fs.closeSync(out);
  child.stdin!.on('error', () => {});
  child.stdin!.end(`${JSON.stringify(secrets)}\n`);
  const state: Started = { exited: null, kill: () => void (state.exited === null && child.kill('SIGTERM')) };
  child.once('exit', (code) => (state.exited = code ?? 1));
  child.unref();
  (child.stdin as unknown as { unref?(): void }).unref?.();
  return state;
}

/**
 * Asks the workspace's host to stop its team and exit, negotiated as "Stop the team and quit" (or at once with
 * `force`); false when none runs. `reason`: the host's own account (how many teammates stopped by themselves).
 */
export async function stopHost(workspace: string, env?: NodeJS.ProcessEnv, opts: { force?: boolean; onWelcome?(pid: number): void } = {}): Promise<{ pid: number; reason: string | null } | false> {
  try {
    const c = await connectHost(workspace, { client: 'cli', stop: true, force: opts.force, env });
    opts.onWelcome?.(c.pid);
    let reason: string | null = null;
    c.onEvent((e) => void (e.type === 'host_closed' && (reason = e.reason)));
    await new Promise<void>((r) => c.onClose(r));
    // Done when the process is gone (its agents stopped, its lease released).
    for (let i = 0; i < 600 && alive(c.pid); i++) await new Promise((r) => setTimeout(r, 50));
    return { pid: c.pid, reason };
  } catch (err) {
    if (noHost(err)) return false;
    throw err;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
