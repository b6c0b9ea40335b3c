import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { TeamError } from './errors.js';
import { TEAM_POLICY } from './policy.js';

const options = {
  realpath: false, // the target may not exist yet, and skipping realpath halves the lock cost
  stale: TEAM_POLICY.lockStaleMs,
  update: TEAM_POLICY.lockUpdateMs,
  retries: TEAM_POLICY.lockRetries,
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
    release = await lockfile.lock(target, wait ? options : { ...options, retries: 0 });
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
 * A lock held for a process's lifetime (the agent lease, D-2): no retries, so a second process learns at once.
 * Returns the release function, or null when a live holder has it.
 */
export async function tryHoldLock(target: string): Promise<(() => Promise<void>) | null> {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  try {
    return await lockfile.lock(target, { ...options, retries: 0 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') return null;
    throw err;
  }
}

