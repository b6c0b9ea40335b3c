import fs from 'node:fs';

/** Most a host's log grows to before it is rotated (one previous part kept as `<log>.1`). */
export const MAX_HOST_LOG = 1024 * 1024;

/** A log over the cap becomes `<log>.1` (replacing an older one): a host started again and again never grows it without bound. */
export function rotateHostLog(log: string, max = MAX_HOST_LOG): void {
  try {
    if (fs.statSync(log).size > max) fs.renameSync(log, `${log}.1`);
  } catch {
    // no log yet
  }
}

/**
 * The log of a host started detached: its stdout and stderr are the file `hostPaths().log` in the user's
 * runtime dir. While it runs it is bounded (rotated past the cap); after a clean exit it is removed, so the
 * runtime dir does not collect one per workspace ever opened. A host that dies (killed, crashed) never reaches
 * that, so its log stays for a person to read why. A host run in a terminal has no such file: nothing is done.
 */
export class HostLog {
  private readonly mine: boolean;

  constructor(
    readonly file: string,
    private readonly max = MAX_HOST_LOG,
  ) {
    this.mine = sameFile(2, file);
  }

  /** After each line the host logs: past the cap, the log so far becomes `<log>.1` and the file starts empty. */
  bound(): void {
    if (!this.mine) return;
    try {
      if (fs.fstatSync(2).size <= this.max) return;
      fs.copyFileSync(this.file, `${this.file}.1`);
      fs.ftruncateSync(2, 0); // the descriptor appends: the next line starts the file again
    } catch {
      // the log is best effort; the host keeps serving
    }
  }

  /** The host exited on purpose (stopped, idle): its log has nothing a person needs. */
  removeAfterCleanExit(): void {
    if (!this.mine) return;
    fs.rmSync(this.file, { force: true });
    fs.rmSync(`${this.file}.1`, { force: true });
  }
}

function sameFile(fd: number, file: string): boolean {
  try {
    const a = fs.fstatSync(fd);
    const b = fs.statSync(file);
    return a.isFile() && a.ino === b.ino && a.dev === b.dev;
  } catch {
    return false;
  }
}
