/** Teams runtime constants, each with the reason for its value. */
export const TEAMS_POLICY = {
  /** Live teammates per team (the `maxLiveTeammates` default): nested or runaway spawns burn a person's limits. */
  maxLiveTeammates: 8,
  /** Boot verification: the child's status must leave `spawning` with this spawn id within this time. */
  bootTimeoutMs: 8000,
  /** Lines of output.log quoted when a child dies at boot. */
  bootTailLines: 15,
  /** Wall-clock budget of one teammate turn. */
  turnBudgetMs: 600_000,
  /** A task whose turns fail is retried this many times in total, then parked for the lead. */
  maxAttempts: 3,
  /** Backoff before retry n is retryBaseMs * 2^(n-1). */
  retryBaseMs: 1000,
  /** The change feed wakes the loops; this slow poll is only the net under a missed event. */
  safetyPollMs: 5000,
  /** Lead exit: how long teammates get to answer a shutdown_request before stragglers are killed. */
  shutdownGraceMs: 5000,
  /** The watchdog looks for really-dead teammates this often (dead = pid gone or heartbeat > staleAfterMs). */
  watchdogMs: 2000,
} as const;
