/**
 * Why a team operation failed; `invalid` is always the caller's input, raised before any filesystem call.
 * `lock_lost`: this process's lock was taken over before it committed (nothing was written).
 * `lease_lost`: this process no longer holds the agent's lease and must stop acting as that agent.
 * `stale_epoch`: a write stamped with an earlier session epoch (the team was replaced or resumed since).
 */
export type TeamErrorCode = 'invalid' | 'not_found' | 'conflict' | 'busy' | 'no_team' | 'locked' | 'lock_lost' | 'lease_lost' | 'stale_epoch';

export class TeamError extends Error {
  constructor(
    readonly code: TeamErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TeamError';
  }
}
