import { MemberMcp } from './member-mcp.js';
import { TeamConfigFile, knownNames } from './config.js';
import { ensureDir } from './fsio.js';
import { Inboxes, type NewMessage } from './inbox.js';
import { Journal } from './journal.js';
import { acquireLease, detectLegacyLeases, type Lease, leaseHeldByLive } from './lease.js';
import { assertAgentName, assertRecipient, BROADCAST, LEAD, USER } from './names.js';
import { TeamPaths, resolveTeamDir } from './paths.js';
import type { AgentStatus, Message, Task, TaskStatus, UsageTotals } from '../../contract/store-schemas.js';
import { type AgentState, deriveState, isLive, Statuses } from './status.js';
import { archiveMember, archiveTeam, removedMemberNames } from './archive.js';
import { OutputLogs } from './output.js';
import { SpawnRequests } from './spawn-requests.js';
import { TeamBudgets } from './budgets.js';
import { SpendHistory } from './spend.js';
import { Reviews } from './reviews.js';
import { TaskFiles } from './task-files.js';
import { Tasks } from './tasks.js';
import { watchTeam, type TeamWatcher, type WatchOptions } from './watch.js';
import { TeamError } from './errors.js';
import { isFrameType, type FrameType } from '../../contract/frame-kinds.js';
import { withNotDone } from './not-done.js';
import type { TeammateStore } from './teammate-store.js';

export interface MemberView {
  name: string;
  role: string;
  state: AgentState;
  current_task: string | null;
  heartbeat_age_ms: number | null;
  pid: number | null;
  /** Unread messages waiting for the member (queued while it works). */
  queued: number;
  /** Model the member runs (from its status, else its config). */
  model: string | null;
  /** Request id of the approval a live member waits for ("waiting for approval"), else null. */
  waiting_for: string | null;
  /** Which budget it waits on, while it does. */
  budget_reached: string | null;
  /** State `error`: why its model calls fail, in one line (the key refused, the endpoint unreachable). */
  error: string | null;
  /** A live member retrying a model call: which retry and why. */
  retry: string | null;
  /** Token totals of its model calls (null before the first), their sum, and their estimated USD (null: unknown price). */
  usage: UsageTotals | null;
  tokens: number | null;
  cost_usd: number | null;
  /** Its block of ports (`PORT` = base), once it was spawned (the lead's once it spawned a teammate). */
  ports: { base: number; count: number } | null;
}

export interface TeamStatusView {
  team: string;
  dir: string;
  members: MemberView[];
  tasks: Record<TaskStatus, number>;
}

/** A plain message's options: no `type` — a typed message (a frame) is written by protocol.ts's `sendFrame` only. */
export interface SendOptions {
  summary?: string | null;
  extra?: Record<string, unknown>;
}

/** The one owner of `.thclaws/state/team/`: every other module reads and writes team state through it. */
export class TeamStore implements TeammateStore {
  readonly paths: TeamPaths;
  readonly journal: Journal;
  readonly config: TeamConfigFile;
  readonly inboxes: Inboxes;
  readonly tasks: Tasks;
  readonly statuses: Statuses;
  /** Spawn requests for a host (`agents/<name>/spawn.json`). */
  readonly spawnRequests: SpawnRequests;
  readonly outputs: OutputLogs;
  /** The person's review comments on each teammate's changes (`agents/<name>/review.json`). */
  readonly reviews: Reviews;
  /** Spending limits (`budgets.json`). */
  readonly budgets: TeamBudgets;
  /** Each agent's spend per model call (`agents/<name>/spend.json`), appended as calls are accounted. */
  readonly spend: SpendHistory;
  /** The lead's MCP servers handed to each teammate (`agents/<name>/mcp.json`). */
  readonly memberMcp: MemberMcp;
  /** Leases this process holds; a lost one stays here so claims with it fail loudly instead of re-leasing. */
  private readonly held = new Map<string, Lease>();

  constructor(readonly dir: string) {
    this.paths = new TeamPaths(dir);
    // A team still run by an older version (locks beside the files) is locked in both layouts.
    detectLegacyLeases(this.paths);
    this.journal = new Journal(this.paths.log, dir);
    this.config = new TeamConfigFile(this.paths, this.journal);
    this.inboxes = new Inboxes(this.paths, this.journal);
    this.spend = new SpendHistory(this.paths, this.journal);
    this.statuses = new Statuses(this.paths, this.journal, (agent, tokens, usd) => this.spend.append(agent, { at: Date.now(), tokens, usd }));
    this.spawnRequests = new SpawnRequests(this.paths, this.journal);
    this.outputs = new OutputLogs(this.paths);
    this.reviews = new Reviews(this.paths, this.journal);
    this.budgets = new TeamBudgets(dir, this.journal);
    this.memberMcp = new MemberMcp(this.paths, this.journal);
    this.tasks = new Tasks(
      this.paths,
      new TaskFiles(this.paths, this.journal),
      async () => knownNames(await this.config.require()),
      {
        held: (agent) => this.held.get(agent),
        withTemporary: async (agent, fn) => {
          let lease: Lease;
          try {
            lease = await acquireLease(this.paths, agent, this.journal, { temporary: true });
          } catch (err) {
            if (err instanceof TeamError && err.code === 'conflict') {
              throw new TeamError('conflict', `${err.message}; only that process claims as ${agent}`);
            }
            throw err;
          }
          try {
            return await fn(lease);
          } finally {
            await lease.release();
          }
        },
      },
      { journal: this.journal },
    );
  }

  /** Store of a workspace (honours THCLAWS_TEAM_DIR). */
  static forWorkspace(workspace: string, env: NodeJS.ProcessEnv = process.env): TeamStore {
    return new TeamStore(resolveTeamDir(workspace, env));
  }

  init(): void {
    for (const d of [this.paths.root, this.paths.inboxesDir, this.paths.tasksDir, this.paths.agentsDir]) ensureDir(d);
  }

  /** Sends a plain message to one participant or broadcasts (`*`: every member and the lead, except the sender). */
  async send(from: string, to: string, text: string, opts: SendOptions = {}): Promise<Message[]> {
    // A caller that smuggles a kind past the type (`as never`, plain JS) is refused here too.
    if ((opts as { type?: unknown }).type !== undefined) throw new TeamError('invalid', 'a typed message is a protocol frame: write it with sendFrame');
    return this.deliver(from, to, text, opts);
  }

  /**
   * Writes a protocol frame of a known kind. Its one caller is `sendFrame` (teams/protocol.ts), which checks the
   * kind's fields and stamps the session's epoch: call that, never this.
   */
  async writeFrame(from: string, to: string, text: string, type: FrameType, opts: SendOptions = {}): Promise<Message[]> {
    if (!isFrameType(type)) throw new TeamError('invalid', `unknown frame kind "${String(type)}": not in the protocol's schema`);
    return this.deliver(from, to, text, { ...opts, type });
  }

  private async deliver(from: string, to: string, text: string, opts: SendOptions & { type?: FrameType }): Promise<Message[]> {
    assertAgentName(from, 'sender');
    assertRecipient(to);
    if (!text.trim()) throw new TeamError('invalid', 'message text is empty');
    const known = knownNames(await this.config.require());
    let recipients: string[];
    if (to === BROADCAST) {
      recipients = known.filter((n) => n !== from && n !== USER);
    } else {
      if (!known.includes(to)) throw new TeamError('invalid', `unknown recipient "${to}"; known: ${known.join(', ')}`);
      recipients = [to];
    }
    const out: Message[] = [];
    for (const r of recipients) {
      const msg: NewMessage = { from, to: r, text, summary: opts.summary, type: opts.type, extra: opts.extra };
      out.push(await this.inboxes.append(msg));
    }
    return out;
  }

  async status(now = Date.now()): Promise<TeamStatusView> {
    const cfg = await this.config.require();
    const names = [LEAD, ...cfg.members.map((m) => m.name)];
    const members: MemberView[] = [];
    const all = await this.tasks.list();
    for (const name of names) {
      const st: AgentStatus | null = await this.statuses.read(name);
      const view: MemberView = {
        name,
        role: name === LEAD ? 'lead' : (cfg.members.find((m) => m.name === name)?.role ?? ''),
        state: deriveState(st, now),
        current_task: st?.current_task ?? null,
        heartbeat_age_ms: st ? Math.max(0, now - st.last_heartbeat) : null,
        pid: st?.pid ?? null,
        queued: this.inboxes.unread(name).length,
        model: st?.model ?? cfg.members.find((m) => m.name === name)?.model ?? null,
        waiting_for: waitingFor(st, deriveState(st, now)),
        budget_reached: isLive(deriveState(st, now)) ? (st?.budget_reached ?? null) : null,
        ...modelTrouble(st, deriveState(st, now)),
        ...usageOf(st),
        ports: (name === LEAD ? cfg.lead_ports : cfg.members.find((m) => m.name === name)?.ports) ?? null,
      };
      members.push(withNotDone(view, all, name));
    }
    const tasks: Record<TaskStatus, number> = { pending: 0, in_progress: 0, completed: 0 };
    for (const t of all) tasks[t.status]++;
    return { team: cfg.name, dir: this.dir, members, tasks };
  }

  /**
   * Releases the in-progress tasks of agents that are dead or stopped (reservations kept). An agent whose
   * lease a live process still holds keeps its tasks whatever its heartbeat says: a stalled process (SIGSTOP,
   * sleep, a long synchronous call) resumes believing it owns them, so giving them away would hand one
   * acknowledged claim to two agents.
   */
  async reapDeadOwners(now = Date.now()): Promise<Task[]> {
    const released: Task[] = [];
    for (const t of await this.tasks.list({ status: 'in_progress' })) {
      if (!t.owner || t.owner === USER) continue;
      const state = deriveState(await this.statuses.read(t.owner), now);
      if ((state === 'dead' || state === 'stopped') && !leaseHeldByLive(this.paths, t.owner)) {
        const r = await this.tasks.release(t.id, t.owner);
        if (r) released.push(r);
      }
    }
    return released;
  }

  /** The agent's process lease; while held, this store is the only one that claims tasks as the agent. */
  async acquireLease(agent: string): Promise<Lease> {
    const lease = await acquireLease(this.paths, agent, this.journal);
    this.held.set(agent, lease);
    const release = lease.release.bind(lease);
    return Object.defineProperties(lease, {
      release: {
        value: async () => {
          if (this.held.get(agent) === lease) this.held.delete(agent);
          await release();
        },
      },
    });
  }

  /** Moves the current team's state aside (replace: true); returns where it went. */
  archiveTeam(): string {
    return archiveTeam(this.paths, this.journal);
  }

  /** Moves a removed member's inbox and history aside (kept, never deleted); the caller removed it from the config. */
  archiveMember(name: string): string {
    return archiveMember(this.paths, this.journal, name);
  }

  /** Names of members removed earlier, whose history is kept: not reusable. */
  removedMemberNames(): Set<string> {
    return removedMemberNames(this.paths);
  }

  watch(opts?: WatchOptions): TeamWatcher {
    return watchTeam(this.dir, opts);
  }
}

/** A live member's pending approval request id; a dead member's leftover request is not live. */
/** A live agent's model failure (state `error`) and retry in progress; a dead one's say nothing now. */
export function modelTrouble(st: AgentStatus | null, state: AgentState): { error: string | null; retry: string | null } {
  if (!isLive(state)) return { error: null, retry: null };
  return { error: state === 'error' ? (st?.error ?? 'the model could not be called') : null, retry: st?.retry ?? null };
}

function waitingFor(st: AgentStatus | null, state: AgentState): string | null {
  return isLive(state) && st?.waiting ? st.waiting.request_id : null;
}

/** Tokens (all four kinds together) and cost as a person reads them; nulls before the first model call. */
export function usageOf(st: AgentStatus | null): { usage: UsageTotals | null; tokens: number | null; cost_usd: number | null } {
  const u = st?.usage;
  if (!u) return { usage: null, tokens: null, cost_usd: null };
  const usage = { input_tokens: u.input_tokens, output_tokens: u.output_tokens, cache_creation_input_tokens: u.cache_creation_input_tokens, cache_read_input_tokens: u.cache_read_input_tokens };
  return { usage, tokens: usage.input_tokens + usage.output_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens, cost_usd: st.cost_usd ?? null };
}
