import { LEAD } from '../../core/store/index.js';
import { sendFrame } from '../../core/teams/protocol.js';
import type { TeamHost } from '../host/team-host.js';

/** How long teammates get to finish their turn and stop before the host stops them. */
export const STOP_GRACE_MS = 15_000;

/**
 * "Stop the team and quit", negotiated as the lead does on exit: each live teammate gets the lead's shutdown
 * request (this session's epoch) and a grace period to finish its turn and stop by itself; resolves when every one has exited or the
 * grace is over (the host's close then stops the rest, and the lead). Returns who stopped by themselves.
 */
export async function askTeammatesToStop(host: TeamHost, graceMs = STOP_GRACE_MS): Promise<{ asked: string[]; stopped: string[] }> {
  const live = host.launcher.live().filter((t) => t.agent !== LEAD);
  const asked = live.map((t) => t.agent);
  await Promise.all(asked.map((a) => sendFrame(host.store, LEAD, a, 'shutdown_request', { reason: 'the person is stopping the team' }).catch(() => undefined)));
  const stopped: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(live.map((t) => t.exited.then(() => void stopped.push(t.agent)))),
    new Promise<void>((r) => (timer = setTimeout(r, graceMs))),
  ]);
  clearTimeout(timer);
  return { asked, stopped };
}
