/**
 * Whether a process group number still names the group we started. Once its leader is gone the number proves
 * nothing: the group may have ended and a stranger's leaderless group (a daemon whose parent exited) taken the
 * number since. A mark in the environment of what we started (`NAME=value`, inherited by every child) does.
 */
import fs from 'node:fs';

/** Fields of /proc/<pid>/stat after the command name; [] where unknown. */
function statFields(pid: string): string[] {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return [];
  }
}

/** Whether a live member of group `pgid` was started with `entry` (`NAME=value`) in its environment (Linux /proc; else false). */
export function groupCarries(pgid: number, entry: string): boolean {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return false;
  }
  return pids.some((pid) => {
    if (statFields(pid)[2] !== String(pgid)) return false;
    try {
      return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(entry);
    } catch {
      return false;
    }
  });
}
