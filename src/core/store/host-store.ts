/**
 * A teammate's store as a client of the lead's host (`THCLAWS_TEAM_VIA=host:<socket>`): every operation of
 * `TeammateStore` is a request the host carries out with its own TeamStore, under its locks; this process never
 * opens the team dir. The host holds the agent's lease while the teammate is attached; the session epoch the
 * attach answered stamps every write, and a write the host refuses as stale ends this process's acting as the
 * agent (its lease reads lost, with the host's reason).
 */
import { randomUUID } from 'node:crypto';
import type { McpServers } from '../../contract/mcp-config.js';
import type { FrameType } from '../../contract/frame-kinds.js';
import type { Message, Task, TaskStatus, TeamConfig, UsageTotals } from '../../contract/store-schemas.js';
import type { Budgets } from '../../contract/settings-schema.js';
import { TEAM_POLICY } from '../../contract/policy.js';
import { TeamError } from './errors.js';
import { HostLink, type StoreLink } from './host-link.js';
import { TeamPaths } from './paths.js';
import type { StatusUpdate } from './status.js';
import type { SendOptions } from './store.js';
import type { TaskPatch } from './tasks.js';
import type { AgentLease, TeammateStore } from './teammate-store.js';
import type { TeamEvent } from './classify.js';
import type { TeamWatcher, WatchOptions } from './watch.js';

export interface HostStoreOptions {
  agent: string;
  connect: () => Promise<StoreLink>;
  /** How long the link may be down before this process stops acting as the agent (default: the liveness bound). */
  downMs?: number;
  /** How long a request may wait for its answer on a live link (default twice downMs: HostLinkOptions.answerMs). */
  answerMs?: number;
}

export class HostStore implements TeammateStore {
  private readonly link: HostLink;
  private readonly instance = randomUUID();
  private attached: { epoch: string | null; boot_id: string; mcp: McpServers } | null = null;
  private unreadCache: Message[] = [];
  private readonly listeners = new Set<(e: TeamEvent) => void>();
  private readonly lostListeners = new Set<(reason: string) => void>();
  private lostReason: string | null = null;
  /** Where the host's team dir is: named in journal entries and messages, never opened here. */
  paths: TeamPaths = new TeamPaths('/');
  readonly agent: string;
  /** The lead's model variables (key, base URL) from the attach: a teammate on another machine uses the lead's model. */
  modelEnv: Record<string, string> = {};

  constructor(opts: HostStoreOptions) {
    this.agent = opts.agent;
    this.link = new HostLink({
      connect: opts.connect,
      downMs: opts.downMs ?? TEAM_POLICY.staleAfterMs,
      ...(opts.answerMs ? { answerMs: opts.answerMs } : {}),
      onFatal: (reason) => this.lose(reason),
      onWake: (kind) => void this.wake(kind),
      // Whatever changed while the link was down woke nobody: one wake after the inbox is read again (a woken
      // loop looks at its inbox, the board and its budget alike).
      onRebound: () => void this.wake('inbox'),
      rebind: () => (this.attached ? { op: 'attach', agent: this.agent, instance: this.instance, boot_id: this.attached.boot_id } : undefined),
    });
  }

  /** Connects and attaches as the agent: the host takes its lease (refused while another process is the agent). */
  async attach(): Promise<AgentLease> {
    const v = await this.link.request({ op: 'attach', agent: this.agent, instance: this.instance, model_env: true });
    // The lead's model variables, asked once: kept here (the caller hands them to its provider), never written.
    this.modelEnv = v.model_env ?? {};
    delete v.model_env;
    this.attached = v;
    this.link.epoch = v.epoch;
    this.paths = new TeamPaths(v.team_dir);
    await this.refreshUnread();
    return this.lease(v.boot_id);
  }

  /** The session epoch the attach answered (this teammate's writes carry it). */
  get epoch(): string | null {
    return this.attached?.epoch ?? null;
  }

  private lease(bootId: string): AgentLease {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const store = this;
    return {
      agent: this.agent,
      boot_id: bootId,
      get lost() {
        return store.lostReason !== null;
      },
      onLost(cb) {
        if (store.lostReason !== null) cb(store.lostReason);
        else store.lostListeners.add(cb);
      },
      release: async () => {
        await this.link.request({ op: 'detach' }).catch(() => undefined);
        this.link.close();
      },
    };
  }

  private lose(reason: string): void {
    if (this.lostReason !== null) return;
    this.lostReason = reason;
    for (const cb of this.lostListeners) cb(reason);
    this.lostListeners.clear();
  }

  private async refreshUnread(): Promise<void> {
    this.unreadCache = await this.link.request({ op: 'inbox_unread' });
  }

  /** The host said something changed: read again what the loop reads synchronously, then tell the watchers. */
  private async wake(kind: 'inbox' | 'task' | 'config'): Promise<void> {
    if (kind === 'inbox') await this.refreshUnread().catch(() => undefined);
    const e: TeamEvent = kind === 'inbox' ? { kind, key: `inbox:${this.agent}`, agent: this.agent } : kind === 'task' ? { kind, key: 'task:*', id: '*' } : { kind, key: 'config' };
    for (const l of this.listeners) l(e);
  }

  private mine(agent: string, what: string): void {
    if (agent !== this.agent) throw new TeamError('invalid', `${what} as "${agent}": this process is ${this.agent} (its store reaches the team through the lead's host)`);
  }

  readonly journal = {
    record: (entry: { event: string; file: string; reason: string }): void => {
      const event = entry.event === 'rejected' ? 'rejected' : 'note';
      void this.link.request({ op: 'journal', event, file: entry.file, reason: entry.reason }).catch(() => undefined);
    },
  };

  readonly config = {
    load: (): Promise<TeamConfig | null> => this.link.request({ op: 'config_load' }),
    require: async (): Promise<TeamConfig> => {
      const c = await this.link.request({ op: 'config_load' });
      if (!c) throw new TeamError('no_team', "no team: the lead's host has no team config");
      return c;
    },
  };

  readonly inboxes = {
    /** The unread messages as last read from the host (read again on each wake and after each mark). */
    unread: (agent: string): Message[] => {
      this.mine(agent, 'reading an inbox');
      return this.unreadCache.filter((m) => !m.read);
    },
    markRead: async (agent: string, ids: Iterable<string>): Promise<number> => {
      this.mine(agent, 'marking messages read');
      const list = [...ids];
      const drop = new Set(list);
      this.unreadCache = this.unreadCache.filter((m) => !drop.has(m.id));
      return this.link.request({ op: 'inbox_mark_read', ids: list });
    },
  };

  readonly tasks = {
    list: (filter?: { status?: TaskStatus }): Promise<Task[]> => this.link.request({ op: 'task_list', ...(filter?.status ? { status: filter.status } : {}) }),
    get: (id: string): Promise<Task> => this.link.request({ op: 'task_get', id }),
    claim: (id: string, agent: string): Promise<Task> => {
      this.mine(agent, 'claiming a task');
      return this.link.request({ op: 'task_claim', id });
    },
    claimNext: (agent: string): Promise<Task | null> => {
      this.mine(agent, 'claiming a task');
      return this.link.request({ op: 'task_claim_next' });
    },
    release: (id: string, owner?: string): Promise<Task | null> => {
      if (owner !== undefined) this.mine(owner, 'releasing a task');
      return this.link.request({ op: 'task_release', id });
    },
    update: (id: string, patch: TaskPatch): Promise<Task> => {
      const { reservedFor, extra, ...rest } = patch;
      if (Object.keys(rest).length) throw new TeamError('invalid', `a teammate changes only a task's reservation and extra fields, not ${Object.keys(rest).join(', ')}`);
      return this.link.request({ op: 'task_update', id, patch: { ...(reservedFor !== undefined ? { reservedFor } : {}), ...(extra ? { extra } : {}) } });
    },
    complete: (id: string, agent: string, result?: string, commit?: string): Promise<Task> => {
      this.mine(agent, 'completing a task');
      return this.link.request({ op: 'task_complete', id, ...(result !== undefined ? { result } : {}), ...(commit !== undefined ? { commit } : {}) });
    },
  };

  readonly statuses = {
    read: (agent: string) => this.link.request({ op: 'status_read', agent }),
    write: (agent: string, update: StatusUpdate, opts: { durable?: boolean } = {}) => {
      this.mine(agent, 'writing a status');
      return this.link.request({ op: 'status_write', update: update as Record<string, unknown>, ...(opts.durable === false ? { durable: false } : {}) });
    },
    account: (agent: string, usage: UsageTotals, costUsd: number | null) => {
      this.mine(agent, 'accounting usage');
      return this.link.request({ op: 'status_account', usage, cost_usd: costUsd });
    },
  };

  readonly budgets = {
    file: 'budgets.json',
    read: (): Promise<Budgets> => this.link.request({ op: 'budgets_read' }),
    // The host restores a corrupt budgets file and journals it there.
    notice: (): string | null => null,
  };

  readonly memberMcp = {
    read: (agent: string): McpServers => {
      this.mine(agent, 'reading MCP servers');
      return this.attached?.mcp ?? {};
    },
  };

  send(from: string, to: string, text: string, opts: SendOptions = {}): Promise<Message[]> {
    this.mine(from, 'sending');
    return this.link.request({ op: 'send', to, text, summary: opts.summary ?? null, ...(opts.extra ? { extra: opts.extra } : {}) });
  }

  writeFrame(from: string, to: string, text: string, type: FrameType, opts: SendOptions = {}): Promise<Message[]> {
    this.mine(from, 'sending');
    return this.link.request({ op: 'write_frame', to, text, type, summary: opts.summary ?? null, ...(opts.extra ? { extra: opts.extra } : {}) });
  }

  /** The host's wakes (pushed as the team dir changes), with a slow poll under them as the net. */
  watch(opts: WatchOptions = {}): TeamWatcher {
    const poll = opts.safetyPollMs ? setInterval(() => void this.wake('inbox'), opts.safetyPollMs) : null;
    poll?.unref();
    const mine = new Set<(e: TeamEvent) => void>();
    return {
      onChange: (l) => {
        mine.add(l);
        this.listeners.add(l);
        return () => {
          mine.delete(l);
          this.listeners.delete(l);
        };
      },
      close: () => {
        if (poll) clearInterval(poll);
        for (const l of mine) this.listeners.delete(l);
      },
    };
  }
}
