/**
 * The part of the team store a teammate process uses (docs/remote.md, "A teammate's store through the host").
 * `TeamStore` is one implementation (the files, for a teammate on the lead's machine); `HostStore` is the other
 * (each operation a request to the lead's host, for a teammate that must not open the team dir).
 */
import type { Message } from '../../contract/store-schemas.js';
import type { FrameType } from '../../contract/frame-kinds.js';
import type { TeamBudgets } from './budgets.js';
import type { TeamConfigFile } from './config.js';
import type { Inboxes } from './inbox.js';
import type { Journal } from './journal.js';
import type { Lease } from './lease.js';
import type { MemberMcp } from './member-mcp.js';
import type { TeamPaths } from './paths.js';
import type { Statuses } from './status.js';
import type { Tasks } from './tasks.js';
import type { SendOptions } from './store.js';
import type { TeamWatcher, WatchOptions } from './watch.js';

/** What a teammate's lease must offer its heartbeat and session (the local file lease, or the host's hold of it). */
export type AgentLease = Pick<Lease, 'agent' | 'boot_id' | 'lost' | 'onLost' | 'release'>;

export interface TeammateStore {
  /** Paths are named (in journal entries, in messages to the model), never opened through this interface. */
  readonly paths: Pick<TeamPaths, 'root' | 'config' | 'log' | 'inbox' | 'status'>;
  readonly journal: Pick<Journal, 'record'>;
  readonly config: Pick<TeamConfigFile, 'load' | 'require'>;
  readonly inboxes: Pick<Inboxes, 'unread' | 'markRead'>;
  readonly tasks: Pick<Tasks, 'list' | 'get' | 'claim' | 'claimNext' | 'release' | 'update' | 'complete'>;
  readonly statuses: Pick<Statuses, 'read' | 'write' | 'account'>;
  readonly budgets: Pick<TeamBudgets, 'read' | 'notice' | 'file'>;
  readonly memberMcp: Pick<MemberMcp, 'read'>;
  send(from: string, to: string, text: string, opts?: SendOptions): Promise<Message[]>;
  writeFrame(from: string, to: string, text: string, type: FrameType, opts?: SendOptions): Promise<Message[]>;
  watch(opts?: WatchOptions): TeamWatcher;
}
