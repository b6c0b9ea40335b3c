/**
 * A stranger forced onto a pid an agent's record names (as root on Linux, through
 * /proc/sys/kernel/ns_last_pid): what a recycled pid looks like, for tests that check nobody signals it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const NS_LAST_PID = '/proc/sys/kernel/ns_last_pid';

export const canForcePid = (() => {
  try {
    fs.accessSync(NS_LAST_PID, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
})();

/** Fields of /proc/<pid>/stat after the command name ([0] state, [2] pgrp, [19] start time); [] when gone. */
export function statFields(pid: number | string): string[] {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return [];
  }
}

/** Live (not zombie) members of process group `pgid`. */
export function groupMembers(pgid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      const f = statFields(d);
      return f[2] === String(pgid) && f[0] !== 'Z' && f[0] !== 'X';
    })
    .map(Number);
}

/**
 * A daemon-like stranger: `setsid sh -c <script>` forked at exactly `pid` (other processes race for pids: it
 * retries, killing each miss), waited for (reaped, as a daemon's parent does), so what `script` put in the
 * background is left in a group numbered `pid` with no leader. Whether it landed there.
 */
export function forkAt(pid: number, script: string): boolean {
  const loop = `t=$1; i=0; while [ $i -lt 3000 ]; do i=$((i+1)); echo $((t-1)) > ${NS_LAST_PID}; setsid sh -c "$2" </dev/null >/dev/null 2>&1 & p=$!; if [ "$p" = "$t" ]; then wait "$p"; echo ok; exit 0; fi; kill -9 -- -"$p" 2>/dev/null; kill -9 "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; echo none`;
  return execFileSync('bash', ['-c', loop, 'place', String(pid), script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() === 'ok';
}

/** The process still runs as it was: same start time, not a zombie. */
export function stillRuns(pid: number, start: string): boolean {
  const f = statFields(pid);
  return f[19] === start && f[0] !== 'Z' && f[0] !== 'X';
}
