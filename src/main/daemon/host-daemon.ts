import fs from 'node:fs';
import net from 'node:net';
import { HOST_PROTOCOL, HostHelloSchema, parseRequest, USE_MY_KEY_CLIENT, type HostEvent, type HostWelcome, type Request } from '../../contract/api.js';
import { askTeammatesToStop } from './stop-team.js';
import { tryHoldLock, type HeldLock } from '../../core/store/index.js';
import type { HostManager } from '../host/connection.js';
import { hostPaths, type HostPaths } from './runtime-dir.js';
import { LineReader } from './lines.js';

export interface HostDaemonOptions {
  workspace: string;
  /** Opens the workspace (a HostManager over its TeamHost), once the lease is held. */
  open(workspace: string): Promise<HostManager>;
  /** Exit after this long with no client and no live agent (ms; 0 = never). */
  idleMs?: number;
  /**
   * Exit after this long with no client, live agents or not (ms; 0 = never): a demo a dashboard opened is
   * throw-away, and once its last view is gone no one can come back to it.
   */
  exitUnusedMs?: number;
  /** Called once the host has closed (idle, `--stop`, or close()). */
  onClosed?(reason: string): void;
  log?(line: string): void;
  env?: NodeJS.ProcessEnv;
  /** Overrides for tests: how long a client may stay silent before its hello, how much it may leave unread. */
  helloDeadlineMs?: number;
  maxClientBacklog?: number;
  /** "Stop the team and quit": how long teammates get to stop by themselves. */
  stopGraceMs?: number;
  /** How often the socket file is checked (tests). */
  socketCheckMs?: number;
}

export interface HostDaemon {
  paths: HostPaths;
  manager: HostManager;
  clients(): number;
  close(reason?: string): Promise<void>;
}

/** Another host already serves the workspace: its pid, for the one line the second one prints. */
export class HostRunningError extends Error {
  constructor(readonly pid: number | null, paths: HostPaths) {
    super(`a host already runs for ${paths.workspace} (pid ${pid ?? '?'}); connect to it, or stop it with thclaws host --stop`);
  }
}

/** Longest line a client may send (a request), as on the WebSocket. */
const MAX_LINE = 1024 * 1024;
/** A client that has not said hello by then is closed: a silent one would keep an idle host alive for ever. */
export const HELLO_DEADLINE_MS = 10_000;
/**
 * Most a client may leave unread in its socket's queue. Screens restored on attach are the largest events
 * (8 panes of 1 MiB scrollback fit many times over); past this the client is not reading and is closed
 * rather than grow the host's memory without bound.
 */
export const MAX_CLIENT_BACKLOG = 256 * 1024 * 1024;

/**
 * The workspace's host: holds its lease (one per workspace, a dead holder's taken over), owns the TeamHost
 * (and so every pty), and serves any number of clients on a Unix socket only this user can open. A socket file
 * found at start is a killed host's (a live one would hold the lease): it is replaced.
 */
/** What a client that comes while the team stops is told (its hello refused with code `stopping`). */
const stoppingError = (by: string): string => `the team is stopping: ${by}`;

export async function startHostDaemon(opts: HostDaemonOptions): Promise<HostDaemon> {
  const paths = hostPaths(opts.workspace, opts.env);
  const log = opts.log ?? ((l: string) => process.stderr.write(`thclaws host: ${l}\n`));
  const held = tryHoldLock(paths.lock);
  if (!('lock' in held)) throw new HostRunningError(held.holder?.pid ?? null, paths);
  const lock: HeldLock = held.lock;
  let manager: HostManager;
  try {
    if (fs.lstatSync(paths.socket, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`${paths.socket} is a directory where the host's socket goes: remove it and start again`);
    fs.rmSync(paths.socket, { force: true });
    fs.rmSync(paths.link, { force: true });
    manager = await opts.open(paths.workspace);
  } catch (err) {
    lock.release();
    throw err;
  }
  const sockets = new Set<net.Socket>();
  /** Sockets this host welcomed (views, and `--stop` clients): only these are told `host_closed`. */
  const welcomed = new WeakSet<net.Socket>();
  let closed = false;
  /** Set once the team is being stopped on purpose (a dashboard's "Stop the team and quit", `--stop`). */
  let stopping: { by: string; done: Promise<void> } | null = null;
  /**
   * The one way the team is stopped on purpose: each teammate asked as the lead does, a grace, then the host
   * closes (stopping the rest and the lead). `force`: at once, without asking.
   */
  const stopTeam = (by: string, force = false): Promise<void> => {
    if (force) {
      stopping ??= { by, done: Promise.resolve() };
      return close(`${by} (at once)`);
    }
    stopping ??= {
      by,
      done: askTeammatesToStop(manager.host, opts.stopGraceMs).then(({ asked, stopped }) => {
        if (asked.length) log(`asked ${asked.join(', ')} to stop; ${stopped.length} stopped by themselves`);
        // Said in the reason too: the log of a host that exits cleanly is removed.
        return close(`${by}${asked.length ? `; ${stopped.length} of ${asked.length} teammates stopped by themselves` : ''}`);
      }),
    };
    return stopping.done;
  };
  let idleSince = Date.now();
  /** When a client was last connected (for exitUnusedMs). */
  let clientSince = Date.now();

  /** `storeOnly`: a connection to the store socket (paths.store), which serves a teammate's `store` requests and nothing else. */
  const onConnection = (socket: net.Socket, storeOnly = false) => {
    sockets.add(socket);
    const send = (obj: HostEvent | HostWelcome) => {
      if (socket.destroyed) return;
      if (socket.writableLength > (opts.maxClientBacklog ?? MAX_CLIENT_BACKLOG)) {
        log(`closing a client that left ${Math.round(socket.writableLength / 1048576)} MiB unread`);
        socket.destroy();
        return;
      }
      // The events of one tick (a scheduler round: a line per pane) go out in one write.
      if (!socket.writableCorked) {
        socket.cork();
        process.nextTick(() => socket.uncork());
      }
      socket.write(`${JSON.stringify(obj)}\n`);
    };
    const helloTimer = setTimeout(() => {
      if (conn || socket.destroyed) return;
      log('closing a client that said no hello in time');
      socket.destroy();
    }, opts.helloDeadlineMs ?? HELLO_DEADLINE_MS);
    helloTimer.unref();
    let conn: ReturnType<HostManager['connect']> | null = null;
    // Refused or stopping: the lines it sent after that (in the same write) are not served.
    let done = false;
    const reader = new LineReader(MAX_LINE, (line) => {
      if (done) return;
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        log(`refused a malformed message (not JSON) from a client: ${line.slice(0, 80)}`);
        if (conn) send({ type: 'reply', id: -1, ok: false, error: 'invalid request: not JSON' });
        else refuse('the first message must be a hello (JSON)');
        return;
      }
      if (conn) {
        // Parsed here, once per line: what runs it inward (Connection, HostSession) takes the typed request.
        const r = parseRequest(raw);
        if (!r.ok) return send({ type: 'reply', id: r.id, ok: false, error: r.error });
        if (storeOnly && r.request.type !== 'store') return send({ type: 'reply', id: r.request.id, ok: false, error: `${r.request.type} refused: this socket serves a teammate's store only` });
        if (hostOnly(r.request)) return;
        conn.serve(r.request).catch((err: unknown) => send({ type: 'reply', id: -1, ok: false, error: String(err).split('\n')[0]! }));
        return;
      }
      const hello = HostHelloSchema.safeParse(raw);
      if (!hello.success) return refuse('the first message must be a hello');
      if (hello.data.protocol !== HOST_PROTOCOL) {
        return refuse(`this host (pid ${process.pid}) speaks protocol ${HOST_PROTOCOL}, the client ${hello.data.protocol}: use the same thclaws version, or stop the host (thclaws host --stop)`);
      }
      clearTimeout(helloTimer);
      if (storeOnly && hello.data.stop) return refuse("this socket serves a teammate's store only: stop the team through the host's own socket");
      if (hello.data.stop) {
        // Kept open: close() tells it `host_closed` with the outcome, which `--stop` prints.
        done = true;
        send({ type: 'welcome', protocol: HOST_PROTOCOL, pid: process.pid, workspace: paths.workspace });
        welcomed.add(socket);
        log(`stop asked by a client (${hello.data.client}${hello.data.force ? ', at once' : ''})`);
        void stopTeam('stopped by thclaws host --stop', hello.data.force);
        return;
      }
      // Stopped on purpose: a view welcomed now would be dropped, and its page would start the team again.
      if (stopping) return refuse(stoppingError(stopping.by), 'stopping');
      if (closed) {
        // Exiting by itself (idle): dropped like a host that is gone, so the client starts the next one.
        done = true;
        socket.destroy();
        return;
      }
      send({ type: 'welcome', protocol: HOST_PROTOCOL, pid: process.pid, workspace: paths.workspace });
      welcomed.add(socket);
      conn = manager.connect(send);
      // Only Electron's main, or a dashboard run with --use-my-key, hands over a key (key_hold); both refuse a
      // page's own key_hold (remote-views.ts), so a page's requests forwarded here never carry one. Never on the
      // store-only socket a remote teammate's machine reaches.
      if ((hello.data.client === 'electron' || hello.data.client === USE_MY_KEY_CLIENT) && !storeOnly) conn.allowKeyHold();
    }, () => {
      log('refused a message longer than 1 MiB; closing that client');
      socket.destroy();
    });
    /** Requests about the host itself rather than its team; true when answered here. */
    const hostOnly = ({ id, type }: Request): boolean => {
      if (type === 'open_workspace' || type === 'demo_start') {
        send({ type: 'reply', id, ok: false, error: `this host serves ${paths.workspace} only: a dashboard opens another folder through that folder's host` });
        return true;
      }
      if (type !== 'host_stop') return false;
      send({ type: 'reply', id, ok: true });
      // Asked again (a second page, a click after a reload) while the first stop runs: one round of shutdown requests.
      if (stopping) log('"Stop the team and quit" asked again while stopping');
      else log('"Stop the team and quit" asked by a client');
      void stopTeam('the team was stopped from a dashboard');
      return true;
    };
    const refuse = (error: string, code?: 'stopping') => {
      done = true;
      log(`refused a client: ${error}`);
      send({ type: 'refused', error, ...(code ? { code } : {}) });
      socket.end();
    };
    socket.on('data', (d) => reader.push(d));
    const gone = () => {
      clearTimeout(helloTimer);
      sockets.delete(socket);
      conn?.close();
      conn = null;
      // From the moment the last client left (not the last check that saw one): a reload within the grace finds the host.
      if (!sockets.size) idleSince = clientSince = Date.now();
    };
    socket.on('close', gone);
    socket.on('error', gone);
  };

  let server = net.createServer((s) => onConnection(s));
  const storeServer = net.createServer((s) => onConnection(s, true));
  try {
    fs.rmSync(paths.store, { force: true });
    await listen(server, paths.socket);
    await listen(storeServer, paths.store);
  } catch (err) {
    server.close();
    await manager.close();
    lock.release();
    throw err;
  }
  let ino = fs.statSync(paths.socket).ino;
  // Clients started with another runtime dir find this host through the lease dir (one host, whatever the env).
  relink(paths);

  // A socket file removed (a /tmp cleaner, a person) or replaced left a running host nobody could reach, and a
  // `--stop` that said none runs: listen again at the path. Open connections stay on the old server.
  let relistening = false;
  let blocked = false; // a directory is at the socket's path (said once)
  const socketTimer = setInterval(() => {
    if (closed || relistening) return;
    const st = fs.lstatSync(paths.socket, { throwIfNoEntry: false });
    if (st?.isSocket() && st.ino === ino) return relink(paths);
    if (st?.isDirectory()) {
      if (!blocked) log(`${paths.socket} is a directory where the host's socket goes: remove it, and the host listens there again`);
      blocked = true;
      return;
    }
    blocked = false;
    relistening = true;
    log(`its socket ${paths.socket} was removed or replaced: listening there again`);
    server.close(); // unlinks the path (whatever is there now: this host holds the lease)
    server = net.createServer((s) => onConnection(s));
    // Thrown here (in a timer) it would end the host and every agent with it: a failure waits for the next check.
    Promise.resolve()
      .then(() => fs.rmSync(paths.socket, { force: true }))
      .then(() => listen(server, paths.socket))
      .then(() => {
        ino = fs.statSync(paths.socket).ino;
        relink(paths);
      })
      .catch((err: Error) => log(`cannot listen again: ${err.message.split('\n')[0]!}`))
      .finally(() => (relistening = false));
  }, opts.socketCheckMs ?? SOCKET_CHECK_MS);
  socketTimer.unref();

  const idleMs = opts.idleMs ?? 0;
  const unusedMs = opts.exitUnusedMs ?? 0;
  const period = Math.min(...[idleMs, unusedMs].filter((ms) => ms > 0)) / 4;
  const idleTimer = idleMs > 0 || unusedMs > 0 ? setInterval(() => {
    const now = Date.now();
    if (sockets.size > 0) {
      idleSince = clientSince = now;
      return;
    }
    if (unusedMs > 0 && now - clientSince >= unusedMs) return void close(`no client for ${Math.round(unusedMs / 1000)} s (a throw-away demo)`);
    if (idleMs <= 0) return;
    if (manager.host.launcher.live().length > 0) idleSince = now;
    else if (now - idleSince >= idleMs) void close(`idle for ${Math.round(idleMs / 1000)} s with no client and no live agent`);
  }, Math.max(50, Math.min(5_000, period))) : null;

  async function close(reason = 'closed'): Promise<void> {
    if (closed) return;
    closed = true;
    if (idleTimer) clearInterval(idleTimer);
    clearInterval(socketTimer);
    log(`exiting: ${reason}`);
    // Views are told this is on purpose, so none starts the host again by reconnecting.
    const bye = `${JSON.stringify({ type: 'host_closed', reason } satisfies HostEvent)}\n`;
    // A client whose hello is not answered yet waits for a welcome: `host_closed` first failed it ("did not
    // answer the hello"). It gets what its hello would get now: the stopping refusal, or (exiting by itself)
    // a dropped connection, like a host that is gone, so it starts the next one.
    const notYet = () => (stopping ? `${JSON.stringify({ type: 'refused', error: stoppingError(stopping.by), code: 'stopping' } satisfies HostWelcome)}\n` : null);
    const tellOne = (s: net.Socket, r: () => void) => {
      if (s.destroyed || s.writableEnded) return r();
      const line = welcomed.has(s) ? bye : notYet();
      if (line) s.end(line, () => r());
      else {
        s.destroy();
        r();
      }
    };
    const tell = async () => {
      const told = Promise.all([...sockets].map((s) => new Promise<void>((r) => tellOne(s, r))));
      await Promise.race([told, new Promise((r) => setTimeout(r, 1000).unref())]);
      for (const s of sockets) s.destroy();
    };
    await tell();
    // Still listening while the agents stop: a client that comes now is refused ("the team is stopping")
    // rather than finding no host and starting a new one.
    await manager.close();
    const serverClosed = new Promise<void>((r) => server.close(() => r()));
    const storeClosed = new Promise<void>((r) => storeServer.close(() => r()));
    await tell();
    await Promise.all([serverClosed, storeClosed]);
    fs.rmSync(paths.socket, { force: true });
    fs.rmSync(paths.store, { force: true });
    fs.rmSync(paths.link, { force: true });
    lock.release();
    opts.onClosed?.(reason);
  }

  return { paths, manager, clients: () => sockets.size, close };
}

/** How often the host checks that its socket file is still its own. */
const SOCKET_CHECK_MS = 5_000;

/** Listens on a Unix socket created 0600 (no window where it is wider); the directory is 0700 anyway. */
async function listen(server: net.Server, at: string): Promise<void> {
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(at, () => resolve());
    });
  } finally {
    process.umask(umask);
  }
}

/** Points the lease dir's link at this host's socket, unless it already does (tried again on the next check). */
function relink(paths: HostPaths): void {
  try {
    if (fs.readlinkSync(paths.link) === paths.socket) return;
  } catch {
    // missing, or not a link
  }
  try {
    fs.rmSync(paths.link, { force: true });
    fs.symlinkSync(paths.socket, paths.link);
  } catch {
    // a convenience for clients of another runtime dir; the socket itself still serves
  }
}
