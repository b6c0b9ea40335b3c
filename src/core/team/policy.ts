/** Store policy constants in one place, each with the reason for its value. */
export const TEAM_POLICY = {
  /**
   * A lock whose holder died (SIGKILL) is taken over once its mtime is this old. proper-lockfile's floor is
   * 2 s; 4 s leaves room for a holder whose event loop stalls on a busy 2-core machine (it refreshes every
   * `lockUpdateMs`). Documented bound for recovery: lockStaleMs + one retry interval (≤ 50 ms).
   */
  lockStaleMs: 4000,
  lockUpdateMs: 1000,
  /** A waiter gives up after this long: well past lockStaleMs, so a dead holder is always outlasted. */
  lockWaitMs: 15_000,
  /** Short backoff keeps lock hand-over quick under contention (8 processes on one inbox). */
  lockMaxBackoffMs: 10,
  /** claimNext trusts its task cache (plus cheap probes) between full directory scans this far apart. */
  taskHintRescanMs: 1000,
  /** Read messages kept in the live inbox; older read ones go to `<agent>.archive.jsonl` (D-25). */
  inboxKeepRead: 50,
  /** A message body larger than this is refused at send and rejected at read (a 1 MB inbox broke Claude Code). */
  maxMessageChars: 100_000,
  maxSubjectChars: 500,
  maxDescriptionChars: 50_000,
  /** Teammates heartbeat every 2 s from a timer independent of the turn (D-1); dead ≫ that period. */
  heartbeatMs: 2000,
  staleAfterMs: 15_000,
  /** The change feed's safety net if a file event is ever missed; level-triggered so a slow poll is enough. */
  safetyPollMs: 5000,
} as const;
