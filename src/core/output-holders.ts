/**
 * Who still holds a child's output: a descendant that left the child's process group (`setsid`) keeps the
 * write end of its stdout/stderr open after the child exited, so a reader waiting for the end of the output
 * waits for it. On Linux those ends (Node gives a child a socketpair or a pipe) are named by inode in
 * /proc/<pid>/fd, and every process that inherited them shows the same name; elsewhere nobody is found (the
 * caller then just stops reading).
 */
import fs from 'node:fs';

/**
 * The child's own ends of its stdout and stderr (`socket:[inode]` / `pipe:[inode]`), read right after the
 * spawn (the child has exec'd by then, with those ends as fd 1 and 2).
 */
export function outputEnds(pid: number | undefined): string[] {
  if (pid === undefined) return [];
  return [1, 2].flatMap((fd) => {
    try {
      const link = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      return /^(socket|pipe):\[\d+\]$/.test(link) ? [link] : [];
    } catch {
      return [];
    }
  });
}

/** Pids other than this process that hold any of these ends (only processes we may inspect). */
export function outputHolders(ends: string[]): number[] {
  const ids = new Set(ends);
  if (!ids.size) return [];
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid);
  } catch {
    return [];
  }
  const holders: number[] = [];
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or not ours
    }
    for (const f of fds) {
      try {
        if (ids.has(fs.readlinkSync(`/proc/${pid}/fd/${f}`))) {
          holders.push(Number(pid));
          break;
        }
      } catch {
        // closed meanwhile
      }
    }
  }
  return holders;
}
