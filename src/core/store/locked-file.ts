import fs from 'node:fs';
import path from 'node:path';
import { readTextFile, writeFileAtomic, type ReadResult } from './fsio.js';
import { withLock } from './lock.js';

export type { ReadResult };

export interface FileEdit<T> {
  /** The file's next content; null leaves it as it is. */
  write: string | null;
  result: T;
}

/**
 * Read-modify-write of one file under its holder-named lock (`.locks/` beside it), the new content renamed
 * into place only while the lock is still this process's: two processes editing the same file, each a key
 * of its own, both keep their key. The file need not exist (the lock is a file of its own).
 */
export async function editFileLocked<T>(file: string, edit: (current: ReadResult) => Promise<FileEdit<T>> | FileEdit<T>, opts: { mode?: number } = {}): Promise<T> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return withLock(file, async (guard) => {
    const next = await edit(readTextFile(file));
    if (next.write !== null) writeFileAtomic(file, next.write, { guard, ...(opts.mode === undefined ? {} : { mode: opts.mode }) });
    return next.result;
  });
}
