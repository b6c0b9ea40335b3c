import { LIMITS } from './limits.js';

/** Store policy constants in one place, each with the reason for its value. */
export const TEAM_POLICY = {
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
  /** The change feed's safety net if a file event is ever missed; level-triggered so a slow poll is enough. */
  safetyPollMs: 5000,
} as const;
