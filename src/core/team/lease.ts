import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { parseJson, readTextFile, writeFileAtomic } from './fsio.js';
import { tryHoldLock } from './lock.js';
import { assertAgentName } from './names.js';
import type { TeamPaths } from './paths.js';
import { TeamError } from './errors.js';

export interface LeaseInfo {
  agent: string;
  pid: number;
  host: string;
  boot_id: string;
  acquired_at: number;
}

export interface Lease extends LeaseInfo {
  release(): Promise<void>;
}

/**
 * One process per agent name (D-2): the lease is a lock held for the process's lifetime and refreshed by
 * proper-lockfile's timer. If the holder is killed, the lease goes stale and can be taken after lockStaleMs.
 */
export async function acquireLease(paths: TeamPaths, agent: string): Promise<Lease> {
  assertAgentName(agent);
  const target = paths.lease(agent);
  const release = await tryHoldLock(target);
  if (!release) {
    const holder = readLeaseInfo(paths, agent);
    const who = holder ? ` (pid ${holder.pid} on ${holder.host})` : '';
    throw new TeamError('conflict', `agent "${agent}" is already running${who}`);
  }
  const info: LeaseInfo = { agent, pid: process.pid, host: os.hostname(), boot_id: randomUUID(), acquired_at: Date.now() };
  writeFileAtomic(`${target}.json`, JSON.stringify(info, null, 2));
  let released = false;
  return {
    ...info,
    release: async () => {
      if (released) return;
      released = true;
      await release().catch(() => {});
    },
  };
}

export function readLeaseInfo(paths: TeamPaths, agent: string): LeaseInfo | null {
  const r = readTextFile(`${paths.lease(agent)}.json`);
  if (r.kind !== 'ok') return null;
  const j = parseJson(r.text);
  return j.ok ? (j.value as LeaseInfo) : null;
}
