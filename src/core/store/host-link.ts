/**
 * The teammate's end of its store's link to the lead's host: `store` requests over any duplex line stream (the
 * host's Unix socket, an SSH stream), each answer parsed once here. A request keeps its request id (`rid`) across
 * reconnects: after the link drops every unanswered request is sent again with the same id, and the host answers
 * a repeated id with its first result, so nothing is applied twice.
 */
import { randomUUID } from 'node:crypto';
import { STORE_VALUES, StoreAnswerSchema, StoreWakeKindSchema, type StoreOp, type StoreOpName, type StoreValue } from '../../contract/store-api.js';
import { TeamError, type TeamErrorCode } from './errors.js';

/** One connection to the host, already past its hello: whole lines in and out. */
export interface StoreLink {
  send(line: string): void;
  onLine(cb: (line: string) => void): void;
  onClose(cb: () => void): void;
  close(): void;
}

export interface HostLinkOptions {
  connect: () => Promise<StoreLink>;
  /** How long the link may stay down (reconnecting with backoff) before the teammate gives up as this agent. */
  downMs: number;
  /** Told once when the link is given up, or when the host refuses this teammate's session (stale epoch). */
  onFatal: (reason: string) => void;
  onWake: (kind: 'inbox' | 'task' | 'config') => void;
  /**
   * How long a request sent on a live connection may wait for its answer (default twice `downMs`): a host that is
   * stopped (SIGSTOP) or stalled reads nothing and never closes the link, and its teammate would wait forever.
   */
  answerMs?: number;
  /** Attached again on a new connection (after a drop): the wakes meanwhile were lost. */
  onRebound?: () => void;
  /** Sent first on every connection (attach): the request that binds it to the teammate again. */
  rebind?: () => StoreOp | undefined;
}

interface Pending {
  rid: string;
  call: StoreOp;
  resolve(value: unknown): void;
  reject(err: Error): void;
  /** This connection's request id (the reply's `id`), reassigned on each send. */
  id: number;
  /** The connection it was last sent on (null: not sent yet, or that connection closed). */
  on?: StoreLink | null;
  /** When it was last sent on a connection (ms). */
  sentAt?: number;
}

const CODES: readonly TeamErrorCode[] = ['invalid', 'not_found', 'conflict', 'busy', 'no_team', 'locked', 'lock_lost', 'lease_lost', 'stale_epoch'];

export class HostLink {
  private link: StoreLink | null = null;
  private connecting: Promise<void> | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  private fatal: string | null = null;
  /** Looks for a request the live connection left unanswered past `answerMs`, while any is pending. */
  private watchdog: NodeJS.Timeout | null = null;
  epoch: string | null = null;

  constructor(private readonly opts: HostLinkOptions) {}

  /** Connects (the first time, or again after the link dropped), re-binding and re-sending what is unanswered. */
  async open(): Promise<void> {
    if (this.link) return;
    this.connecting ??= this.reconnect().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async reconnect(): Promise<void> {
    const end = Date.now() + this.opts.downMs;
    let delay = 50;
    for (;;) {
      if (this.closed) throw new TeamError('lease_lost', 'the store link was closed');
      try {
        await this.bind(await this.opts.connect());
        return;
      } catch (err) {
        if (this.fatal) throw new TeamError('lease_lost', this.fatal);
        if (Date.now() + delay > end) {
          const why = `the lead's host could not be reached for ${Math.round(this.opts.downMs / 1000)} s (${(err as Error).message.split('\n')[0]})`;
          this.giveUp(why);
          throw new TeamError('lease_lost', why);
        }
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 2000);
      }
    }
  }

  /**
   * A new connection: attached again first (the host may still be letting go of the old one's lease: a refusal
   * closes it and the loop above tries again), then everything still unanswered is sent again, in its order.
   */
  private async bind(link: StoreLink): Promise<void> {
    link.onLine((line) => this.onLine(line));
    link.onClose(() => {
      this.dropped(link);
      if (this.link !== link) return;
      this.link = null;
      if (!this.closed && !this.fatal) void this.open().catch(() => undefined);
    });
    const rebind = this.opts.rebind?.();
    if (rebind) {
      try {
        await new Promise((resolve, reject) => this.transmit({ rid: randomUUID(), call: rebind, resolve, reject, id: 0 }, link));
      } catch (err) {
        link.close();
        throw err;
      }
    }
    this.link = link;
    const again = [...this.pending.values()].filter((p) => p.on !== link);
    for (const p of again) {
      this.pending.delete(p.id);
      this.transmit(p, link);
    }
    if (rebind) this.opts.onRebound?.();
  }

  /** Requests sent on a connection that closed stay pending, to be sent again on the next one. */
  private dropped(link: StoreLink): void {
    for (const p of this.pending.values()) if (p.on === link) p.on = null;
  }

  private transmit(p: Pending, link: StoreLink | null): void {
    p.id = this.nextId++;
    p.on = link;
    p.sentAt = Date.now();
    this.pending.set(p.id, p);
    link?.send(JSON.stringify({ type: 'store', id: p.id, rid: p.rid, epoch: this.epoch, call: p.call }));
    if (link) this.watch();
  }

  private watch(): void {
    if (this.watchdog) return;
    const answerMs = this.opts.answerMs ?? 2 * this.opts.downMs;
    this.watchdog = setInterval(() => {
      const now = Date.now();
      const late = [...this.pending.values()].find((p) => p.on && now - p.sentAt! > answerMs);
      if (late) this.giveUp(`the lead's host did not answer ${late.call.op} for ${+(answerMs / 1000).toFixed(1)} s (stopped or stalled)`);
      if (!this.pending.size || this.fatal || this.closed) {
        clearInterval(this.watchdog!);
        this.watchdog = null;
      }
    }, Math.max(20, Math.min(1000, answerMs / 4)));
    this.watchdog.unref();
  }

  /** One operation; its answer parsed with the operation's schema. `rid`: given only to repeat a request on purpose. */
  request<N extends StoreOpName>(call: Extract<StoreOp, { op: N }>, rid: string = randomUUID()): Promise<StoreValue<N>> {
    if (this.fatal) return Promise.reject(new TeamError('lease_lost', this.fatal));
    return new Promise((resolve, reject) => {
      const p: Pending = { rid, call, resolve: resolve as (v: unknown) => void, reject, id: 0, on: null };
      this.transmit(p, this.link);
      if (!this.link) void this.open().catch((err: Error) => reject(err));
    });
  }

  private onLine(line: string): void {
    // The host's other events (roster, members, the board) go to every client: only these two are this link's.
    if (!line.startsWith('{"type":"reply"') && !line.startsWith('{"type":"store_wake"')) return;
    let raw: { type?: unknown; id?: unknown; ok?: unknown; result?: unknown; error?: unknown; kind?: unknown };
    try {
      raw = JSON.parse(line) as typeof raw;
    } catch {
      return;
    }
    if (raw.type === 'store_wake') {
      const k = StoreWakeKindSchema.safeParse(raw.kind);
      if (k.success) this.opts.onWake(k.data);
      return;
    }
    if (raw.type !== 'reply' || typeof raw.id !== 'number') return;
    const p = this.pending.get(raw.id);
    if (!p) return;
    this.pending.delete(raw.id);
    if (raw.ok !== true) return p.reject(new TeamError('invalid', `the lead's host refused ${p.call.op}: ${String(raw.error ?? 'no reason')}`));
    const answer = StoreAnswerSchema.safeParse(raw.result);
    if (!answer.success) return p.reject(new TeamError('invalid', `the lead's host answered ${p.call.op} with something else than a store answer`));
    if (!answer.data.ok) {
      const code = (CODES as readonly string[]).includes(answer.data.code) ? (answer.data.code as TeamErrorCode) : 'invalid';
      if (code === 'stale_epoch') this.giveUp(answer.data.error);
      return p.reject(new TeamError(code, answer.data.error));
    }
    const value = STORE_VALUES[p.call.op].safeParse(answer.data.value);
    if (!value.success) return p.reject(new TeamError('invalid', `the lead's host answered ${p.call.op} with an invalid value: ${value.error.issues[0]?.message ?? ''}`));
    p.resolve(value.data);
  }

  private giveUp(reason: string): void {
    if (this.fatal) return;
    this.fatal = reason;
    for (const p of this.pending.values()) p.reject(new TeamError('lease_lost', reason));
    this.pending.clear();
    this.opts.onFatal(reason);
  }

  close(): void {
    this.closed = true;
    this.link?.close();
    this.link = null;
  }
}
