import fs from 'node:fs';
import { TeamError } from './errors.js';
import { fsyncDir } from './fsio.js';
import { decodeHolder, describeHolder, encodeHolder, type Holder, holderDead, newHolder, sameMachine } from './holder.js';
import type { Journal } from './journal.js';
import { legacyLockPathFor, lockPathFor, lockedFileOf, makeLockDir, usesLegacyLayout } from './lock-layout.js';
import { TEAM_POLICY } from '../../contract/policy.js';

/**
 * Locks `<dir>/.locks/<file>.lock` (lock-layout.ts): a symlink whose target names the holder (host, pid, boot id, start time, token), so
 * one syscall creates it exclusively with its content and one reads it. (On Windows, where symlinks need a
 * privilege, an exclusively created file holding the same line.)
 *
 * Rules, so that two holders never both commit:
 * - Same host: a lock is stale only when its holder is dead (pid gone, pid reused, or rebooted). A stopped or
 *   slow holder is waited for, never broken.
 * - Another host, or no readable holder (a lock left by an older version): stale once its mtime, which the
 *   holder refreshes every lockUpdateMs, is older than lockStaleMs.
 * - Breaking a stale lock is serialised by `<file>.lock.break`; the breaker re-reads the lock under it and
 *   removes it only if it is still the very lock it judged stale, so a fresh lock is never removed.
 * - Before its final rename a holder checks that the lock still carries its token (`assertHeld`) and aborts
 *   with nothing written if not; release removes the lock only if it is still its own.
 */
export interface LockGuard {
  readonly lockPath: string;
  /** Throws TeamError `lock_lost` unless this process still holds the lock. */
  assertHeld(): void;
  /**
   * Asks for `dir` to be fsynced after the lock is released but before withLock returns: the rename is
   * durable when the caller hears of success, and other waiters do not queue behind a second disk flush.
   */
  deferDirSync?(dir: string): void;
}

export interface LockOptions {
  /** false: fail at once with code `locked` while a live holder has it. Default true. */
  wait?: boolean;
  /** Where stale takeovers are recorded (team.log). */
  journal?: Journal;
}

const WINDOWS = process.platform === 'win32';

/**
 * Runs `fn` holding the lock of `target`. `fn` should pass the guard to its final write (writeFileAtomic).
 * Where an older version's process was live (lock-layout.ts) the lock beside the file is taken as well,
 * always second, so two processes of this version never wait on each other in opposite orders.
 */
export async function withLock<T>(target: string, fn: (guard: LockGuard) => Promise<T> | T, opts: LockOptions | boolean = {}): Promise<T> {
  const o = typeof opts === 'boolean' ? { wait: opts } : opts;
  const lock = await acquire(lockPathFor(target), o.wait ?? true, o.journal);
  let legacy: HeldLock | null = null;
  let result: T;
  try {
    if (usesLegacyLayout(target)) legacy = await acquire(legacyLockPathFor(target), o.wait ?? true, o.journal);
    result = await fn(legacy ? bothHeld(lock, legacy) : lock);
  } finally {
    legacy?.release();
    lock.release();
  }
  lock.syncDeferred();
  return result;
}

/** One guard over a lock in each layout: a write commits only while both are still this process's. */
function bothHeld(lock: HeldLock, legacy: HeldLock): LockGuard {
  return {
    lockPath: lock.lockPath,
    assertHeld() {
      lock.assertHeld();
      legacy.assertHeld();
    },
    deferDirSync: (dir) => lock.deferDirSync(dir),
  };
}

/** A lock held until released; leases use it for the process lifetime. */
export class HeldLock implements LockGuard {
  private readonly raw: string;
  private lostReason: string | null = null;
  private dirsToSync: Set<string> | null = null;

  constructor(
    readonly lockPath: string,
    readonly holder: Holder,
  ) {
    this.raw = encodeHolder(holder);
  }

  /** Creates the lock entry; false when it exists. Makes a missing `.locks/` (never the file's own dir). */
  tryCreate(): boolean {
    for (let made = false; ; made = true) {
      try {
        if (WINDOWS) fs.writeFileSync(this.lockPath, this.raw, { flag: 'wx' });
        else fs.symlinkSync(this.raw, this.lockPath);
        break;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') return false;
        if (code === 'ENOENT' && !made && makeLockDir(this.lockPath)) continue;
        if (code === 'ENOENT' || code === 'ENOTDIR') throw new TeamError('not_found', `cannot lock ${lockedFileOf(this.lockPath)}: its directory does not exist`);
        throw err;
      }
    }
    refresher.add(this);
    return true;
  }

  /** Whether the lock on disk is still this one (one readlink). */
  stillHeld(): boolean {
    return this.lostReason === null && readRaw(this.lockPath) === this.raw;
  }

  assertHeld(): void {
    if (this.stillHeld()) return;
    const now = readEntry(this.lockPath);
    const who = now.kind === 'held' ? `it is now held by ${describeHolder(now.holder)}` : 'it was removed';
    throw new TeamError('lock_lost', `lost the lock ${this.lockPath} (${who}); nothing was written`);
  }

  deferDirSync(dir: string): void {
    (this.dirsToSync ??= new Set()).add(dir);
  }

  /** The fsyncs deferred by deferDirSync (after release). */
  syncDeferred(): void {
    if (!this.dirsToSync) return;
    for (const dir of this.dirsToSync) fsyncDir(dir);
    this.dirsToSync = null;
  }

  /** Refresh for waiters on other hosts; false once the lock is no longer ours. */
  refresh(): boolean {
    if (!this.stillHeld()) return false;
    try {
      fs.lutimesSync(this.lockPath, new Date(), new Date());
    } catch {
      // best effort: only holders on other hosts read the mtime
    }
    return true;
  }

  release(): void {
    refresher.delete(this);
    if (readRaw(this.lockPath) !== this.raw) return; // not ours any more: never remove another holder's lock
    try {
      fs.unlinkSync(this.lockPath);
    } catch {
      // already gone
    }
  }
}

/** One shared timer refreshes every held lock's mtime; it runs only while something is held. */
const refresher = new (class {
  private readonly held = new Set<HeldLock>();
  private readonly watchers = new Map<HeldLock, () => void>();
  private timer: NodeJS.Timeout | null = null;

  add(lock: HeldLock, onLost?: () => void): void {
    this.held.add(lock);
    if (onLost) this.watchers.set(lock, onLost);
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), TEAM_POLICY.lockUpdateMs);
      this.timer.unref();
    }
  }

  watch(lock: HeldLock, onLost: () => void): void {
    this.add(lock, onLost);
  }

  delete(lock: HeldLock): void {
    this.held.delete(lock);
    this.watchers.delete(lock);
    if (!this.held.size && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private tick(): void {
    for (const lock of this.held) {
      if (lock.refresh()) continue;
      const onLost = this.watchers.get(lock);
      this.delete(lock);
      onLost?.();
    }
  }
})();

/** Calls `onLost` once if the lock stops being this process's (checked every lockUpdateMs). */
export function watchHeld(lock: HeldLock, onLost: () => void): void {
  refresher.watch(lock, onLost);
}

type Entry = { kind: 'gone' } | { kind: 'held'; holder: Holder | null; identity: string; mtimeMs: number | null };

function readRaw(lockPath: string): string | null {
  try {
    return WINDOWS ? fs.readFileSync(lockPath, 'utf8') : fs.readlinkSync(lockPath);
  } catch {
    return null;
  }
}

function readEntry(lockPath: string): Entry {
  let raw: string | null = null;
  try {
    raw = WINDOWS ? fs.readFileSync(lockPath, 'utf8') : fs.readlinkSync(lockPath);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'gone' };
    // EINVAL/EISDIR: not our kind of lock (a directory left by proper-lockfile): identified by inode + mtime
  }
  const holder = raw === null ? null : decodeHolder(raw);
  // The mtime matters only when liveness cannot be checked here.
  if (holder && sameMachine(holder)) return { kind: 'held', holder, identity: raw!, mtimeMs: null };
  let st: fs.Stats;
  try {
    st = fs.lstatSync(lockPath);
  } catch {
    return { kind: 'gone' };
  }
  return { kind: 'held', holder, identity: raw ?? `${st.ino}:${st.mtimeMs}`, mtimeMs: st.mtimeMs };
}

/**
 * `unchangedSince`: when this waiter first saw the lock with this very identity and mtime. A lock judged by
 * its mtime is also stale once it stays unrefreshed that long as observed here, so an mtime in the future (a
 * clock that jumped back, another host's clock ahead) cannot block the file until the clock catches up.
 */
function isStale(e: Entry & { kind: 'held' }, unchangedSince?: number): boolean {
  if (e.holder && sameMachine(e.holder)) return holderDead(e.holder);
  if (e.mtimeMs === null) return false;
  const now = Date.now();
  return now - e.mtimeMs > TEAM_POLICY.lockStaleMs || (unchangedSince !== undefined && now - unchangedSince > TEAM_POLICY.lockStaleMs);
}

/** Tracks since when a waiter has seen the same (identity, mtime) of a lock judged by its mtime. */
class Observed {
  private key = '';
  private since = 0;
  sinceFor(e: Entry & { kind: 'held' }): number {
    const key = `${e.identity}\0${e.mtimeMs}`;
    if (key !== this.key) {
      this.key = key;
      this.since = Date.now();
    }
    return this.since;
  }
}

/** The live holder of a lock, or null when it is free or its holder is gone (for liveness questions). */
export function liveHolder(lockPath: string): { holder: Holder | null } | null {
  const e = readEntry(lockPath);
  if (e.kind === 'gone' || isStale(e)) return null;
  return { holder: e.holder };
}

function staleReason(e: Entry & { kind: 'held' }): string {
  if (e.holder && sameMachine(e.holder)) return `holder ${describeHolder(e.holder)} is dead`;
  const age = Math.round((Date.now() - (e.mtimeMs ?? 0)) / 100) / 10;
  const who = e.holder ? `holder ${describeHolder(e.holder)}` : 'lock with no readable holder';
  if (age < 0) return `${who} not refreshed for over ${TEAM_POLICY.lockStaleMs / 1000} s (its mtime is ${-age} s in the future)`;
  return `${who} not refreshed for ${age} s`;
}

/**
 * Removes the lock `e` judged stale, if it is still that lock. Serialised by `<lock>.break`, so two breakers
 * can never both remove (the second would remove a fresh lock). Returns false when another breaker is at it.
 */
function breakStale(lockPath: string, e: Entry & { kind: 'held' }, journal: Journal | undefined): boolean {
  const brk = new HeldLock(`${lockPath}.break`, newHolder());
  if (!brk.tryCreate()) {
    const other = readEntry(brk.lockPath);
    if (other.kind === 'held' && isStale(other)) removeIfSame(brk.lockPath, other);
    return false;
  }
  try {
    const again = readEntry(lockPath);
    if (again.kind !== 'held' || again.identity !== e.identity) return true; // released or already replaced
    removeEntry(lockPath);
    journal?.record({
      event: 'lock_recovered',
      file: lockPath,
      reason: staleReason(again),
      ...(again.holder ? { holder_pid: again.holder.pid, holder_host: again.holder.host } : {}),
    });
    return true;
  } finally {
    brk.release();
  }
}

/**
 * A breaker died inside its few-microsecond section: move its break lock to a unique name, and remove it only
 * if it is the one judged dead; otherwise put it back (link fails rather than replace a newer one).
 */
function removeIfSame(path: string, e: Entry & { kind: 'held' }): void {
  const aside = `${path}.${newHolder().token}`;
  try {
    fs.renameSync(path, aside);
  } catch {
    return;
  }
  const moved = readEntry(aside);
  if (moved.kind === 'held' && moved.identity !== e.identity) {
    try {
      fs.linkSync(aside, path);
    } catch {
      // a newer break lock exists; its holder re-checks the lock before removing anything
    }
  }
  removeEntry(aside);
}

function removeEntry(p: string): void {
  try {
    fs.unlinkSync(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EISDIR' || code === 'EPERM') fs.rmSync(p, { recursive: true, force: true });
    else if (code !== 'ENOENT') throw err;
  }
}

/** How a waiter says it is waiting on a live holder (after lockReportAfterMs). Replaceable for the UI. */
let reportWaiting = (lockPath: string, holder: Holder | null) => {
  process.stderr.write(`thclaws: waiting for ${describeHolder(holder)}, which holds ${lockPath}\n`);
};
export function setLockWaitReporter(fn: typeof reportWaiting): void {
  reportWaiting = fn;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Jittered exponential backoff (1 ms → lockMaxBackoffMs). The holder is inspected at the first refusal and
 * then every lockCheckMs, so a dead holder's lock is recovered within about lockCheckMs.
 */
async function acquire(lockPath: string, wait: boolean, journal: Journal | undefined): Promise<HeldLock> {
  const lock = new HeldLock(lockPath, newHolder());
  const started = Date.now();
  let delay = 1;
  let lastCheck = 0;
  let reported = false;
  const observed = new Observed();
  for (let attempt = 0; ; attempt++) {
    if (lock.tryCreate()) return lock;
    if (!wait && attempt >= 8) throw new TeamError('locked', `${lockedFileOf(lockPath)} is locked`);
    const now = Date.now();
    if (now - lastCheck >= TEAM_POLICY.lockCheckMs || !wait) {
      lastCheck = now;
      const e = readEntry(lockPath);
      if (e.kind === 'gone') continue;
      if (isStale(e, observed.sinceFor(e))) {
        if (breakStale(lockPath, e, journal) && attempt < 8) continue;
      } else {
        if (!wait) throw new TeamError('locked', `${lockedFileOf(lockPath)} is locked by ${describeHolder(e.holder)}`);
        if (!reported && now - started > TEAM_POLICY.lockReportAfterMs) {
          reported = true;
          reportWaiting(lockPath, e.holder);
        }
        if (now - started > TEAM_POLICY.lockWaitMs) {
          throw new TeamError('locked', `timed out after ${TEAM_POLICY.lockWaitMs / 1000} s waiting for the lock on ${lockedFileOf(lockPath)} (held by ${describeHolder(e.holder)})`);
        }
      }
    }
    if (wait && now - started > TEAM_POLICY.lockWaitMs + TEAM_POLICY.lockCheckMs) {
      throw new TeamError('locked', `timed out after ${TEAM_POLICY.lockWaitMs / 1000} s waiting for the lock on ${lockedFileOf(lockPath)}`);
    }
    await sleep(delay * (0.5 + Math.random()));
    delay = Math.min(delay * 1.5, TEAM_POLICY.lockMaxBackoffMs);
  }
}

/**
 * A lock held for the process lifetime (the agent lease): never waits. A dead holder's lock is recovered;
 * returns the live holder when there is one.
 */
export function tryHoldLock(lockPath: string, journal?: Journal): { lock: HeldLock } | { holder: Holder | null } {
  const lock = new HeldLock(lockPath, newHolder());
  for (let attempt = 0; attempt < 8; attempt++) {
    if (lock.tryCreate()) return { lock };
    const e = readEntry(lockPath);
    if (e.kind === 'gone') continue;
    if (!isStale(e)) return { holder: e.holder };
    breakStale(lockPath, e, journal);
  }
  const e = readEntry(lockPath);
  return { holder: e.kind === 'held' ? e.holder : null };
}
