import fs from 'node:fs';
import { processStart } from '../../store/index.js';

/**
 * A signal sent to a pty's group right after its start can miss the child: the wrapper has trapped TERM/INT
 * (to report the end) but not yet forked the child, so only the wrapper hears it, runs its no-op handler and
 * starts the child anyway (a Stop right after a start was dropped 6 times in 300 here). So after a group signal
 * the wrapper's direct child is looked for until one exists; a child forked at or after the signal (with a
 * margin for the clock's 10 ms ticks and a fork not yet exec'd) gets the signal once more, an older one has had
 * it. Linux only: without /proc nothing is done, as before.
 */
const SLACK_TICKS = 2;
const LOOK_MS = 10;
const GIVE_UP_MS = 10_000;

export function signalLateChild(wrapper: number, signal: NodeJS.Signals, ended: () => boolean): void {
  const at = ticksNow();
  if (at === null) return;
  const since = Date.now();
  const look = (): void => {
    if (ended()) return;
    const kids = childrenOf(wrapper);
    if (kids === null) return; // the wrapper is gone
    const child = kids[0];
    if (child !== undefined) {
      const start = Number(processStart(child));
      if (start !== 0 && start >= at - SLACK_TICKS) {
        try {
          process.kill(child, signal);
        } catch {
          // it ended meanwhile
        }
      }
      return;
    }
    if (Date.now() - since < GIVE_UP_MS) setTimeout(look, LOOK_MS).unref();
  };
  look();
}

/** Clock ticks since boot (the unit of a process's start time in /proc/<pid>/stat), or null without /proc. */
function ticksNow(): number | null {
  try {
    return Math.floor(parseFloat(fs.readFileSync('/proc/uptime', 'utf8')) * 100);
  } catch {
    return null;
  }
}

/** The pids of `pid`'s children, or null when it is gone. */
function childrenOf(pid: number): number[] | null {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number);
  } catch {
    return null;
  }
}
