/**
 * Nothing an agent ran outlives it into its next process: the process groups of a teammate's Bash commands
 * are recorded in its status (pgid + the leader's start time) as they start and end, and a new process of
 * the same agent (a respawn, `team resume`), holding the agent's lease, ends any group left over before it
 * works in the same folder. A group is ended only when it is still the one recorded: its leader alive with
 * the recorded start time, or its leader gone while a member of the group carries this agent's mark in its
 * environment (group-mark.ts).
 */
import { groupAlive } from '../agent/tools/spawn.js';
import { groupCarries } from '../group-mark.js';
import { processStart } from '../store/index.js';
import type { TeammateStore } from '../store/teammate-store.js';
import type { TeamSession } from './session.js';

/** Set in the agent's environment, so every command it runs (and their children) inherits it. */
const OWNER_ENV = 'THCLAWS_COMMAND_OWNER';

/** Which agent of which team: its commands' mark. */
function ownerMark(store: Pick<TeammateStore, 'paths'>, agent: string): string {
  return `${agent}@${store.paths.root}`;
}

/** Marks every command this process runs from now on as this agent's. */
export function markCommands(session: TeamSession): void {
  process.env[OWNER_ENV] = ownerMark(session.team, session.me);
}

export interface CommandGroup {
  pgid: number;
  start: string;
}

/** Whether `g` is still the group this agent recorded (see the module's note). */
export function stillRecorded(g: CommandGroup, mark: string): boolean {
  if (g.pgid === process.pid || !groupAlive(g.pgid)) return false;
  const leader = processStart(g.pgid);
  if (leader) return g.start !== '' && leader === g.start;
  return groupCarries(g.pgid, `${OWNER_ENV}=${mark}`);
}

/** Ends (SIGKILL) the groups a previous process of this agent left running; returns how many. */
export function endLeftoverGroups(session: TeamSession): Promise<number> {
  return endRecordedGroups(session.team, session.me);
}

/**
 * Ends (SIGKILL) the recorded groups of `agent` that are still its own — also from outside it, once its process
 * was killed with nothing to catch (a Stop's SIGKILL); returns how many.
 */
export async function endRecordedGroups(store: Pick<TeammateStore, 'paths' | 'statuses'>, agent: string): Promise<number> {
  const recorded = (await store.statuses.read(agent))?.command_groups ?? [];
  let ended = 0;
  for (const g of recorded) {
    if (!stillRecorded(g, ownerMark(store, agent))) continue;
    try {
      process.kill(-g.pgid, 'SIGKILL');
      ended++;
    } catch {
      // gone meanwhile
    }
  }
  if (recorded.length) await store.statuses.write(agent, { command_groups: [] });
  return ended;
}

/**
 * Records the live groups in the status as they change. Each leader's start time is read the first time
 * its group is seen (the command has just started, so its shell still runs).
 */
export function groupRecorder(session: TeamSession, onError: (err: Error) => void): (pgids: number[]) => void {
  const starts = new Map<number, string>();
  let writing: Promise<unknown> = Promise.resolve();
  return (pgids) => {
    // A process that lost the agent's lease is no longer the agent: the record is the new holder's.
    if (session.lease?.lost) return;
    for (const pgid of pgids) if (!starts.has(pgid)) starts.set(pgid, processStart(pgid));
    for (const pgid of starts.keys()) if (!pgids.includes(pgid)) starts.delete(pgid);
    const groups = [...starts].map(([pgid, start]) => ({ pgid, start }));
    writing = writing.then(() => session.team.statuses.write(session.me, { command_groups: groups })).catch(onError);
  };
}
