import os from 'node:os';
import { ensureDir, parseJson, readTextFile, writeFileAtomic } from './fsio.js';
import type { Journal } from './journal.js';
import { holderDead, pidAlive, pidIsSame, sameMachine } from './holder.js';
import { withLock } from './lock.js';
import { assertAgentName } from './names.js';
import type { TeamPaths } from './paths.js';
import { TEAM_POLICY } from '../../contract/policy.js';
import type { AgentState } from '../../contract/agent-states.js';
import { type AgentStatus, StatusSchema, type UsageTotals, UsageTotalsSchema, describeIssues } from '../../contract/store-schemas.js';

/** What a person sees: the written status, or `dead` / `defined` derived from liveness (a stale heartbeat or a gone pid is `dead`, never shown as live). */
export type { AgentState };

type UsageField = 'input_tokens' | 'output_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens';

export type StatusUpdate = Partial<Omit<AgentStatus, 'agent' | 'last_heartbeat'>>;

/** Told of each accounted call (its tokens, its cost) before the totals change: the spend history. */
export type OnAccount = (agent: string, tokens: number, costUsd: number | null) => Promise<void>;

export class Statuses {
  constructor(
    private readonly paths: TeamPaths,
    private readonly journal: Journal,
    private readonly onAccount?: OnAccount,
  ) {}

  /** null when absent; a corrupt status file is quarantined under its lock. */
  async read(agent: string): Promise<AgentStatus | null> {
    const file = this.paths.status(agent);
    const r = this.parse(file);
    if (r.kind === 'ok') return r.status;
    if (r.kind === 'corrupt') {
      await this.journal.quarantineIfStillBad(file, () => {
        const again = this.parse(file);
        return again.kind === 'corrupt' ? again.reason : null;
      });
    }
    return null;
  }

  /**
   * Merges `update` into the current status and stamps the heartbeat. `durable: false` skips the fsyncs: a
   * periodic beat that changes nothing but the timestamp need not survive a power cut (the next one follows).
   */
  async write(agent: string, update: StatusUpdate, opts: { durable?: boolean } = {}): Promise<AgentStatus> {
    return this.modify(agent, (base) => StatusSchema.parse({ ...base, ...update, agent, last_heartbeat: Date.now() }), opts.durable ?? true);
  }

  /**
   * Writes `update` only while the status still belongs to `spawnId` (or there is none), deciding under the
   * status lock: a failed spawn's clean-up never marks stopped the live teammate of a concurrent spawn that
   * booted in between. Returns whether it wrote.
   */
  async writeIfSpawn(agent: string, spawnId: string, update: StatusUpdate): Promise<boolean> {
    assertAgentName(agent);
    const file = this.paths.status(agent);
    ensureDir(this.paths.agentDir(agent));
    return withLock(file, (guard) => {
      const r = this.parse(file);
      if (r.kind === 'ok' && (r.status as { spawn_id?: unknown }).spawn_id !== spawnId) return false;
      if (r.kind === 'corrupt') this.journal.quarantine(file, r.reason);
      const base = r.kind === 'ok' ? r.status : { agent, status: 'spawning' as const, host: os.hostname() };
      writeFileAtomic(file, JSON.stringify(StatusSchema.parse({ ...base, ...update, agent, last_heartbeat: Date.now() }), null, 2), { guard });
      return true;
    }, { journal: this.journal });
  }

  /** Read-modify-write under the status lock; a corrupt file is quarantined and `next` starts from spawning. */
  private modify(agent: string, next: (base: Partial<AgentStatus> & Pick<AgentStatus, 'agent' | 'status'>) => AgentStatus, durable = true): Promise<AgentStatus> {
    assertAgentName(agent);
    const file = this.paths.status(agent);
    ensureDir(this.paths.agentDir(agent));
    return withLock(file, (guard) => {
      const r = this.parse(file);
      if (r.kind === 'corrupt') this.journal.quarantine(file, r.reason);
      const status = next(r.kind === 'ok' ? r.status : { agent, status: 'spawning', host: os.hostname() });
      writeFileAtomic(file, JSON.stringify(status, null, 2), { guard, durable });
      return status;
    }, { journal: this.journal });
  }

  /**
   * Adds one model call's tokens and cost to the agent's totals, under the status lock so concurrent writers
   * (heartbeat, a respawned process) never lose a call. `costUsd` null: the model has no known price, and the
   * total becomes unknown rather than too low.
   */
  async account(agent: string, usage: UsageTotals, costUsd: number | null): Promise<AgentStatus> {
    UsageTotalsSchema.parse(usage);
    if (costUsd !== null && !(Number.isFinite(costUsd) && costUsd >= 0)) throw new Error(`invalid cost: ${costUsd}`);
    // The call's history point first: whoever wakes on the status change finds it there.
    const tokens = usage.input_tokens + usage.output_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
    await this.onAccount?.(agent, tokens, costUsd).catch((err: unknown) => {
      // The chart loses a point; the totals (what budgets weigh) are still written.
      this.journal.record({ event: 'note', file: this.paths.spend(agent), reason: `spend history not written: ${(err as Error).message}` });
    });
    return this.modify(agent, (read) => {
      const base = read.last_heartbeat === undefined ? { ...read, last_heartbeat: Date.now() } : read;
      const prev = (base as AgentStatus).usage;
      const sum = (k: UsageField) => (prev?.[k] ?? 0) + usage[k];
      const totals = { input_tokens: sum('input_tokens'), output_tokens: sum('output_tokens'), cache_creation_input_tokens: sum('cache_creation_input_tokens'), cache_read_input_tokens: sum('cache_read_input_tokens') };
      // `usage: null` is a malformed total read as unknown: the cost stays unknown rather than restart too low.
      const before = prev ? (base as AgentStatus).cost_usd : (base as AgentStatus).usage === null ? null : 0;
      const cost = before === null || before === undefined || costUsd === null ? null : Math.round((before + costUsd) * 1e6) / 1e6;
      // Strict here (reading is lenient): a call with a bad count or a total past 2^53 is refused, never
      // turned into a wiped total.
      UsageTotalsSchema.parse(totals);
      if (cost !== null && !(Number.isFinite(cost) && cost >= 0)) throw new Error(`invalid cost: ${cost}`);
      // Accounting is not a sign of life: the heartbeat stays as it was.
      return StatusSchema.parse({ ...base, usage: totals, cost_usd: cost });
    });
  }

  heartbeat(agent: string): Promise<AgentStatus> {
    return this.write(agent, {});
  }

  private parse(file: string): { kind: 'ok'; status: AgentStatus } | { kind: 'missing' } | { kind: 'corrupt'; reason: string } {
    const r = readTextFile(file);
    if (r.kind === 'missing') return r;
    if (r.kind === 'unreadable') return { kind: 'corrupt', reason: r.reason };
    const json = parseJson(r.text);
    if (!json.ok) return { kind: 'corrupt', reason: json.reason };
    const res = StatusSchema.safeParse(json.value);
    if (!res.success) return { kind: 'corrupt', reason: describeIssues(res.error) };
    return { kind: 'ok', status: res.data };
  }
}

/**
 * Liveness on this host is the very process that wrote the status (its pid alive with the same start time),
 * whatever its heartbeat's age: after a laptop sleep or a clock jump every heartbeat is old, and no agent is
 * dead for that alone. Elsewhere (another machine, or no start time to check) a fresh heartbeat is the sign.
 * A spawn with no pid yet lives while its spawner does. `stopped` stays stopped; silence is `dead`.
 */
export function deriveState(status: AgentStatus | null, now = Date.now(), staleAfterMs: number = TEAM_POLICY.staleAfterMs): AgentState {
  if (!status) return 'defined';
  if (status.status === 'stopped') return 'stopped';
  const local = !!status.pid && status.host === os.hostname() && !!status.pid_start;
  if (local && !pidIsSame(status.pid!, status.pid_start)) return 'dead';
  if (!local && now - status.last_heartbeat > staleAfterMs) return 'dead';
  if (status.pid && status.host === os.hostname() && !pidIsSame(status.pid, status.pid_start)) return 'dead';
  if (status.status === 'spawning' && !status.pid && spawnerDead(status)) return 'dead';
  return status.status;
}

/** The spawner named in a `spawning` status is certainly dead (checked on its own machine only). */
export function spawnerDead(status: AgentStatus): boolean {
  const s = status.spawner;
  if (!s) return false;
  const h = { ...s, token: '', ns: s.ns ?? '' };
  return sameMachine(h) && holderDead(h);
}

export function isLive(state: AgentState): boolean {
  return state === 'idle' || state === 'working' || state === 'spawning' || state === 'error';
}

// One liveness probe for locks and statuses.
export { pidAlive };
