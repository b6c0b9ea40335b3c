/** What /proc says about processes, for the remote tests (which run as root and so may read every process). */
import fs from 'node:fs';

export interface Proc {
  pid: number;
  uid: number;
  /** NUL-separated, as in /proc (a word boundary is `\0`). */
  cmdline: string;
  environ(): string;
}

const read = (file: string): string => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

/** The real uid of a process (the first of /proc/<pid>/status's Uid line), or -1 when it is gone. */
export function uidOf(pid: number): number {
  const m = /^Uid:\s+(\d+)/m.exec(read(`/proc/${pid}/status`));
  return m ? Number(m[1]) : -1;
}

export function procs(): Proc[] {
  return fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map((d) => {
    const pid = Number(d);
    return { pid, uid: uidOf(pid), cmdline: read(`/proc/${pid}/cmdline`), environ: () => read(`/proc/${pid}/environ`) };
  }).filter((p) => p.uid >= 0);
}

/** The parent's pid (field 4 of /proc/<pid>/stat, after the name in parentheses, which may hold spaces), or -1. */
export function parentOf(pid: number): number {
  const stat = read(`/proc/${pid}/stat`);
  return stat ? Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) : -1;
}

/**
 * The bridge (`thclaws host connect --stdio --dir <dir>`) of one link, told apart by its `--dir` as the URL gave
 * it: other links of the same user (a parallel test file's) have their own.
 */
export const bridgeOf = (dir: string): Proc | undefined => procs().find((p) => p.cmdline.includes(`\0connect\0--stdio\0--dir\0${dir}\0`));

/** Inodes of the sockets a process holds open. */
export function socketInodes(pid: number): number[] {
  let fds: string[] = [];
  try {
    fds = fs.readdirSync(`/proc/${pid}/fd`);
  } catch {
    return [];
  }
  return fds.flatMap((fd) => {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      return m ? [Number(m[1])] : [];
    } catch {
      return [];
    }
  });
}

/** Inodes of every TCP socket in LISTEN state (IPv4 and IPv6). */
export function listeningTcpInodes(): Set<number> {
  const out = new Set<number>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of read(file).split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // st 0A: LISTEN; the inode is the 10th field.
      if (f[3] === '0A') out.add(Number(f[9]));
    }
  }
  return out;
}

/** Whether `pid` runs below `from` (its parent, or a parent's parent…). */
export function descends(pid: number, from: number): boolean {
  for (let p = parentOf(pid); p > 1; p = parentOf(p)) if (p === from) return true;
  return false;
}
