/**
 * One team session per process: the team dir and project root resolved once and passed everywhere, the
 * process's identity (backed by its agent lease), its role, and the session epoch.
 */
import type { McpServers } from '../../contract/mcp-config.js';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { type Heartbeat, TeamStore, TeamError, LEAD, pidAlive, readLeaseInfo, startHeartbeat, TEAM_POLICY } from '../store/index.js';
import type { AgentLease, TeammateStore } from '../store/teammate-store.js';
import type { HostStore } from '../store/host-store.js';
import type { Usage } from '../agent/providers/types.js';
import type { PromptResult } from '../agent/agent.js';
import { ModelHealth } from './model-health.js';
import type { Role } from '../guard/types.js';
import { bumpEpoch, currentEpoch, ensureEpoch } from './protocol.js';
import { planRequestIn, type PlanRequest } from './plan-request.js';
import { InboxQueue } from './inbox-queue.js';
import type { LaunchedTeammate } from './launcher.js';
import type { TeammateMode } from '../../contract/settings-schema.js';

export type { TeammateMode } from '../../contract/settings-schema.js';

export interface TeamSessionOptions {
  projectRoot: string;
  teamDir: string;
  cwd: string;
  /** `lead`, a teammate name, or undefined for a person's session that may become the lead via TeamCreate. */
  agentName?: string;
  role: Role;
  teammateMode: TeammateMode;
  /** Why `teammateMode` is fixed for this process (the desktop host's lead): a SpawnTeammate call cannot change it. */
  teammateModeFixedBy?: string;
  /** argv prefix that runs this same thclaws (node + script). */
  selfArgv: string[];
  /** Flags every teammate inherits from the lead (provider, script). */
  childFlags: string[];
  defaultModel: string;
  maxLiveTeammates: number;
  /** Model per member role (settings `roleModels`): used when neither the spawn nor the member names one. */
  roleModels?: Readonly<Record<string, string>>;
  /** Who answers teammates' requests (settings permissionApprover / planApprover); default the person. */
  approvers?: { permission: 'lead' | 'user'; plan: 'lead' | 'user' };
  /** Team hooks from settings (TaskCreated, TaskCompleted, TeammateIdle, PreToolUse, PermissionRequest). */
  hooks?: import('./hooks.js').HooksConfig;
  /** Extra environment for every teammate (tests and benches pin HOME and the like). */
  childEnv?: Record<string, string>;
  /** MCP servers a teammate gets from this lead (written to its agent dir at each spawn). */
  childMcpServers?: () => McpServers;
  /** More variables teammates copy from the lead's environment by name (provider profiles' apiKeyEnv). */
  inheritEnv?: string[];
  /** Settings `worktree` (read at each spawn): a new worktree's setup command and reused folders, the ports' base. */
  worktree?: () => import('../../contract/settings-schema.js').WorktreeSettings;
  /** A teammate whose team state is the lead's host's (`THCLAWS_TEAM_VIA`): this process never opens the team dir. */
  viaHost?: HostStore;
  /** Hosts of the user's settings teammates may run on, and how to start one there (src/main/remote). */
  remote?: import('./remote-placement.js').RemoteTeammates;
}

export class TeamSession {
  private readonly local: TeamStore | undefined;
  /** The team state as this process's agent uses it: the files, or the lead's host (docs/remote.md). */
  readonly team: TeammateStore;
  role: Role;
  lease: AgentLease | undefined;
  epoch: string | null = null;
  /** Teammates this process launched (background/tmux/host children), by name. */
  readonly children = new Map<string, LaunchedTeammate>();
  private readonly roleListeners = new Set<(role: Role) => void>();
  private readonly lostListeners = new Set<() => void>();
  /** Set when the person's request to the lead asked for plans first: teammates it spawns start in plan mode. */
  planRequest: PlanRequest | null = null;
  private leadBeat: Promise<Heartbeat> | undefined;
  /** This agent's model calls as its status tells them: retrying, or failing (`error`) until one succeeds. */
  readonly health = new ModelHealth();
  private accounting: Promise<unknown> = Promise.resolve();

  constructor(readonly opts: TeamSessionOptions) {
    this.local = opts.viaHost ? undefined : new TeamStore(opts.teamDir);
    this.team = opts.viaHost ?? this.local!;
    this.role = opts.role;
  }

  /** The whole store (the lead's and a person's tools): absent where the team is reached through the lead's host. */
  get store(): TeamStore {
    if (!this.local) throw new TeamError('invalid', `${this.me} reaches its team through the lead's host: this needs the team dir, which only the host opens`);
    return this.local;
  }

  get projectRoot(): string {
    return this.opts.projectRoot;
  }

  /** The name this process acts as in the team. */
  get me(): string {
    return this.role === 'teammate' ? this.opts.agentName! : LEAD;
  }

  private queue: InboxQueue | undefined;

  /** This process's inbox reader (shared by the loops and CheckInbox). */
  inbox(): InboxQueue {
    this.queue ??= new InboxQueue(this.team, this.me);
    return this.queue;
  }

  /** The person's own prompt to the lead (not a teammate's message): may switch plan-first spawning on or off. */
  notePersonPrompt(text: string): void {
    const r = planRequestIn(text);
    if (r === 'off') this.planRequest = null;
    else if (r) this.planRequest = r;
  }

  teamExists(): boolean {
    // Attached through the host: the host refused the attach unless the team exists.
    if (this.opts.viaHost) return true;
    return existsSync(this.store.paths.config);
  }

  onRole(cb: (role: Role) => void): void {
    this.roleListeners.add(cb);
  }

  /** Called when the lease is lost: the process must stop acting as this agent (`why`: the host's reason, through it). */
  onLeaseLost(cb: (why?: string) => void): void {
    this.lostListeners.add(cb);
  }

  /** Takes the agent's lease for the rest of the process's life. */
  async holdLease(agent: string): Promise<AgentLease> {
    if (this.lease) return this.lease;
    if (this.opts.viaHost) {
      const lease = await this.opts.viaHost.attach();
      this.lease = lease;
      this.epoch = this.opts.viaHost.epoch;
      lease.onLost((why) => for_each(this.lostListeners, why));
      return lease;
    }
    this.store.init();
    const lease = await this.acquireWaitingForDead(agent);
    this.lease = lease;
    // A lease lost (lock removed, taken over after a stall) ends this process's acting as the agent.
    lease.onLost(() => for_each(this.lostListeners));
    return lease;
  }

  /** Gives the lease back (a TeamCreate refused after taking it); the session acts as no agent. */
  async releaseLease(): Promise<void> {
    await this.lease?.release();
    this.lease = undefined;
  }

  /**
   * A lease whose holder is dead on this host (a SIGKILLed teammate being respawned) frees itself once
   * stale; wait for that instead of refusing. A live holder is refused at once.
   */
  private async acquireWaitingForDead(agent: string): Promise<AgentLease> {
    const end = Date.now() + TEAM_POLICY.lockStaleMs + 3000;
    for (;;) {
      try {
        return await this.store.acquireLease(agent);
      } catch (err) {
        if (!(err instanceof TeamError) || err.code !== 'conflict' || Date.now() > end) throw err;
        const holder = readLeaseInfo(this.store.paths, agent);
        if (!holder || holder.host !== os.hostname() || pidAlive(holder.pid)) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  /** The session becomes the lead: lease `lead`, the lead guard, and a new epoch if a team exists. */
  async becomeLead(): Promise<void> {
    await this.holdLease(LEAD);
    if (this.teamExists() && !this.epoch) {
      this.epoch = randomUUID();
      await bumpEpoch(this.store, this.epoch);
    }
    if (this.role !== 'lead') {
      this.role = 'lead';
      for (const cb of this.roleListeners) cb('lead');
    }
    this.startLeadHeartbeat();
  }

  /** The lead heartbeats like a teammate once a team exists: its status (live, tokens, cost) is then real. */
  private startLeadHeartbeat(): void {
    if (this.leadBeat || !this.lease || this.lease.agent !== LEAD || !this.teamExists()) return;
    this.leadBeat = startHeartbeat(this.store.statuses, this.lease);
    this.leadBeat.then((beat) => this.health.attach(beat), () => (this.leadBeat = undefined));
  }

  /** The lead's status follows its turns (a teammate's loop reports its own, with the task). */
  async leadTurn(working: boolean, result?: PromptResult): Promise<void> {
    if (this.role !== 'lead' || !this.lease || this.lease.lost) return;
    this.startLeadHeartbeat();
    const beat = await this.leadBeat?.catch(() => undefined);
    await beat?.set(working ? this.health.state(true) : this.health.onTurnEnd(result)).catch(() => undefined);
    // The lead's conversation, named in its status once it is used: "Resume team" continues it after its host died.
    if (beat && this.sessionId && this.recordedSession !== this.sessionId) {
      await this.store.statuses.write(LEAD, { session_id: this.sessionId }).then(() => (this.recordedSession = this.sessionId), () => undefined);
    }
  }

  /** The saved session this agent writes (set once the runtime has opened it). */
  sessionId: string | undefined;
  private recordedSession: string | undefined;

  /**
   * Adds one model call's tokens and cost to this agent's status (a teammate, or the lead of an existing
   * team; a solo session has no status). Calls are written in order; a failed write loses only that call.
   */
  recordUsage(usage: Usage, costUsd: number | null): Promise<void> {
    if (!this.lease || this.lease.lost || (this.role === 'lead' && !this.teamExists())) return this.accounting.then(() => undefined);
    if (this.role === 'lead') this.startLeadHeartbeat();
    const agent = this.lease.agent;
    const totals = { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens, cache_creation_input_tokens: usage.cacheWriteTokens, cache_read_input_tokens: usage.cacheReadTokens };
    this.accounting = this.accounting
      .then(() => this.leadBeat?.catch(() => undefined))
      .then(() => this.team.statuses.account(agent, totals, costUsd))
      .catch(() => undefined);
    return this.accounting.then(() => undefined);
  }

  /** Resolves once every usage recorded so far is in the status file. */
  settled(): Promise<void> {
    return this.accounting.then(() => undefined);
  }

  /** A teammate at start: the lead's epoch, or one it starts when no lead ever took the team. */
  async ensureEpoch(): Promise<string | null> {
    // Through the host: the epoch its attach answered is this teammate's for its whole run.
    if (this.opts.viaHost) return this.epoch;
    this.epoch = this.teamExists() ? await ensureEpoch(this.store, this.me) : await currentEpoch(this.store);
    return this.epoch;
  }

  /** A teammate reads the epoch the lead set (fresh each time: the lead may restart). */
  async refreshEpoch(): Promise<string | null> {
    if (this.opts.viaHost) return this.epoch;
    this.epoch = await currentEpoch(this.store);
    return this.epoch;
  }

  /** Where the teammate's worktree would be. Always under the project root, never nested in a worktree. */
  worktreePath(name: string): string {
    return path.join(this.opts.projectRoot, '.worktrees', name);
  }

  async close(): Promise<void> {
    await this.accounting;
    const beat = await this.leadBeat?.catch(() => undefined);
    this.leadBeat = undefined;
    await beat?.stop().catch(() => undefined);
    await this.lease?.release();
    this.lease = undefined;
  }
}

function for_each(set: Set<(why?: string) => void>, why?: string): void {
  for (const cb of set) cb(why);
}
