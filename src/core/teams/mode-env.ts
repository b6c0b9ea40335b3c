/**
 * Set in a lead's environment by the desktop host: the teammate mode that lead must use, whatever the settings
 * or a SpawnTeammate call say. A module of its own so the CLI can read it at start-up without loading the runtime.
 */
export const TEAMMATE_MODE_ENV = 'THCLAWS_TEAMMATE_MODE';
