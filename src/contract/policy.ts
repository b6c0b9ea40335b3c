import { LIMITS } from './limits.js';

/** The team's runtime and store constants, in one object, each with the reason for its value. */
export const TEAM_POLICY = {
  // The store: locks, inboxes, heartbeats.
  /**
   * Locks on another host (network filesystem), and locks with no readable holder, are stale once their mtime
   * is this old; holders refresh it every `lockUpdateMs`. 4 s leaves room for a holder whose event loop stalls
   * on a busy 2-core machine. On the same host this bound is not used: only a dead holder's lock is taken.
   */
  lockStaleMs: 4000,
  lockUpdateMs: 1000,
  /** A waiter checks whether the holder still lives at its first refusal and then this often. */
  lockCheckMs: 50,
  /**
   * Documented recovery bound on the same host: a waiter takes a SIGKILLed holder's lock within this long
   * of the death (one lockCheckMs, one backoff step; the rest is scheduling slack on a loaded machine).
   */
  lockDeadHolderBoundMs: 1000,
  /** A waiter says which pid it waits for once a live holder has kept it waiting this long. */
  lockReportAfterMs: 3000,
  /** A waiter gives up after this long (a stopped holder may be stopped for good). */
  lockWaitMs: 15_000,
  /** Short backoff keeps lock hand-over quick under contention (8 processes on one inbox). */
  lockMaxBackoffMs: 10,
  /** claimNext trusts its task cache (plus cheap probes) between full directory scans this far apart. */
  taskHintRescanMs: 1000,
  /** Read messages kept in the live inbox; older read ones go to `<agent>.archive.jsonl`. */
  inboxKeepRead: 50,
  /** Size limits live in limits.ts (one module for every limit); these names stay for callers. */
  maxMessageChars: LIMITS.messageChars,
  maxSubjectChars: LIMITS.subjectChars,
  maxDescriptionChars: LIMITS.descriptionChars,
  /**
   * Teammates heartbeat from a timer independent of the turn (a long turn never looks dead); dead ≫ that period (three beats). Each
   * beat is a locked status write that every watcher of the team sees, so an idle team's cost is mostly its
   * beats: 5 s, not 2 s. On this host a dead agent is told at once by its pid (and start time), not by the
   * beat; the beat is what other hosts and people go by.
   */
  heartbeatMs: 5000,
  staleAfterMs: 15_000,
  // The runtime: teammates, turns, retries, shutdown.
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
  /** The change feed wakes the loops and watchers; this slow, level-triggered poll is only the net under a missed file event. */
  safetyPollMs: 5000,
  /** Lead exit: how long teammates get to answer a shutdown_request before stragglers are killed. */
  shutdownGraceMs: 5000,
  /** The watchdog looks for really-dead teammates this often (dead = pid gone or heartbeat > staleAfterMs). */
  watchdogMs: 2000,
} as const;
