import fs from 'node:fs';
import path from 'node:path';
import { appendLine, fsyncDir } from './fsio.js';
import { withLock } from './lock.js';

/**
 * One line of team.log: every quarantine, rejection, stale-lock takeover and lost lease is recorded here, so
 * nothing disappears silently.
 */
export interface JournalEntry {
  ts: number;
  event: 'quarantined' | 'rejected' | 'lock_recovered' | 'lease_lost' | 'note';
  file: string;
  reason: string;
  moved_to?: string;
  /** The holder a lock was taken from, or the process that lost a lease. */
  holder_pid?: number;
  holder_host?: string;
}

export class Journal {
  constructor(
    private readonly logFile: string,
    private readonly teamRoot: string,
  ) {}

  record(entry: Omit<JournalEntry, 'ts'>): void {
    const rel = (p: string | undefined) => (p ? path.relative(this.teamRoot, p) : undefined);
    appendLine(this.logFile, JSON.stringify({ ts: Date.now(), ...entry, file: rel(entry.file), moved_to: rel(entry.moved_to) }));
  }

  /**
   * Moves an unparseable file (or a directory squatting on a file's name) aside as `<file>.corrupt-<ts>`,
   * never deleting or overwriting it. Returns the new path, or null if it vanished meanwhile.
   */
  quarantine(file: string, reason: string): string | null {
    const target = `${file}.corrupt-${Date.now()}-${process.pid}`;
    try {
      fs.renameSync(file, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    fsyncDir(path.dirname(file));
    this.record({ event: 'quarantined', file, reason, moved_to: target });
    return target;
  }

  /**
   * The one path from "this file does not parse" to "moved aside": re-parses under the file's lock (a writer may
   * have replaced it meanwhile) and quarantines only if it is still bad.
   */
  async quarantineIfStillBad(file: string, stillBad: () => string | null): Promise<void> {
    await withLock(
      file,
      () => {
        const reason = stillBad();
        if (reason !== null) this.quarantine(file, reason);
      },
      { journal: this },
    );
  }

  read(): JournalEntry[] {
    let text: string;
    try {
      text = fs.readFileSync(this.logFile, 'utf8');
    } catch {
      return [];
    }
    const out: JournalEntry[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        out.push(JSON.parse(line) as JournalEntry);
      } catch {
        // a torn last line from a crashed writer is skipped, not fatal
      }
    }
    return out;
  }
}
