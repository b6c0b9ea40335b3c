/**
 * Lead exit: a shutdown_request (this session's epoch) to every live member, a grace period for replies,
 * then stragglers killed by their own pid / process group — never by a name pattern. A teammate with work
 * rejects and keeps running unless `force` (the person confirmed, or a headless run is over).
 */
import os from 'node:os';
import { type AgentStatus, deriveState, isLive, liveLeasePid, pidAlive, pidIsSame } from '../store/index.js';
import type { LeadHandler } from './lead-handler.js';
import { endRecordedGroups } from './command-groups.js';
import { killGroup } from './launchers/env.js';
import { sendFrame } from './protocol.js';
import { TEAM_POLICY } from '../../contract/policy.js';
import type { TeamSession } from './session.js';

export interface ShutdownResult {
  approved: string[];
  rejected: Array<{ name: string; reason: string }>;
  killed: string[];
  kept: string[];
}

export async function shutdownTeam(session: TeamSession, handler: LeadHandler, opts: { graceMs?: number; force?: boolean; print?: (l: string) => void } = {}): Promise<ShutdownResult> {
  const { store } = session;
  const grace = opts.graceMs ?? TEAM_POLICY.shutdownGraceMs;
  const cfg = await store.config.load();
  const res: ShutdownResult = { approved: [], rejected: [], killed: [], kept: [] };
  if (!cfg) return res;
  const live: string[] = [];
  // Members that look dead (stale heartbeat) while a live process still holds their lease: stopped
  // (SIGSTOP, Ctrl-Z in a pane). They cannot answer a request, and would resume headless: stragglers.
  const stopped = new Map<string, number>();
  for (const m of cfg.members) {
    const state = deriveState(await store.statuses.read(m.name));
    if (isLive(state)) live.push(m.name);
    else if (state === 'dead') {
      const pid = liveLeasePid(store.paths, m.name);
      if (pid) stopped.set(m.name, pid);
    }
  }
  if (!live.length && !stopped.size) return res;
  const waiting = new Set(live);
  const answered = new Promise<void>((resolve) => {
    const off = handler.onEvent((e) => {
      if (e.kind !== 'shutdown_reply' || !waiting.has(e.from)) return;
      waiting.delete(e.from);
      if (e.approved) res.approved.push(e.from);
      else res.rejected.push({ name: e.from, reason: e.reason ?? '' });
      if (!waiting.size) {
        off();
        resolve();
      }
    });
  });
  const offWake = handler.onWake(() => void handler.drain());
  for (const name of live) await sendFrame(store, session.me, name, 'shutdown_request', {}, session.epoch);
  if (live.length) opts.print?.(`[team] shutdown requested from ${live.join(', ')}; waiting up to ${grace / 1000} s`);
  handler.drain();
  let graceTimer: NodeJS.Timeout | undefined;
  if (live.length) await Promise.race([answered, new Promise((r) => (graceTimer = setTimeout(r, grace)))]);
  clearTimeout(graceTimer);
  offWake();
  handler.drain();

  const toKill = new Set<string>([...waiting, ...stopped.keys(), ...(opts.force ? res.rejected.map((r) => r.name) : [])]);
  for (const r of res.rejected) if (!opts.force) res.kept.push(r.name);
  // Approved teammates exit by themselves; give them a moment before counting them as stragglers.
  for (const name of res.approved) await waitGone(session, name, 2000);
  for (const name of res.approved) if (await stillRunning(session, name)) toKill.add(name);
  for (const name of toKill) {
    const st = await store.statuses.read(name);
    const leasePid = stopped.get(name);
    // Only the teammate's own process is signalled: a status pid now naming another process (the teammate
    // died and the pid was reused) is left alone. The lease holder was checked the same way by liveLeasePid.
    const pid = leasePid ?? ownPid(st);
    const stranger = leasePid === undefined && !!st?.pid && pid === null && isLocal(st);
    if (pid) {
      killGroup(pid, 'SIGTERM');
      // A stopped process handles SIGTERM only once continued.
      if (leasePid !== undefined) killGroup(pid, 'SIGCONT');
      if (!(await waitGone(session, name, 1500, leasePid))) {
        killGroup(pid, 'SIGKILL');
        // It could not end its Bash commands itself (they run in groups of their own): they end here.
        await endRecordedGroups(store, name);
      }
    } else if (!st?.pid) {
      // Never booted (no pid written): the launcher's own child, which it signals only while it runs.
      session.children.get(name)?.kill('SIGTERM');
    }
    await store.statuses.write(name, { status: 'stopped', current_task: null, ...(stranger ? { pid: null, pid_start: null } : {}) });
    res.killed.push(name);
  }
  // Their in-progress tasks go back to pending, reservations kept.
  await store.reapDeadOwners();
  return res;
}

function isLocal(st: AgentStatus): boolean {
  return (st.host ?? os.hostname()) === os.hostname();
}

/** The status's pid when it is on this host and still the very process that wrote it (same start time). */
export function ownPid(st: AgentStatus | null): number | null {
  return st?.pid && isLocal(st) && pidIsSame(st.pid, st.pid_start) ? st.pid : null;
}

async function stillRunning(session: TeamSession, name: string): Promise<boolean> {
  const st = await session.store.statuses.read(name);
  return st?.status !== 'stopped' && ownPid(st) !== null;
}

async function waitGone(session: TeamSession, name: string, ms: number, knownPid?: number): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    const pid = knownPid ?? ownPid(await session.store.statuses.read(name));
    if (!pid || !pidAlive(pid)) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}
