/** Why a team operation failed; `invalid` is always the caller's input, raised before any filesystem call. */
export type TeamErrorCode = 'invalid' | 'not_found' | 'conflict' | 'busy' | 'no_team' | 'locked';

export class TeamError extends Error {
  constructor(
    readonly code: TeamErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TeamError';
  }
}
