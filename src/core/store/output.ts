import fs from 'node:fs';
import { ensureDir } from './fsio.js';
import type { TeamPaths } from './paths.js';

/** An open `agents/<name>/output.log`, appended to by the one process that owns the agent's terminal. */
export interface OutputAppender {
  write(data: string): void;
  /** Resolves when every written byte reached the file. */
  close(): Promise<void>;
}

/**
 * `agents/<name>/output.log`: one O_APPEND writer per run (the child's stdout and stderr share the fd), a
 * marker line per spawn so a boot-failure tail never quotes an earlier run.
 */
export class OutputLogs {
  constructor(private readonly paths: TeamPaths) {}

  /** An fd opened O_APPEND, after writing the spawn marker. The caller hands it to the child and closes its copy. */
  openForSpawn(agent: string, spawnId: string): number {
    ensureDir(this.paths.agentDir(agent));
    const fd = fs.openSync(this.paths.output(agent), 'a');
    fs.writeSync(fd, `${marker(spawnId)} ${new Date().toISOString()}\n`);
    return fd;
  }

  /**
   * A stream appender for a process the caller reads itself (a pty); with `spawnId`, after the spawn marker.
   * Writes are gathered for up to `flushMs` (or 256 KiB): a pty delivers 4 KiB reads, and one append per read
   * would wake every watcher of the team dir thousands of times a second during a flood.
   */
  append(agent: string, spawnId?: string, flushMs = 25): OutputAppender {
    ensureDir(this.paths.agentDir(agent));
    const stream = spawnId
      ? fs.createWriteStream('', { fd: this.openForSpawn(agent, spawnId) })
      : fs.createWriteStream(this.paths.output(agent), { flags: 'a' });
    stream.on('error', () => {}); // a full disk must not crash the host; the pane still shows the output
    let parts: string[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | null = null;
    const flush = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      if (!parts.length) return;
      stream.write(parts.join(''));
      parts = [];
      size = 0;
    };
    return {
      write: (data) => {
        parts.push(data);
        size += data.length;
        if (size >= 256 * 1024) flush();
        else timer ??= setTimeout(flush, flushMs);
      },
      close: () => {
        flush();
        return new Promise<void>((resolve) => stream.end(() => resolve()));
      },
    };
  }

  size(agent: string): number {
    try {
      return fs.statSync(this.paths.output(agent)).size;
    } catch {
      return 0;
    }
  }

  /** Bytes [from, from + max) of the log; empty when absent. A log that shrank (rotated) reads from 0. */
  read(agent: string, from: number, max: number): { data: Buffer; next: number } {
    let fd: number;
    try {
      fd = fs.openSync(this.paths.output(agent), 'r');
    } catch {
      return { data: Buffer.alloc(0), next: from };
    }
    try {
      const size = fs.fstatSync(fd).size;
      const start = from > size ? 0 : from;
      const len = Math.min(max, size - start);
      const buf = Buffer.alloc(Math.max(0, len));
      const n = len > 0 ? fs.readSync(fd, buf, 0, len, start) : 0;
      return { data: buf.subarray(0, n), next: start + n };
    } finally {
      fs.closeSync(fd);
    }
  }

  /** The last `lines` lines written since the marker of `spawnId` (or of the whole file without one). */
  tail(agent: string, lines: number, spawnId?: string): string {
    let text: string;
    try {
      const fd = fs.openSync(this.paths.output(agent), 'r');
      try {
        const size = fs.fstatSync(fd).size;
        const len = Math.min(size, 256 * 1024);
        const buf = Buffer.alloc(len);
        fs.readSync(fd, buf, 0, len, size - len);
        text = buf.toString('utf8');
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return '';
    }
    if (spawnId) {
      const at = text.lastIndexOf(marker(spawnId));
      if (at >= 0) text = text.slice(text.indexOf('\n', at) + 1);
    }
    return text.replace(/\n+$/, '').split('\n').slice(-lines).join('\n');
  }
}

function marker(spawnId: string): string {
  return `--- thclaws spawn ${spawnId}`;
}
