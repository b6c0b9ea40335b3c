import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { TeamError } from './errors.js';
import { TEAM_POLICY } from './policy.js';

/**
 * Only what proper-lockfile uses: its sync API copies the fs object it is given on every call (`{...fs}`),
 * and copying graceful-fs's ~100 properties was the largest JS cost of a claim.
 */
const lockFs = {
  mkdir: fs.mkdir,
  realpath: fs.realpath,
  stat: fs.stat,
  rmdir: fs.rmdir,
  utimes: fs.utimes,
  mkdirSync: fs.mkdirSync,
  realpathSync: fs.realpathSync,
  statSync: fs.statSync,
  rmdirSync: fs.rmdirSync,
  utimesSync: fs.utimesSync,
};

const options = {
  fs: lockFs,
  realpath: false, // the target may not exist yet, and skipping realpath halves the lock cost
  stale: TEAM_POLICY.lockStaleMs,
  update: TEAM_POLICY.lockUpdateMs,
  // proper-lockfile's own retries precompute a timeout array per call (~0.3 ms for a 15 s budget);
  // waitForLock below backs off by deadline instead.
  retries: 0,
  // A holder that lost its lock (stalled past `stale`) must not crash the process: its write is atomic
  // anyway, and the next holder re-reads the file under the lock.
  onCompromised: () => {},
};

/**
 * Runs `fn` while holding `<target>.lock` (a directory, proper-lockfile). With `wait` false a held lock fails
 * at once with code `locked` instead of queueing.
 */
export async function withLock<T>(target: string, fn: () => Promise<T> | T, wait = true): Promise<T> {
  let release: () => Promise<void>;
  try {
    release = await (wait ? waitForLock(target) : Promise.resolve(takeLock(target)));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOCKED') throw new TeamError('locked', wait ? `timed out waiting for the lock on ${target}` : `${target} is locked`);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new TeamError('not_found', `cannot lock ${target}: its directory does not exist`);
    }
    throw err;
  }
  try {
    return await fn();
  } finally {
    await release().catch(() => {});
  }
}

/**
 * One non-blocking attempt. The sync API is used on purpose: mkdir/stat/rmdir of a lock take microseconds,
 * and the async API's thread-pool round trips cost ~3x the CPU on the claim path. Waiting stays async.
 */
function takeLock(target: string): () => Promise<void> {
  const release = lockfile.lockSync(target, options);
  return async () => release();
}

/** Jittered exponential backoff (1 ms → lockMaxBackoffMs) until the deadline; outlasts a dead holder's stale period. */
async function waitForLock(target: string): Promise<() => Promise<void>> {
  const deadline = Date.now() + TEAM_POLICY.lockWaitMs;
  let delay = 1;
  for (;;) {
    try {
      return takeLock(target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED' || Date.now() > deadline) throw err;
    }
    await new Promise((r) => setTimeout(r, delay * (0.5 + Math.random())));
    delay = Math.min(delay * 1.5, TEAM_POLICY.lockMaxBackoffMs);
  }
}

/**
 * A lock held for a process's lifetime (the agent lease, D-2): no retries, so a second process learns at once.
 * Returns the release function, or null when a live holder has it.
 */
export async function tryHoldLock(target: string): Promise<(() => Promise<void>) | null> {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  try {
    return await lockfile.lock(target, options);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') return null;
    throw err;
  }
}

