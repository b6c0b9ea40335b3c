import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { HOST_PROTOCOL, HostWelcomeSchema, parseEvent, type HostEvent } from '../../contract/api.js';
import { rotateHostLog } from './host-log.js';
import { LineReader } from './lines.js';
import { hostPaths, type HostPaths } from './runtime-dir.js';

export interface HostConnection {
  pid: number;
  workspace: string;
  /** Sends one request (validated by the host, where it enters that process). */
  send(request: unknown): void;
  /** Sends one request already serialised (JSON.stringify's text: never a newline in it). */
  sendLine(json: string): void;
  /** Each event, parsed (for a client that acts on events: `--stop`, tests). */
  onEvent(cb: (event: HostEvent) => void): void;
  /** Each event as the host's line (JSON text), not parsed here: for a client that only forwards it to a view. */
  onLine(cb: (line: string) => void): void;
  onClose(cb: () => void): void;
  close(): void;
}

/** The code of the error a host that is stopping its team refuses with: no client starts another host because of it. */
export const HOST_STOPPING = 'EHOSTSTOPPING';

/** Events from the host are larger than requests: a whole screen restored on attach. */
const MAX_EVENT_LINE = 64 * 1024 * 1024;

/**
 * Connects to the workspace's host and says hello. Rejects with the host's one-line reason when it refuses
 * (another protocol version), with `ENOENT`/`ECONNREFUSED` when none runs, never hangs (`timeoutMs`).
 */
export function connectHost(workspace: string, opts: { client: string; stop?: boolean; force?: boolean; timeoutMs?: number; env?: NodeJS.ProcessEnv; protocol?: number }): Promise<HostConnection> {
  const paths = hostPaths(workspace, opts.env);
  return new Promise((resolve, reject) => {
    const at = runningSocket(paths);
    const socket = net.connect(at);
    const events: Array<(e: HostEvent) => void> = [];
    const lines: Array<(line: string) => void> = [];
    // Events read in the same chunk as the welcome come before anyone could listen: kept for the first listener.
    let early: string[] | null = [];
    const closes: Array<() => void> = [];
    let welcomed = false;
    // ETIMEDOUT: a host that is there but stalled (stopped, swapped out), unlike one that is not there at all.
    const timer = setTimeout(() => fail(Object.assign(new Error(`the host for ${paths.workspace} did not answer in ${opts.timeoutMs ?? 10_000} ms`), { code: 'ETIMEDOUT' })), opts.timeoutMs ?? 10_000);
    const fail = (err: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    };
    // Parsed (JSON, then the contract) only for onEvent listeners: a forwarding client never parses an event.
    const deliver = (line: string) => {
      for (const cb of lines) cb(line);
      if (!events.length) return;
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        return;
      }
      const ev = parseEvent(raw);
      if (ev.ok) for (const cb of events) cb(ev.event);
    };
    const first = (add: () => void) => {
      add();
      for (const l of early?.splice(0) ?? []) deliver(l);
      early = null;
    };
    const reader = new LineReader(MAX_EVENT_LINE, (line) => {
      if (welcomed) return early ? void early.push(line) : deliver(line);
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        return fail(new Error('the host sent something that is not JSON'));
      }
      const w = HostWelcomeSchema.safeParse(raw);
      if (!w.success) return fail(new Error('the host did not answer the hello'));
      if (w.data.type === 'refused') return fail(Object.assign(new Error(w.data.error), w.data.code === 'stopping' ? { code: HOST_STOPPING } : {}));
      // A host serving another workspace at this socket path is never talked to (not even to stop it).
      if (w.data.workspace !== paths.workspace) return fail(new Error(`the host at ${at} serves ${w.data.workspace}, not ${paths.workspace}`));
      welcomed = true;
      clearTimeout(timer);
      resolve({
        pid: w.data.pid,
        workspace: w.data.workspace,
        send: (r) => void (socket.destroyed || socket.write(`${JSON.stringify(r)}\n`)),
        sendLine: (json) => void (socket.destroyed || socket.write(`${json}\n`)),
        onEvent: (cb) => first(() => events.push(cb)),
        onLine: (cb) => first(() => lines.push(cb)),
        onClose: (cb) => void closes.push(cb),
        close: () => socket.end(),
      });
    }, () => fail(new Error('the host sent a message over the size limit')));
    socket.on('connect', () => socket.write(`${JSON.stringify({ type: 'hello', protocol: opts.protocol ?? HOST_PROTOCOL, client: opts.client, ...(opts.stop ? { stop: true } : {}), ...(opts.force ? { force: true } : {}) })}\n`));
    socket.on('data', (d) => reader.push(d));
    socket.on('error', (err) => (welcomed ? undefined : fail(err)));
    socket.on('close', () => {
      if (!welcomed) fail(Object.assign(new Error('the host closed the connection before answering'), { code: 'ECONNRESET' }));
      for (const cb of closes.splice(0)) cb();
    });
  });
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
const noHost = (err: unknown) => ['ENOENT', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE'].includes((err as NodeJS.ErrnoException).code ?? '');

/**
 * Connects to the workspace's host, starting it detached (its output to the log in the runtime dir) when
 * none runs; the host outlives this process. `argv` runs `thclaws host --dir <workspace>`. A host that was
 * exiting when asked, or a start that lost the lease to one that then exited, is started again until the deadline.
 * Giving up, it stops the host it started and never reached: that one would otherwise win the lease later and
 * run on with nobody attached.
 */
export async function connectOrStartHost(workspace: string, argv: string[], opts: { client: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<HostConnection> {
  const paths = hostPaths(workspace, opts.env);
  const end = Date.now() + (opts.timeoutMs ?? 30_000);
  let child: Started | null = null;
  for (;;) {
    try {
      return await connectHost(workspace, opts);
    } catch (err) {
      if (!noHost(err) || Date.now() > end) {
        if (child?.exited === null) child.kill();
        throw child?.exited != null ? new Error(`the host exited (code ${child.exited}); see ${paths.log}`) : err;
      }
    }
    // Another client may have started it first: this one's child then exits naming it, and the connect works.
    if (!child || child.exited !== null) child = startDetached(argv, paths.log, opts.env ?? process.env);
    await new Promise((r) => setTimeout(r, 50));
  }
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
