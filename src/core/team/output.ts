import fs from 'node:fs';
import { ensureDir } from './fsio.js';
import type { TeamPaths } from './paths.js';

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
