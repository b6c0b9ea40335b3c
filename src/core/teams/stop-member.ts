/**
 * A person's Stop of one agent, whoever started it (the host, or a lead in background or tmux mode): the
 * shutdown request the lead sends (this session's epoch), then — once it exits, refuses, or the grace is
 * over — its process ended by pid and start time (a recycled pid is never signalled), its status `stopped`
 * and its in-progress tasks back to the queue.
 */
import { liveLeasePid, pidAlive, pidIsSame, processStart, type TeamStore } from '../store/index.js';
import { endRecordedGroups } from './command-groups.js';
import { killGroup } from './launchers/env.js';
import { sendFrame } from './protocol.js';
import { ownPid } from './shutdown.js';
import { endBootstrap } from './bootstrap.js';

export interface StopMemberOptions {
  /** Who asks (`user` from the dashboard): the refusal, if any, comes back to its inbox. */
  from: string;
  graceMs: number;
  reason?: string;
}

export type StopOutcome = 'exited' | 'killed' | 'not running';

/** How long a process gets after SIGTERM before SIGKILL. */
const TERM_GRACE_MS = 1500;

export async function stopMember(store: TeamStore, name: string, opts: StopMemberOptions): Promise<StopOutcome> {
  // A process stopped by SIGSTOP has a stale heartbeat but still holds its lease: the lease names it.
  const pid = ownPid(await store.statuses.read(name)) ?? liveLeasePid(store.paths, name);
  if (!pid) return (await endBootstrap(store, name, opts.graceMs)) ? 'killed' : 'not running';
  const start = processStart(pid);
  const same = () => pidIsSame(pid, start);
  const asked = Date.now();
  await sendFrame(store, opts.from, name, 'shutdown_request', { reason: opts.reason ?? null });
  const refused = () => store.inboxes.list(opts.from).some((m) => m.type === 'shutdown_rejected' && m.from === name && m.timestamp >= asked);
  const end = asked + opts.graceMs;
  while (same() && !refused() && Date.now() < end) await pause(50);
  let outcome: StopOutcome = 'exited';
  if (same()) {
    outcome = 'killed';
    killGroup(pid, 'SIGTERM');
    // A stopped process handles SIGTERM only once continued.
    killGroup(pid, 'SIGCONT');
    const termEnd = Date.now() + TERM_GRACE_MS;
    while (same() && Date.now() < termEnd) await pause(50);
    if (same()) killGroup(pid, 'SIGKILL');
    const killEnd = Date.now() + TERM_GRACE_MS;
    while (pidAlive(pid) && same() && Date.now() < killEnd) await pause(50);
    // It could not end its Bash commands itself (they run in groups of their own): they end here.
    await endRecordedGroups(store, name);
  }
  await store.statuses.write(name, { status: 'stopped', current_task: null });
  await store.reapDeadOwners();
  return outcome;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A process this host runs in its pty, as its launcher hands it out. */
export interface PtyRun {
  kill(signal: NodeJS.Signals): void;
  exited: Promise<unknown>;
}

/**
 * A person's Stop of an agent this host runs in its pty: SIGTERM to its group (and SIGCONT: a stopped process
 * handles it only once continued); after the grace, SIGKILL, and the Bash command groups its status records end
 * here, as it could not end them itself. Before, a Stop of a stopped (SIGSTOP) agent waited for ever.
 */
export async function stopPtyAgent(store: TeamStore, name: string, run: PtyRun, graceMs: number): Promise<StopOutcome> {
  run.kill('SIGTERM');
  run.kill('SIGCONT');
  const ended = await Promise.race([run.exited.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), graceMs).unref())]);
  if (ended) return 'exited';
  run.kill('SIGKILL');
  await run.exited;
  await endRecordedGroups(store, name);
  return 'killed';
}
