import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

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
  }
  return path.join(dir, `${path.basename(file)}.${process.pid}.${randomUUID().slice(0, 8)}`);
}

/** Opens a temp file, recreating `.tmp/` if it was removed since we last made it. */
function openTemp(tmp: string): number {
  try {
    return fs.openSync(tmp, 'w');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    fs.mkdirSync(path.dirname(tmp), { recursive: true });
    return fs.openSync(tmp, 'w');
  }
}

/**
 * Write temp + fsync + rename: a reader sees the old file or the new one, never a torn one. `durable: false`
 * skips the fsync (still atomic for readers and process crashes) for hints that are re-derived anyway.
 */
export function writeFileAtomic(file: string, data: string, durable = true): void {
  const tmp = tempPathFor(file);
  const fd = openTemp(tmp);
  try {
    fs.writeSync(fd, data);
    if (durable) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Like writeFileAtomic but fails with EEXIST instead of replacing: link(2) is atomic and exclusive,
 * so a garbled id counter can never overwrite an existing task (D-8).
 */
export function createFileExclusive(file: string, data: string): boolean {
  const tmp = tempPathFor(file);
  const fd = openTemp(tmp);
  try {
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
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

/** O_APPEND writes of one line each: concurrent appenders never interleave within a line of this size. */
export function appendLine(file: string, line: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.appendFileSync(file, line.endsWith('\n') ? line : `${line}\n`);
}

export function ensureDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
}
