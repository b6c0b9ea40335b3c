import fs from 'node:fs';
import { ensureDir } from './fsio.js';
import type { TeamPaths } from './paths.js';

/** An open `agents/<name>/output.log`, appended to by the one process that owns the agent's terminal. */
export interface OutputAppender {
  write(data: string): void;
  /** Resolves when every written byte reached the file. */
  close(): Promise<void>;
}

/** Terminal transcripts: one writer per agent (O_APPEND), any number of readers tailing by byte offset. */
export class OutputLogs {
  constructor(private readonly paths: TeamPaths) {}

  append(agent: string): OutputAppender {
    const file = this.paths.output(agent);
    ensureDir(this.paths.agentDir(agent));
    const stream = fs.createWriteStream(file, { flags: 'a' });
    stream.on('error', () => {}); // a full disk must not crash the host; the pane still shows the output
    return {
      write: (data) => {
        stream.write(data);
      },
      close: () => new Promise<void>((resolve) => stream.end(() => resolve())),
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
}
