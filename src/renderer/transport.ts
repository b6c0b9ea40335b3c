import { parseEvent, type HostEvent, type RequestBody } from '../contract/api';

/** What the preload exposes in Electron (`window.thclaws`); the web build uses a WebSocket instead. */
export interface Bridge {
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): () => void;
}

declare global {
  interface Window {
    thclaws?: Bridge;
  }
}

type Reply = Extract<HostEvent, { type: 'reply' }>;

/** This long without the dashboard's server, the page says it stopped and what brings it back. */
export const SERVER_LOST_MS = 5000;
/**
 * A quiet connection is probed this often, and a probe unanswered this long means the server is not running
 * (stopped, hung: its socket stays open, so no close event would ever come). The probe is the web
 * transport's own (`server.ts` answers it), not a host request.
 */
const PING_EVERY_MS = 2000;
const PING_TIMEOUT_MS = 3000;
const PING = { type: 'ping', id: -2 } as const;

const PROOF_TIMEOUT_MS = 3000;

const base64url = (b: Uint8Array): string => btoa(String.fromCharCode(...b)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/**
 * The page's token: read from the address once, kept in this tab (sessionStorage, per port) and taken out of the
 * address, so that a reload asks for the page without it (the asset cookie serves the files) and the token goes
 * only where `serverKnows` has said yes — never in a request line to whatever holds the port by then.
 */
function takePageToken(): string {
  const key = `thclaws-token-${location.port}`;
  const url = new URL(location.href);
  const given = url.searchParams.get('token');
  try {
    if (given === null) return sessionStorage.getItem(key) ?? '';
    sessionStorage.setItem(key, given);
    url.searchParams.delete('token');
    history.replaceState(history.state, '', url.toString());
  } catch {
    // No storage (a locked-down profile): the token stays in the address, as before.
  }
  return given ?? '';
}

/**
 * Asks the server at this page's address to prove it knows the token, bound to this port (server.ts
 * `tokenProof`). Without WebCrypto (a page not in a secure context: served on a non-loopback http address)
 * nothing can be checked, and the page connects as before.
 */
async function serverKnows(token: string): Promise<'yes' | 'foreign' | 'gone'> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return 'yes';
  const nonce = base64url(crypto.getRandomValues(new Uint8Array(24)));
  let got: string;
  try {
    const r = await fetch(`/proof?nonce=${nonce}`, { cache: 'no-store', signal: AbortSignal.timeout(PROOF_TIMEOUT_MS) });
    if (!r.ok) return 'foreign';
    got = (await r.text()).trim();
  } catch {
    return 'gone';
  }
  try {
    const port = location.port || (location.protocol === 'https:' ? '443' : '80');
    const enc = new TextEncoder();
    const key = await subtle.importKey('raw', enc.encode(token), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const want = base64url(new Uint8Array(await subtle.sign('HMAC', key, enc.encode(`thclaws dashboard ${port} ${nonce}`))));
    return got === want ? 'yes' : 'foreign';
  } catch {
    return 'foreign';
  }
}

/** The renderer's side of the API: typed requests with replies, events validated before use. */
export class HostClient {
  private nextId = 1;
  private readonly waiting = new Map<number, (r: Reply) => void>();
  private readonly listeners = new Set<(e: HostEvent) => void>();
  private readonly statusListeners = new Set<(connected: boolean) => void>();
  private readonly lostListeners = new Set<(lost: boolean, foreign: boolean) => void>();
  /** The last try found something at this address that could not prove it knows the token. */
  private foreign = false;
  /** Set SERVER_LOST_MS after the socket closed, cleared when it opens again. */
  private lostTimer: ReturnType<typeof setTimeout> | null = null;
  private lost = false;
  private lastHeard = 0;
  private pingSentAt: number | null = null;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private lastTick = 0;
  private socket: WebSocket | null = null;
  /** Taken out of the page's address at start (`takePageToken`). */
  private token: string | undefined;
  private bridge: Bridge | null = null;
  private queue: Array<{ id: number; text: string }> = [];
  /** Requests sent on the current socket: their replies can only come back on it (a new socket is a new view). */
  private inFlight = new Set<number>();
  /** The team was stopped on purpose: a dropped socket is not reconnected (that would start its host again). */
  private ended = false;
  /**
   * This page's request to stop the host (its id): a socket dropped before `host_closed` came reconnects only to a
   * host that still runs (a stopping one says so), never starting the team the person is stopping again. Cleared
   * when the host refuses it: the team runs on, and a later drop reconnects as any other.
   */
  private stopAsked: number | null = null;
  /**
   * The socket that request went out on. Another socket (opened with `nostart`) that gets the team's roster reached
   * a host that runs and is not stopping: the request was lost with its socket (or never sent), and the team runs
   * on; a later drop (the host killed) reconnects as any other: it starts the next host, not "the team is stopped".
   */
  private stopSentOn: WebSocket | null = null;

  constructor() {
    if (typeof window !== 'undefined' && window.thclaws) {
      this.bridge = window.thclaws;
      // Electron main forwards the host's event lines as text: parsed here, once, as from the WebSocket.
      this.bridge.onMessage((m) => (typeof m === 'string' ? this.receiveText(m) : this.receive(m)));
      queueMicrotask(() => this.setConnected(true));
    } else {
      this.token = takePageToken();
      void this.connectSocket();
    }
  }

  private async connectSocket(): Promise<void> {
    this.token ??= takePageToken();
    const token = this.token;
    // Whatever holds this port now (the dashboard died, another program took it) gets the token only once it
    // has shown it knows it: the next dashboard of the workspace keeps the same token.
    const known = await serverKnows(token);
    if (known !== 'yes') {
      this.setForeign(known === 'foreign');
      this.dropped(Date.now());
      return;
    }
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${proto}://${location.host}/ws?token=${encodeURIComponent(token)}${this.stopAsked !== null ? '&nostart=1' : ''}`);
    this.socket = ws;
    ws.onopen = () => {
      for (const m of this.queue) {
        ws.send(m.text);
        if (m.id > 0) this.inFlight.add(m.id);
        if (m.id === this.stopAsked) this.stopSentOn = ws;
      }
      this.queue = [];
      if (this.lostTimer) clearTimeout(this.lostTimer);
      this.lostTimer = null;
      this.lastHeard = Date.now();
      this.pingSentAt = null;
      this.lastTick = Date.now();
      this.heartbeat = setInterval(() => this.probe(ws), PING_EVERY_MS);
      this.foreign = false;
      this.setLost(false);
      this.setConnected(true);
    };
    ws.onmessage = (ev) => {
      this.lastHeard = Date.now();
      this.pingSentAt = null;
      this.receiveText(String(ev.data));
    };
    ws.onclose = () => this.dropped(Date.now());
  }

  /** The socket closed, or its server went quiet at `since`: reconnect, and say so if it stays gone. */
  private dropped(since: number): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    // Requests that went out on the socket that closed: no reply will come (the host behind it may have died
    // while the web server lives on, so the page reconnects at once), so they fail now, not never.
    this.failWaiting([...this.inFlight], 'the connection to the dashboard closed before it answered: check whether it was done, then try again');
    this.inFlight.clear();
    this.setConnected(false);
    if (this.ended) return;
    this.lostTimer ??= setTimeout(() => this.setLost(true), Math.max(0, SERVER_LOST_MS - (Date.now() - since)));
    setTimeout(() => void this.connectSocket(), 1000);
  }

  /**
   * Probes a quiet connection; a probe unanswered too long drops it. A late tick (this page busy, or a
   * background tab's throttled timer) judges nothing: the answer may be waiting behind it.
   */
  private probe(ws: WebSocket): void {
    const now = Date.now();
    const late = now - this.lastTick > PING_EVERY_MS + 1000;
    this.lastTick = now;
    if (late) return;
    if (this.pingSentAt !== null && now - this.pingSentAt > PING_TIMEOUT_MS) {
      ws.onclose = null;
      ws.onmessage = null;
      ws.close();
      this.dropped(this.lastHeard);
      return;
    }
    if (this.pingSentAt === null && now - this.lastHeard >= PING_EVERY_MS && ws.readyState === WebSocket.OPEN) {
      this.pingSentAt = now;
      ws.send(JSON.stringify(PING));
    }
  }

  private setLost(lost: boolean): void {
    if (lost === this.lost) return;
    this.lost = lost;
    if (lost) {
      // Nothing typed or clicked while the server was gone is sent to whatever answers later, and a request
      // it never answered fails now instead of waiting for ever.
      this.queue = [];
      this.failWaiting([...this.waiting.keys()], 'the dashboard server stopped before it answered: check what happened once this page reconnects');
    }
    for (const l of this.lostListeners) l(lost, this.foreign);
  }

  private setForeign(foreign: boolean): void {
    if (foreign === this.foreign) return;
    this.foreign = foreign;
    if (this.lost) for (const l of this.lostListeners) l(true, foreign);
  }

  private failWaiting(ids: number[], error: string): void {
    for (const id of ids) {
      const w = this.waiting.get(id);
      if (!w) continue;
      this.waiting.delete(id);
      w({ type: 'reply', id, ok: false, error });
    }
  }

  private setConnected(c: boolean): void {
    for (const l of this.statusListeners) l(c);
  }

  /** A message holds one event or several, one per line (the server's `eventMessages`); each is parsed alone. */
  private receiveText(text: string): void {
    for (let from = 0; from < text.length; ) {
      const nl = text.indexOf('\n', from);
      const end = nl < 0 ? text.length : nl;
      let raw: unknown;
      try {
        raw = JSON.parse(text.slice(from, end));
      } catch {
        raw = undefined;
      }
      if (raw !== undefined) this.receive(raw);
      from = end + 1;
    }
  }

  /** Where an event enters the renderer: validated against the contract, once. */
  private receive(raw: unknown): void {
    const parsed = parseEvent(raw);
    if (!parsed.ok) {
      console.warn(parsed.error);
      return;
    }
    const ev = parsed.event;
    // Only the person starts a stopped team again ("Start the team again" reloads the page), never a reconnect.
    if (ev.type === 'host_closed') this.ended = true;
    if (ev.type === 'roster' && this.socket && this.stopAsked !== null && this.stopSentOn !== this.socket) this.stopAsked = this.stopSentOn = null;
    if (ev.type === 'reply') {
      const w = this.waiting.get(ev.id);
      this.inFlight.delete(ev.id);
      if (!ev.ok && ev.id === this.stopAsked) this.stopAsked = null;
      if (w) {
        this.waiting.delete(ev.id);
        w(ev);
      }
      if (!w && !ev.ok && ev.id >= 0) console.warn(ev.error);
      return;
    }
    for (const l of this.listeners) l(ev);
  }

  onEvent(l: (e: HostEvent) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  onStatus(l: (connected: boolean) => void): () => void {
    this.statusListeners.add(l);
    return () => this.statusListeners.delete(l);
  }

  /** Whether the dashboard's server has been gone SERVER_LOST_MS (the page is reconnecting on its own). */
  onLost(l: (lost: boolean, foreign: boolean) => void): () => void {
    this.lostListeners.add(l);
    return () => this.lostListeners.delete(l);
  }

  /** Sends without waiting for the reply (acks, input, resize). */
  fire(body: RequestBody): void {
    this.post({ id: 0, ...body });
  }

  /** Sends and resolves with the result; rejects with the host's one-line error. */
  request<T = unknown>(body: RequestBody): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      if (this.lost) return reject(new Error('the dashboard server stopped: nothing was sent; this page reconnects by itself once it runs again'));
      if (body.type === 'host_stop') this.stopAsked = id;
      this.waiting.set(id, (r) => (r.ok ? resolve(r.result as T) : reject(new Error(r.error ?? 'failed'))));
      this.post({ id, ...body });
    });
  }

  private post(msg: object): void {
    if (this.bridge) {
      this.bridge.send(msg);
      return;
    }
    const text = JSON.stringify(msg);
    const id = (msg as { id?: number }).id ?? 0;
    if (this.socket?.readyState === WebSocket.OPEN) {
      this.socket.send(text);
      if (id > 0) this.inFlight.add(id);
      if (id > 0 && id === this.stopAsked) this.stopSentOn = this.socket;
    } else if (!this.lost) this.queue.push({ id, text });
  }
}
