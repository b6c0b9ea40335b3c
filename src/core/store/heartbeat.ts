import os from 'node:os';
import { ClockJump } from './clock-jump.js';
import { selfProcess } from './holder.js';
import type { AgentLease } from './teammate-store.js';
import { TEAM_POLICY } from '../../contract/policy.js';
import type { AgentStatusValue } from '../../contract/agent-states.js';
import type { StatusUpdate, Statuses } from './status.js';

export interface Heartbeat {
  /** Changes the reported state (and task) and writes it at once. */
  set(status: AgentStatusValue, currentTask?: string | null): Promise<void>;
  /** Merges extra status fields (e.g. `waiting` for an approval; null clears) and writes them at once. */
  patch(fields: Record<string, unknown>): Promise<void>;
  /** Writes `stopped` and ends the timer. */
  stop(): Promise<void>;
}

/**
 * Heartbeats from a timer independent of the agent's turn, so a long tool call or a streaming reply never
 * makes a live agent look dead. The status carries pid and boot id for same-host liveness checks.
 */
export async function startHeartbeat(statuses: Pick<Statuses, 'write'>, lease: AgentLease, intervalMs: number = TEAM_POLICY.heartbeatMs, clock: ClockJump = new ClockJump(Math.max(intervalMs * 2, 5_000))): Promise<Heartbeat> {
  // parent_pid: a launcher that wraps the agent (the tail-safe pty wrapper) knows only its own pid.
  // pid_start: whoever later signals this pid checks it is still this process. The spawn is over: no spawner.
  const base: StatusUpdate = { pid: process.pid, pid_start: selfProcess().start, parent_pid: process.ppid, host: os.hostname(), boot_id: lease.boot_id, started_at: Date.now(), spawner: null };
  let current: StatusUpdate = { ...base, status: 'idle', current_task: null };
  await statuses.write(lease.agent, current);
  let writing: Promise<unknown> = Promise.resolve();
  const beat = (durable = true) => {
    writing = writing.then(() => (lease.lost ? undefined : statuses.write(lease.agent, current, { durable }))).catch(() => {});
    return writing;
  };
  // Timer beats only move the timestamp: no fsync. State changes (set, stop) are durable. After a wall-clock
  // jump (a laptop waking up) the beat is durable and the timer re-armed from now, so the next beat is a whole
  // interval after the fresh one.
  let stopped = false;
  let timer: NodeJS.Timeout;
  const arm = () => {
    timer = setInterval(() => {
      if (clock.sample() === 0) return void beat(false);
      clearInterval(timer);
      if (stopped || lease.lost) return;
      void beat(true);
      arm();
    }, intervalMs);
    timer.unref();
  };
  arm();
  // A process that lost the agent's lease is no longer the agent: it must not overwrite the new holder's status.
  lease.onLost(() => clearInterval(timer));
  return {
    // After `stop` the final status stays: a turn that ends while the process stops never writes `idle` over it.
    async set(status, currentTask) {
      if (stopped) return;
      current = { ...current, status, ...(currentTask !== undefined ? { current_task: currentTask } : {}) };
      await beat();
    },
    async patch(fields) {
      if (stopped) return;
      current = { ...current, ...fields } as StatusUpdate;
      await beat();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      // A stopped agent waits for nothing: no request of it may look pending.
      current = { ...current, status: 'stopped', current_task: null, ...('waiting' in current ? { waiting: null } : {}) } as StatusUpdate;
      await beat();
    },
  };
}
