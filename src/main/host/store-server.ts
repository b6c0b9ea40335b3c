/**
 * The lead's host carrying out a teammate's store operations (`store` requests, store-api.ts) with its own
 * TeamStore, under its locks: the host is the only writer of the team dir for a teammate that cannot open it.
 * A connection attaches as one agent (the host then holds that agent's lease for it); every write it sends is
 * deduplicated by the teammate's request id (a retry after a reconnect gets the first answer, applied once) and
 * refused when stamped with an earlier session epoch than the team's.
 */
import { LEAD, TeamError, type Lease, type TeamStore, type TeamWatcher } from '../../core/store/index.js';
import { currentEpoch, ensureEpoch, sendFrame } from '../../core/teams/protocol.js';
import { MODEL_ENV_NAMES, MUTATING_OPS, type StoreAnswer, type StoreCall, type StoreOp } from '../../contract/store-api.js';
import type { HostEvent } from '../../contract/api.js';

/** Request ids remembered per teammate: far more than a teammate ever has unanswered across one reconnect. */
export const REMEMBERED_RIDS = 1024;

/** One connection as the store server sees it: where its wakes go. */
export interface StorePeer {
  send(event: HostEvent): void;
}

interface Binding {
  agent: string;
  instance: string;
  lease: Lease;
  /** The run id the teammate's status carries: its first attach's lease's, kept across re-attaches. */
  boot: string;
}

export class StoreServer {
  private readonly bindings = new Map<StorePeer, Binding>();
  /** Per agent: request id → its answer (a promise while it runs, so a retry racing the first waits for it). */
  private readonly answered = new Map<string, Map<string, Promise<StoreAnswer>>>();
  private watcher: TeamWatcher | null = null;
  /** After a teammate's task_complete (a remote teammate's branch is fetched home here); never fails the completion. */
  afterComplete: ((agent: string) => Promise<void>) | null = null;
  /** The lead's model variables, for an attach that asks (a teammate on another machine holds them in memory). */
  modelEnv: (() => Record<string, string | undefined>) | null = null;
  /**
   * Per agent launched on another machine by this host: the run that took the model variables (null: not yet).
   * Only that run gets them: any other process able to open the socket (its own Bash commands, on its machine)
   * attaching as a member gets none.
   */
  private readonly modelEnvOwed = new Map<string, string | null>();

  constructor(private readonly store: TeamStore) {}

  /** Carries out one call; never throws (a refusal is an answer with the store's error code). */
  serve(peer: StorePeer, { rid, epoch, call }: StoreCall): Promise<StoreAnswer> {
    const b = this.bindings.get(peer);
    if (call.op === 'attach') return this.answer(() => this.attach(peer, call, epoch));
    if (!b) return Promise.resolve({ ok: false, code: 'not_attached', error: `${call.op} before attach: a teammate's connection attaches as its agent first` });
    if (!MUTATING_OPS.has(call.op)) return this.answer(() => this.run(b, call));
    const seen = this.remembered(b.agent);
    const first = seen.get(rid);
    if (first) return first;
    const result = this.answer(async () => {
      await this.checkEpoch(peer, b, epoch);
      return this.run(b, call);
    });
    seen.set(rid, result);
    // Bounded: the oldest ids go first (a Map iterates in insertion order).
    for (const old of seen.keys()) {
      if (seen.size <= REMEMBERED_RIDS) break;
      seen.delete(old);
    }
    return result;
  }

  private remembered(agent: string): Map<string, Promise<StoreAnswer>> {
    let m = this.answered.get(agent);
    if (!m) this.answered.set(agent, (m = new Map()));
    return m;
  }

  private async answer(fn: () => Promise<unknown>): Promise<StoreAnswer> {
    try {
      const value = await fn();
      return { ok: true, value: value === undefined ? null : value };
    } catch (err) {
      return { ok: false, code: err instanceof TeamError ? err.code : 'invalid', error: (err as Error).message.split('\n')[0]! };
    }
  }

  private async attach(peer: StorePeer, call: Extract<StoreOp, { op: 'attach' }>, epoch: string | null) {
    if (call.agent === LEAD) throw new TeamError('invalid', 'the lead is not a teammate: it does not attach through the host');
    // One connection is one teammate: re-bound to another, the first one's lease would be held with no one to let it go.
    const mine = this.bindings.get(peer);
    if (mine && mine.agent !== call.agent) throw new TeamError('conflict', `this connection is attached as ${mine.agent}: a connection attaches as one teammate`);
    const cfg = await this.store.config.require();
    if (!cfg.members.some((m) => m.name === call.agent)) throw new TeamError('invalid', `"${call.agent}" is not a member of team ${cfg.name}`);
    // The same run of the teammate coming back on a new connection keeps its lease; anyone else waits for it.
    let binding = [...this.bindings.entries()].find(([, x]) => x.agent === call.agent);
    if (binding && binding[1].instance !== call.instance) throw new TeamError('conflict', `teammate '${call.agent}' is already attached to this host from another process`);
    if (binding) this.bindings.delete(binding[0]);
    const lease = binding?.[1].lease ?? (await this.store.acquireLease(call.agent));
    this.bindings.set(peer, { agent: call.agent, instance: call.instance, lease, boot: binding?.[1].boot ?? call.boot_id ?? lease.boot_id });
    // A re-attach stamped with its session's epoch is refused (and its lease let go) when the team moved on.
    if (epoch !== null) await this.checkEpoch(peer, this.bindings.get(peer)!, epoch);
    this.ensureWatching();
    const boot = this.bindings.get(peer)!.boot;
    const owed = this.modelEnvOwed.get(call.agent);
    const takes = call.model_env === true && owed !== undefined && (owed === null || owed === call.instance);
    if (takes) this.modelEnvOwed.set(call.agent, call.instance);
    const env = takes ? this.modelEnv?.() : undefined;
    const modelEnv = env ? Object.fromEntries(MODEL_ENV_NAMES.flatMap((k) => (env[k] ? [[k, env[k]]] : []))) : undefined;
    return { epoch: epoch ?? (await ensureEpoch(this.store, call.agent)), team_dir: this.store.dir, boot_id: boot, mcp: this.store.memberMcp.read(call.agent), ...(modelEnv ? { model_env: modelEnv } : {}) };
  }

  /** This host launches `agent` on another machine: the first run of it to attach may take the model variables. */
  owesModelEnv(agent: string): void {
    this.modelEnvOwed.set(agent, null);
  }

  private async checkEpoch(peer: StorePeer, b: Binding, epoch: string | null): Promise<void> {
    const current = await currentEpoch(this.store);
    if (current === epoch) return;
    const why = `refused: session epoch ${epoch ?? 'none'} is stale (the team's session is now ${current ?? 'none'}: the team was replaced or resumed since ${b.agent} started); start ${b.agent} again`;
    this.store.journal.record({ event: 'rejected', file: this.store.paths.status(b.agent), reason: `${b.agent}: ${why}` });
    // Its status says why, unless a newer process of the agent wrote it since (another run's boot id).
    const st = await this.store.statuses.read(b.agent).catch(() => null);
    if (!st || st.boot_id === b.boot) await this.store.statuses.write(b.agent, { status: 'stopped', current_task: null, last_error: why } as never).catch(() => undefined);
    await this.detach(peer);
    throw new TeamError('stale_epoch', why);
  }

  private async run(b: Binding, call: StoreOp): Promise<unknown> {
    const { store } = this;
    const me = b.agent;
    switch (call.op) {
      case 'attach':
        throw new TeamError('invalid', 'attach is served before run');
      case 'detach':
        return null;
      case 'inbox_unread':
        return store.inboxes.unread(me);
      case 'inbox_mark_read':
        return store.inboxes.markRead(me, call.ids);
      case 'send':
        return store.send(me, call.to, call.text, { summary: call.summary ?? null, ...(call.extra ? { extra: call.extra } : {}) });
      case 'write_frame': {
        // Through sendFrame, as every frame is: the kind's fields are checked here too, where the request entered.
        const { epoch, ...fields } = call.extra ?? {};
        return [await sendFrame(store, me, call.to, call.type, fields as never, typeof epoch === 'string' ? epoch : null, { text: call.text, summary: call.summary ?? call.type.replace(/_/g, ' ') })];
      }
      case 'task_list':
        return store.tasks.list(call.status ? { status: call.status } : undefined);
      case 'task_get':
        return store.tasks.get(call.id);
      case 'task_claim':
        return store.tasks.claim(call.id, me);
      case 'task_claim_next':
        return store.tasks.claimNext(me);
      case 'task_release':
        return store.tasks.release(call.id, me);
      case 'task_update':
        return store.tasks.update(call.id, { ...(call.patch.reservedFor !== undefined ? { reservedFor: call.patch.reservedFor } : {}), ...(call.patch.extra ? { extra: call.patch.extra } : {}) });
      case 'task_complete': {
        const done = await store.tasks.complete(call.id, me, call.result, call.commit);
        await this.afterComplete?.(me).catch(() => undefined);
        return done;
      }
      case 'status_read':
        return store.statuses.read(call.agent);
      case 'status_write':
        return store.statuses.write(me, call.update as never, call.durable === false ? { durable: false } : {});
      case 'status_account':
        return store.statuses.account(me, call.usage, call.cost_usd);
      case 'config_load':
        return store.config.load();
      case 'budgets_read':
        return store.budgets.read();
      case 'journal':
        store.journal.record({ event: call.event, file: call.file, reason: `${me}: ${call.reason}` });
        return null;
    }
  }

  /** The connection closed or detached: the host lets go of the agent's lease (a reconnect takes it again). */
  async detach(peer: StorePeer): Promise<void> {
    const b = this.bindings.get(peer);
    if (!b) return;
    this.bindings.delete(peer);
    await b.lease.release().catch(() => undefined);
    if (!this.bindings.size) {
      this.watcher?.close();
      this.watcher = null;
    }
  }

  /** One watch of the team dir for every attached teammate: its inbox, the board, the config wake it. */
  private ensureWatching(): void {
    if (this.watcher) return;
    this.watcher = this.store.watch({ only: ['inbox', 'task', 'config'] });
    this.watcher.onChange((e) => {
      if (e.kind !== 'inbox' && e.kind !== 'task' && e.kind !== 'config') return;
      for (const [peer, b] of this.bindings) if (e.kind !== 'inbox' || e.agent === b.agent) peer.send({ type: 'store_wake', kind: e.kind });
    });
  }

  async close(): Promise<void> {
    for (const peer of this.bindings.keys()) await this.detach(peer);
  }
}

const servers = new WeakMap<TeamStore, StoreServer>();

/** The store server of a host's team store (one per TeamStore, shared by every connection). */
export function storeServerOf(store: TeamStore): StoreServer {
  let s = servers.get(store);
  if (!s) servers.set(store, (s = new StoreServer(store)));
  return s;
}
