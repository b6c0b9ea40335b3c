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

function procPids(): string[] {
  try {
    return fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid);
  } catch {
    return [];
  }
}

function carries(pid: string, entry: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(entry);
  } catch {
    return false;
  }
}

/** Whether a live member of group `pgid` was started with `entry` (`NAME=value`) in its environment (Linux /proc; else false). */
export function groupCarries(pgid: number, entry: string): boolean {
  return procPids().some((pid) => statFields(pid)[2] === String(pgid) && carries(pid, entry));
}

/** Pids of the live processes (not zombies) started with `entry` in their environment, in any group (Linux /proc; else none). */
export function processesCarrying(entry: string): number[] {
  return procPids()
    .filter((pid) => {
      const state = statFields(pid)[0];
      return state !== undefined && state !== 'Z' && state !== 'X' && carries(pid, entry);
    })
    .map(Number);
}
