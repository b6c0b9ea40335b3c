import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { ensureDir, parseJson, readTextFile, writeFileAtomic } from './fsio.js';
import { describeHolder, type Holder, sameMachine } from './holder.js';
import type { Journal } from './journal.js';
import { type HeldLock, liveHolder, tryHoldLock, watchHeld } from './lock.js';
import { legacyLeaseLocks, legacyLockPathFor, lockPathFor, markLegacyLayout, usesLegacyLayout } from './lock-layout.js';
import { assertAgentName } from './names.js';
import type { TeamPaths } from './paths.js';
import { TeamError } from './errors.js';

export interface LeaseInfo {
  agent: string;
  pid: number;
  host: string;
  /** A random id of this agent run (written into the status file). */
  boot_id: string;
  acquired_at: number;
}

export interface Lease extends LeaseInfo {
  /** True once the lease is no longer this process's (its lock was removed or taken over). */
  readonly lost: boolean;
  /** `cb` runs once, when the lease is found lost (at once if it already is). */
  onLost(cb: (reason: string) => void): void;
  /** Throws TeamError `lease_lost` unless this process still holds the lease (one readlink). */
  assertHeld(): void;
  release(): Promise<void>;
}

/**
 * One process per agent name: the lease is `agents/<agent>/.locks/lease.lock`, held for the process
 * lifetime. On the same host it is taken over only once its holder is dead, so a stopped holder keeps it. The
 * holder checks it every lockUpdateMs; losing it (removed by hand, the team dir deleted, taken over from
 * another host after a long stall) is loud: journalled, printed, and reported to every onLost listener.
 * An older version's live lease (`agents/<agent>/lease.lock`) is honoured too, and where such a version runs
 * (lock-layout.ts) the lease is held in both places so that version sees this one.
 */
export async function acquireLease(paths: TeamPaths, agent: string, journal?: Journal, opts: { temporary?: boolean } = {}): Promise<Lease> {
  assertAgentName(agent);
  const target = paths.lease(agent);
  ensureDir(paths.agentDir(agent));
  const conflict = (holder: Holder | null) => new TeamError('conflict', `agent "${agent}" is already running (${describeHolder(holder)})`);
  const r = tryHoldLock(lockPathFor(target), journal);
  if (!('lock' in r)) throw conflict(r.holder);
  const lock: HeldLock = r.lock;
  const locks = [lock];
  if (usesLegacyLayout(target)) {
    const old = tryHoldLock(legacyLockPathFor(target), journal);
    if (!('lock' in old)) {
      lock.release();
      throw conflict(old.holder);
    }
    locks.push(old.lock);
  } else {
    const old = liveHolder(legacyLockPathFor(target));
    if (old) {
      lock.release();
      throw conflict(old.holder);
    }
  }
  const info: LeaseInfo = { agent, pid: process.pid, host: os.hostname(), boot_id: randomUUID(), acquired_at: Date.now() };
  // A description for people and older readers; the lock itself names the holder.
  if (!opts.temporary) writeFileAtomic(`${target}.json`, JSON.stringify(info, null, 2), false);

  let lost: string | null = null;
  let released = false;
  const listeners: Array<(reason: string) => void> = [];
  const markLost = (): string => {
    if (lost) return lost;
    lost = `lease of agent "${agent}" lost by pid ${process.pid} on ${info.host}: its lock ${lock.lockPath} was removed or taken over`;
    journal?.record({ event: 'lease_lost', file: lock.lockPath, reason: lost, holder_pid: process.pid, holder_host: info.host });
    process.stderr.write(`thclaws: ${lost}; this process no longer acts as ${agent}\n`);
    for (const cb of listeners.splice(0)) cb(lost);
    return lost;
  };
  if (!opts.temporary) for (const l of locks) watchHeld(l, () => void markLost());

  return {
    ...info,
    get lost() {
      return lost !== null;
    },
    onLost(cb) {
      if (lost) queueMicrotask(() => cb(lost!));
      else listeners.push(cb);
    },
    assertHeld() {
      if (released) throw new TeamError('lease_lost', `lease of agent "${agent}" was released`);
      if (lost || !locks.every((l) => l.stillHeld())) throw new TeamError('lease_lost', markLost());
    },
    async release() {
      if (released) return;
      released = true;
      listeners.length = 0;
      for (const l of locks.reverse()) l.release();
    },
  };
}

export function readLeaseInfo(paths: TeamPaths, agent: string): LeaseInfo | null {
  const r = readTextFile(`${paths.lease(agent)}.json`);
  if (r.kind !== 'ok') return null;
  const j = parseJson(r.text);
  return j.ok ? (j.value as LeaseInfo) : null;
}

/**
 * Whether a live process holds the agent's lease. A stopped or slow holder (stale heartbeat, laptop asleep)
 * still lives: the tasks it was acknowledged stay its own until it dies or lets go.
 */
export function leaseHeldByLive(paths: TeamPaths, agent: string): boolean {
  return liveLeaseHolder(paths, agent) !== null;
}

/** The live holder of an agent's lease in either layout (an older version holds it beside the file). */
function liveLeaseHolder(paths: TeamPaths, agent: string): { holder: Holder | null } | null {
  const target = paths.lease(agent);
  return liveHolder(lockPathFor(target)) ?? liveHolder(legacyLockPathFor(target));
}

/**
 * Marks the team dir as shared with a running older version (lock-layout.ts) when any agent's lease is held
 * live in the old place, beside the file: one readdir and one readlink per agent, once per store.
 */
export function detectLegacyLeases(paths: TeamPaths): void {
  if (legacyLeaseLocks(paths.agentsDir).some((l) => liveHolder(l) !== null)) markLegacyLayout(paths.root);
}

/**
 * The pid of the live process on this machine holding an agent's lease, else null. A stopped holder (SIGSTOP,
 * Ctrl-Z) still counts: its heartbeat goes stale but it is not dead, and it resumes as that agent.
 */
export function liveLeasePid(paths: TeamPaths, agent: string): number | null {
  const h = liveLeaseHolder(paths, agent)?.holder;
  return h && sameMachine(h) ? h.pid : null;
}

/**
 * A lock held while one process does something only one may do at a time (integrating branches into the
 * shared integration worktree): never waits; throws TeamError('conflict') naming the live holder. A dead
 * holder's lock is recovered.
 */
export function holdExclusive(paths: TeamPaths, name: string, what: string, journal?: Journal): { release(): void } {
  ensureDir(paths.root);
  const r = tryHoldLock(lockPathFor(`${paths.root}/${name}`), journal);
  if (!('lock' in r)) throw new TeamError('conflict', `${what} is already running (${describeHolder(r.holder)}): wait for it to finish`);
  return { release: () => r.lock.release() };
}
