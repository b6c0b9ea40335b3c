import { parseRequest, USE_MY_KEY_CLIENT, type Request } from '../../contract/api.js';
import { ApiKeyError } from '../../core/agent/api-key.js';
import type { RecentWorkspaces } from '../host/recent.js';
import type { DesktopKeys } from './desktop-keys.js';
import { connectHost, connectOrStartHost, HOST_STOPPING, noHost, type HostConnection } from './host-client.js';
import type { HostLaunch } from './host-targets.js';
import { parseRemoteUrl, type RemoteSpec, type sshCommand } from './remote-url.js';
import { connectRemoteHost, NO_HOST } from './ssh-link.js';
import { hostGoneText, hostReplacedText, hostRunsAgainText, hostStoppedText, isStopped, leasePid, watchHostStall } from './host-stall.js';
import { readViewEvent, viewEventType, type ViewEvent } from './view-event.js';

/** The requests this process acts on (and so parses); key_set only matters with keys, but is cheap to parse. */
const ACTED_ON = new Set<unknown>(['open_workspace', 'demo_start', 'key_hold', 'key_set', 'subscribe', 'attach', 'detach'] satisfies Request['type'][]);

/** A dropped link to another machine is tried again after 0.5 s, doubling to at most 10 s between tries. */
export const relinkDelay = (attempt: number): number => Math.min(10_000, 500 * 2 ** attempt);

/** A request's `type`, read without validating it (a non-object has none). */
const requestType = (raw: unknown): unknown => (typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined);

/** One view's link to the team, as the web server and Electron's main process see it (in-process or a host's). */
export interface ViewLink {
  handle(raw: unknown): Promise<void>;
  close(): void;
}

/** A workspace's host: how to start it (`thclaws host --dir …`) when none runs, and its environment. */
export interface HostTarget {
  workspace: string;
  argv: string[];
  env?: NodeJS.ProcessEnv;
  /** On another machine (`--remote`): reached through the person's ssh; `argv` is unused then. */
  remote?: RemoteHost;
}

/** A workspace's host on another machine, as `connectRemoteHost` reaches it. */
export interface RemoteHost {
  remote: RemoteSpec;
  launch: HostLaunch;
  ssh?: ReturnType<typeof sshCommand>;
  /** The program on the remote (`--remote-bin`, setting `remote.bin`); default `thclaws`. */
  bin?: string;
  /** "Use my key there": the local key, held in the remote host's memory; absent, nothing local is sent. */
  key?: () => string | null;
}

export interface RemoteViewsOptions {
  /** The host of another folder the person opens (started like the first one). */
  targetFor(dir: string): HostTarget;
  /** "Try the demo team": a throw-away workspace and how to start its host. */
  demo(): Promise<HostTarget>;
  client?: string;
  /** The desktop app's key, encrypted at rest by main: saved here, handed to each host in memory. */
  keys?: DesktopKeys;
  /** A remote workspace the person opens (`ssh://…` in open_workspace); `useMyKey`: "use my key there". */
  remoteFor?(url: string, useMyKey: boolean): HostTarget;
  /** The remote workspaces opened lately, on this machine: the picker lists them. */
  remotes?: RecentWorkspaces;
}

/**
 * Views served by a dashboard that is a client of the workspace's host: each view gets its own connection
 * to the host (so the host's per-view flow control and sizes still hold), opened when the view connects.
 * Only the requests this process acts on are parsed here (moving, keys, what a moved view must ask again);
 * the rest, and every event, pass through unparsed: the host validates a request where it enters it, the
 * renderer an event. A page's `key_hold` never passes (refused here, whatever else it holds). A host is one
 * workspace's: opening another folder (or the demo) moves the view to that folder's host, started when none
 * runs, and the view's subscription and attached terminals follow it there.
 */
export class RemoteViews {
  constructor(
    private readonly first: HostTarget,
    private readonly opts: RemoteViewsOptions,
  ) {}

  /** Connects once (starting the host when none runs): the dashboard fails early when the host cannot start. */
  async probe(): Promise<number> {
    const c = await this.link(this.first);
    c.close();
    return c.pid;
  }

  /** `noStart`: only a host that runs (none: NO_HOST from a remote, a no-host socket error here). */
  private async link(t: HostTarget, noStart = false): Promise<HostConnection> {
    const base = this.opts.client ?? 'dashboard';
    if (t.remote) {
      // "Use my key there" from a dashboard: a client the remote host lets hand it the key (Electron's main already is one).
      const client = t.remote.key && base !== 'electron' ? USE_MY_KEY_CLIENT : base;
      const launch = noStart ? { ...t.remote.launch, noStart: true } : t.remote.launch;
      const c = await connectRemoteHost(t.remote.remote, launch, { client, ssh: t.remote.ssh, bin: t.remote.bin, env: t.env });
      this.opts.remotes?.add(t.remote.remote.url);
      return c;
    }
    return noStart ? connectHost(t.workspace, { client: base, env: t.env }) : connectOrStartHost(t.workspace, t.argv, { client: base, env: t.env });
  }

  /**
   * `gone`: the host went away (killed, stopped): the transport ends the view, which reconnects to the next host.
   * `noStart`: the view of a page that asked the team to stop, come back before it heard the host close: it
   * reaches the host only if one still runs, and else is told the team stopped (never starting it again).
   */
  connect(out: (event: ViewEvent) => void, gone?: () => void, opts: { noStart?: boolean } = {}): ViewLink {
    let closed = false;
    let conn: HostConnection | null = null;
    /** Requests as the lines they go to the host as (JSON text), until a host is reached. */
    let pending: string[] = [];
    // What the view asked that a host it moves to must hear again.
    let subscribed = false;
    const attached = new Map<string, Request>();
    let target = this.first;
    const remotesNow = () => void (this.opts.remotes && out({ type: 'remotes', urls: this.opts.remotes.list() }));
    /** The remote machine whose link dropped, while this view reconnects to it (`relink`). */
    let lostLink: string | null = null;

    /** What this view was last told about its host being stopped (SIGSTOP), and of which pid. */
    let stall: { stopped: boolean; pid: number } = { stopped: false, pid: 0 };
    const tellStall = (stopped: boolean, pid: number) => {
      // Another pid running where a stopped one was: that one was killed, not continued, and another took its place.
      const text = stopped ? hostStoppedText(pid) : stall.stopped && stall.pid !== pid ? hostReplacedText(stall.pid, pid) : hostRunsAgainText(pid);
      stall = { stopped, pid };
      out({ type: 'notice', level: stopped ? 'error' : 'info', text });
    };
    // Until the first hello is answered, the lease's holder is watched: a host stopped then is said at once too.
    let unwatch = this.first.remote
      ? () => {}
      : watchHostStall(
          () => leasePid(this.first.workspace, this.first.env),
          (stopped, pid) => void (conn === null && !closed && tellStall(stopped, pid)),
        );
    const bind = (c: HostConnection, t: HostTarget) => {
      conn = c;
      target = t;
      // A stopped host reads nothing: the view is told, rather than waiting on its requests without a word.
      unwatch();
      // It answered, so it runs: a "stopped" said while it was saying hello is closed.
      if (stall.stopped) tellStall(false, c.pid);
      // A remote host's pid is the other machine's: no process here to watch.
      unwatch = t.remote
        ? () => {}
        : watchHostStall(c.pid, (stopped) => {
            if (conn === c) tellStall(stopped, c.pid);
          });
      // The desktop app's stored key, decrypted here, reaches the host in memory before anything the view asks.
      // A remote host uses the remote's key unless the person chose "use my key there".
      const key = t.remote ? t.remote.key?.() : this.opts.keys?.current();
      if (key) c.send({ id: 0, type: 'key_hold', key });
      let onPurpose = false;
      c.onLine((line) => {
        if (conn !== c) return;
        const closedBy = viewEventType(line) === 'host_closed' ? readViewEvent(line) : null;
        if (closedBy?.type === 'host_closed') {
          onPurpose = true;
          out({ type: 'notice', level: 'warn', text: `the team's host stopped (${closedBy.reason}): reload this page to start it again` });
        }
        out(line);
      });
      c.onClose(() => {
        if (conn !== c || closed) return;
        unwatch();
        conn = null;
        if (onPurpose) return;
        // The link to another machine dropped (ssh killed, network, sleep): the team runs on there; this view
        // stays and reconnects to it, rather than end and start a host here.
        if (t.remote) return void relink(t);
        // Killed (or crashed): the view ends and reconnects, which starts the next host (it offers Resume team).
        // A stopped one closes nothing by itself: it is gone, and its "stopped" is over whether or not another starts.
        out({ type: 'notice', level: 'warn', text: stall.stopped ? hostGoneText(stall.pid) : 'the connection to the workspace host closed' });
        gone?.();
      });
    };
    const forward = (r: unknown) => {
      let line: string | undefined;
      try {
        line = JSON.stringify(r) as string | undefined;
      } catch {
        // A page over IPC can send what JSON cannot hold (a cycle, a BigInt): never a line for the host.
      }
      if (line === undefined) return out({ type: 'reply', id: -1, ok: false, error: 'invalid request: not JSON' });
      if (lostLink !== null) {
        // Nothing typed or clicked during the outage reaches the team later, unasked.
        const id = (r as { id?: unknown }).id;
        if (typeof id === 'number' && id > 0) out({ type: 'reply', id, ok: false, error: `connection to ${lostLink} lost: nothing was sent; reconnecting…` });
        return;
      }
      if (conn) conn.sendLine(line);
      else pending.push(line);
    };
    /** What a view that reaches another host (moved, or linked again) asks it again. */
    const rejoin = (next: HostConnection) => {
      if (subscribed) next.send({ id: 0, type: 'subscribe' });
      for (const a of attached.values()) next.send(a);
    };
    const relink = async (t: HostTarget) => {
      const label = t.remote!.remote.label;
      lostLink = label;
      pending = [];
      out({ type: 'link', lost: true, label });
      out({ type: 'notice', level: 'warn', text: `connection to ${label} lost — the team keeps running there; reconnecting…` });
      for (let attempt = 0; !closed && target === t; attempt++) {
        await new Promise((r) => setTimeout(r, relinkDelay(attempt)));
        if (closed || target !== t) return;
        let next: HostConnection;
        try {
          // Only to the host that runs there: one stopped meanwhile (from another laptop, or by itself) is not
          // started again behind the person's back; they reload to start it.
          next = await this.link({ ...t, remote: { ...t.remote!, launch: { ...t.remote!.launch, noStart: true } } });
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === HOST_STOPPING || code === NO_HOST) {
            lostLink = null;
            out({ type: 'link', lost: false, label });
            return out({ type: 'host_closed', reason: code === NO_HOST ? `the team's host on ${label} is not running (stopped while the link was down): reload this page to start it again` : (err as Error).message.split('\n')[0]! });
          }
          continue;
        }
        if (closed || target !== t) return next.close();
        lostLink = null;
        bind(next, t);
        rejoin(next);
        out({ type: 'link', lost: false, label });
        out({ type: 'notice', level: 'info', text: `connected to ${label} again (host pid ${next.pid} there)` });
        return;
      }
    };
    const ready = this.link(this.first, opts.noStart).then(
      (c) => {
        if (closed) return c.close();
        bind(c, this.first);
        remotesNow();
        for (const l of pending.splice(0)) c.sendLine(l);
      },
      (err: NodeJS.ErrnoException) => {
        // No host to watch for this view any more: its reconnect (or a reload) watches afresh.
        unwatch();
        if (closed) return;
        // The host said stopped was killed meanwhile, and none took its place.
        if (stall.stopped && !isStopped(stall.pid)) out({ type: 'notice', level: 'warn', text: hostGoneText(stall.pid) });
        // The person is stopping the team: the view shows it stopped, and does not start it again by reconnecting.
        if (err.code === HOST_STOPPING) return out({ type: 'host_closed', reason: err.message.split('\n')[0]! });
        if (opts.noStart && (noHost(err) || err.code === NO_HOST)) return out({ type: 'host_closed', reason: 'the team was stopped while this page was reconnecting' });
        out({ type: 'notice', level: 'error', text: `cannot reach the workspace host: ${err.message.split('\n')[0]!}` });
        // A stalled host may answer later: the view ends and the page's reconnect tries again, rather than
        // stay on an empty team (no roster ever came) that reads "connected".
        if (err.code === 'ETIMEDOUT') gone?.();
      },
    );
    let moving = ready;
    const move = async (id: number, target: () => HostTarget | Promise<HostTarget>, result: (t: HostTarget) => unknown) => {
      try {
        await moving;
        const t = await target();
        const next = await this.link(t);
        if (closed) return next.close();
        const old = conn;
        lostLink = null;
        bind(next, t);
        old?.close();
        rejoin(next);
        for (const l of pending.splice(0)) next.sendLine(l);
        if (t.remote) remotesNow();
        const res = result(t);
        out({ type: 'reply', id, ok: true, ...(res === undefined ? {} : { result: res }) });
      } catch (err) {
        out({ type: 'reply', id, ok: false, error: (err as Error).message.split('\n')[0]! });
      }
    };
    return {
      handle: async (raw) => {
        // Keystrokes, acks, resizes…: forwarded as they came, validated once, by the host.
        if (!ACTED_ON.has(requestType(raw))) return forward(raw);
        const parsed = parseRequest(raw);
        if (!parsed.ok) return out({ type: 'reply', id: parsed.id, ok: false, error: parsed.error });
        const r = parsed.request;
        if (r.type === 'subscribe') subscribed = true;
        if (r.type === 'attach') attached.set(r.agent, { ...r, id: 0 });
        if (r.type === 'detach') attached.delete(r.agent);
        if (r.type === 'open_workspace') {
          // A remote view opens another folder on the same machine; a local one another folder here.
          const from = target;
          const remoteFor = this.opts.remoteFor;
          const to = r.dir.startsWith('ssh://') && remoteFor ? () => remoteFor(r.dir, r.use_my_key === true) : from.remote ? () => remoteFolder(from, r.dir) : () => this.opts.targetFor(r.dir);
          moving = move(r.id, to, () => undefined);
          return moving;
        }
        if (r.type === 'demo_start') {
          if (target.remote) return out({ type: 'reply', id: r.id, ok: false, error: `the demo runs on this machine, and this dashboard shows ${target.remote.remote.label}: run thclaws dashboard --demo for it` });
          moving = move(r.id, () => this.opts.demo(), (t) => t.workspace);
          return moving;
        }
        // The key held in the host's memory is main's to hand over (bind, key_set below), never a page's to set.
        if (r.type === 'key_hold') return out({ type: 'reply', id: r.id, ok: false, error: "key_hold is the desktop app's own message: a page saves a key with key_set" });
        if (r.type === 'key_set' && this.opts.keys && !target.remote) {
          // Encrypted before it reaches the disk; the host gets it in memory and never writes it.
          try {
            return forward({ id: r.id, type: 'key_hold', key: this.opts.keys.save(r.key) });
          } catch (err) {
            if (!(err instanceof ApiKeyError)) throw err;
            return out({ type: 'reply', id: r.id, ok: false, error: err.message });
          }
        }
        forward(r);
      },
      close: () => {
        closed = true;
        unwatch();
        conn?.close();
        conn = null;
        pending = [];
      },
    };
  }
}

/** Another folder on the same remote machine, reached the same way (its lead started as the first's, no script or prompt). */
export function remoteFolder(from: HostTarget, dir: string): HostTarget {
  const r = from.remote!;
  const at = r.remote;
  const remote = parseRemoteUrl(`ssh://${at.user ? `${at.user}@` : ''}${at.host}${at.port ? `:${at.port}` : ''}${dir.startsWith('/') ? '' : '/'}${dir}`);
  return { ...from, workspace: remote.dir, remote: { ...r, remote, launch: { startLead: r.launch.startLead } } };
}
