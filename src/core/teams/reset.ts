import { deriveState, isLive, TeamError } from '../store/index.js';
import type { TeamSession } from './session.js';

/**
 * Replacing a team: refused while any member is live; the old team's state is moved aside by the store
 * (never deleted), so the new team starts with empty inboxes, tasks and statuses.
 */
export async function resetTeam(session: TeamSession): Promise<void> {
  const cfg = await session.store.config.require();
  const live: string[] = [];
  for (const m of cfg.members) if (isLive(deriveState(await session.store.statuses.read(m.name)))) live.push(m.name);
  if (live.length) throw new TeamError('conflict', `cannot replace the team while ${live.join(', ')} ${live.length > 1 ? 'are' : 'is'} running: shut them down first`);
  session.store.archiveTeam();
}
