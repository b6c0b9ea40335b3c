/**
 * Whether a process this host started came up, and if not, why: a teammate or lead that exits before it booted
 * (no API key, a bad flag) has its cause in the last lines it printed. Said at once to whoever started it (the
 * runtime's spawn, "Resume team"), instead of a boot timeout that hides the cause in output.log.
 */
import { LEAD, type TeamStore } from '../../core/store/index.js';
import type { SpawnRequest } from '../../core/teams/launcher.js';
import type { PtyExit } from '../../core/teams/launchers/pty-process.js';
import { TEAM_POLICY } from '../../contract/policy.js';
import type { HostSideInfo } from './views.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The cause an exited process printed: its last `thclaws: …` line, else its last line; with how it exited. */
export async function exitCause(store: TeamStore, agent: string, spawnId: string | undefined, exit: PtyExit): Promise<string> {
  const how = exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.code}`;
  for (let i = 0; i < 5; i++) {
    // The pty's last bytes may reach output.log just after its exit is reported.
    const lines = store.outputs.tail(agent, 20, spawnId).split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
    const said = [...lines].reverse().find((l) => l.startsWith('thclaws:')) ?? lines.at(-1);
    if (said) return `${how} before it started: ${said}`;
    await sleep(50);
  }
  return `${how} before it started (no output)`;
}

/**
 * A teammate this host launched for a spawn request exited before it booted: the request records why, and the
 * runtime's spawn waiting on it fails with that cause at once.
 */
export async function failUnbooted(store: TeamStore, agent: string, req: SpawnRequest, exit: PtyExit): Promise<void> {
  if (agent === LEAD || !req.spawn_id) return;
  const st = await store.statuses.read(agent).catch(() => null);
  if (st && st.spawn_id === req.spawn_id && st.status !== 'spawning') return; // it booted; a later exit is no boot failure
  await store.spawnRequests.annotate(agent, req.spawn_id, { error: await exitCause(store, agent, req.spawn_id, exit) });
}

/**
 * Waits until the lead this host just started has written its status from its own process, or has exited
 * (rejected with the cause it printed). A lead slow to write is not called failed: the wait just ends.
 */
export async function awaitLeadBoot(store: TeamStore, pid: number, exited: () => PtyExit | null, spawnId: string | undefined): Promise<void> {
  const deadline = Date.now() + TEAM_POLICY.bootTimeoutMs;
  while (Date.now() < deadline) {
    const exit = exited();
    if (exit) throw new Error(await exitCause(store, LEAD, spawnId, exit));
    const st = await store.statuses.read(LEAD).catch(() => null);
    if (st && (st.pid === pid || st.parent_pid === pid)) return;
    await sleep(50);
  }
}

/**
 * The lead restarted on its conversation came up on it, else why not (no key, the cause it printed, no start):
 * "resumed" is said only after this.
 */
export async function leadCameUp(store: TeamStore, sides: Map<string, HostSideInfo>, req: SpawnRequest | undefined): Promise<void> {
  const side = sides.get(LEAD);
  if (side?.notConfigured) throw new Error("no API key: this host has none (a key the old host held in memory is gone) — set ANTHROPIC_API_KEY where the host starts, or add a key in the dashboard's Settings, then resume again");
  if (!side?.pty) throw new Error(side?.lastExit ? await exitCause(store, LEAD, req?.spawn_id, side.lastExit) : 'the lead did not start');
  await awaitLeadBoot(store, side.pty.pid, () => (sides.get(LEAD)?.pty ? null : (sides.get(LEAD)?.lastExit ?? null)), req?.spawn_id);
}
