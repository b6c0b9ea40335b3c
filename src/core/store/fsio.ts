import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { TeamError } from './errors.js';

const madeDirs = new Set<string>();

/**
 * Temp files live in `<dir>/.tmp/` (same filesystem, so rename stays atomic): keeping their create/unlink
 * out of the watched directory spares it metadata contention and the change feed spurious events.
 */
function tempPathFor(file: string): string {
  const dir = path.join(path.dirname(file), '.tmp');
  if (!madeDirs.has(dir)) {
    fs.mkdirSync(dir, { recursive: true });
    madeDirs.add(dir);
    sweepDeadTemps(dir);
  }
  return path.join(dir, `${path.basename(file)}.${process.pid}.${randomUUID().slice(0, 8)}`);
}

/** A temp file this old whose writer's pid is gone was left by a killed writer (SIGKILL between write and rename). */
const ORPHAN_TEMP_AGE_MS = 60_000;

/**
 * Removes the temp files of writers killed mid-write (once per directory per process), so crashes do not pile
 * up copies of inboxes. Only files older than a minute whose pid is dead here: a live writer's temp is never
 * touched, and a writer on another host (same pid by chance) would have to stall a minute before its rename,
 * which then fails loudly rather than losing anything.
 */
function sweepDeadTemps(dir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    const m = /\.(\d+)\.[0-9a-f]{8}$/.exec(name);
    if (!m || Number(m[1]) === process.pid || pidLives(Number(m[1]))) continue;
    const p = path.join(dir, name);
    try {
      if (now - fs.lstatSync(p).mtimeMs > ORPHAN_TEMP_AGE_MS) fs.rmSync(p, { force: true });
    } catch {
      // gone meanwhile
    }
  }
}

function pidLives(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Opens a temp file, recreating `.tmp/` if it was removed since we last made it. */
function openTemp(tmp: string, mode = 0o666): number {
  try {
    return fs.openSync(tmp, 'w', mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    fs.mkdirSync(path.dirname(tmp), { recursive: true });
    return fs.openSync(tmp, 'w', mode);
  }
}

/** The caller's lock (lock.ts LockGuard): checked before the rename, may take over the directory fsync. */
export interface Guard {
  assertHeld(): void;
  deferDirSync?(dir: string): void;
}

export interface WriteOptions {
  /** false skips both fsyncs (still atomic for readers and process crashes): for hints re-derived anyway. */
  durable?: boolean;
  /** Checked right before the rename: a holder that lost its lock aborts with nothing written. */
  guard?: Guard;
  /** File mode of the new file (0o600 for one that may hold credentials); default 0o666 less the umask. */
  mode?: number;
}

/** Writes all of `data`: writeSync may write less than asked (a full disk, a signal, a pipe-like file). */
function writeAll(fd: number, data: string): void {
  const buf = Buffer.from(data, 'utf8');
  let off = 0;
  while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
}

/** A temp file holding `data` (fsynced when durable); removed again if anything fails. */
function writeTemp(file: string, data: string, durable: boolean, mode?: number): string {
  const tmp = tempPathFor(file);
  const fd = openTemp(tmp, mode);
  try {
    writeAll(fd, data);
    if (durable) fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  return tmp;
}

/**
 * A rename, link or create is durable only once its directory is: without this fsync a reported write can
 * vanish after a power cut. Windows cannot open a directory for fsync (NTFS journals the rename itself).
 */
export function fsyncDir(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

const sleepBuf = new Int32Array(new SharedArrayBuffer(4));
/**
 * Windows refuses a rename while another process has the target open (a reader, a virus scanner): retry with
 * backoff for up to ~2 s instead of failing the write.
 */
function renameRetrying(from: string, to: string): void {
  for (let delay = 5; ; delay *= 2) {
    try {
      fs.renameSync(from, to);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const retriable = process.platform === 'win32' && (code === 'EPERM' || code === 'EACCES' || code === 'EBUSY');
      if (!retriable || delay > 1000) throw err;
      Atomics.wait(sleepBuf, 0, 0, delay);
    }
  }
}

/**
 * Write temp + fsync + rename + fsync(dir): a reader sees the old file or the new one, never a torn one, and a
 * write that returned is on disk. The guard (the caller's lock) is checked just before the rename.
 */
export function writeFileAtomic(file: string, data: string, opts: boolean | WriteOptions = true): void {
  const { durable = true, guard, mode } = typeof opts === 'boolean' ? { durable: opts } : opts;
  const tmp = writeTemp(file, data, durable, mode);
  try {
    guard?.assertHeld();
    renameRetrying(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  if (durable) syncDirOf(file, guard);
}

function syncDirOf(file: string, guard: Guard | undefined): void {
  if (guard?.deferDirSync) guard.deferDirSync(path.dirname(file));
  else fsyncDir(path.dirname(file));
}

/**
 * Like writeFileAtomic but fails (false) instead of replacing: link(2) is atomic and exclusive, so a garbled
 * id counter can never overwrite an existing task.
 */
export function createFileExclusive(file: string, data: string, guard?: Guard): boolean {
  const tmp = writeTemp(file, data, true);
  try {
    guard?.assertHeld();
    fs.linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  syncDirOf(file, guard);
  return true;
}

export type ReadResult = { kind: 'missing' } | { kind: 'ok'; text: string } | { kind: 'unreadable'; reason: string };

/** Reads a file that may be missing or may not be a file at all (a directory where a file should be). */
export function readTextFile(file: string): ReadResult {
  try {
    return { kind: 'ok', text: fs.readFileSync(file, 'utf8') };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'unreadable', reason: `${code ?? 'error'}: ${(err as Error).message}` };
  }
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, reason: `invalid JSON: ${(err as Error).message}` };
  }
}

/**
 * O_APPEND writes of one line each: concurrent appenders never interleave within a line of this size.
 * `durable`: fsynced before returning (the archive: its lines leave the inbox right after).
 */
export function appendLine(file: string, line: string, durable = false): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'a');
  try {
    writeAll(fd, line.endsWith('\n') ? line : `${line}\n`);
    if (durable) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** A file squatting on a team directory's name is a clear refusal (nothing touched), not a raw EEXIST. */
export function ensureDir(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOTDIR') throw err;
    throw new TeamError('conflict', `${dir} is not a directory (${code === 'EEXIST' ? 'a file is in its place' : 'a parent is a file'}); move it aside`);
  }
}
