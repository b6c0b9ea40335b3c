import fs from 'node:fs';
import { processStart } from '../../store/index.js';

/**
 * A signal sent to a pty's group right after its start can miss the child: the wrapper has trapped TERM/INT
 * (to report the end) but not yet forked the child, so only the wrapper hears it, runs its no-op handler and
 * starts the child anyway (a Stop right after a start was dropped 6 times in 300 here). So after a group signal
 * the wrapper's direct child is looked for until one exists, and gets the signal once more when it could have
 * missed it: it appeared only after the signal, or it is still the wrapper's fork (not yet exec'd: it holds the
 * wrapper's no-op handler), or it started in a later clock tick than the signal. A child already running its
 * own program when the signal was sent has had it — a second one would reach a child that handles TERM twice
 * (seen 3 times in 10 with a start 20 ms before it, when any start within two ticks of it got it again).
 * Linux only: without /proc nothing is done, as before.
 */
const LOOK_MS = 10;
const GIVE_UP_MS = 10_000;

export function signalLateChild(wrapper: number, signal: NodeJS.Signals, ended: () => boolean): void {
  const at = ticksNow();
  if (at === null) return;
  const since = Date.now();
  const look = (first: boolean): void => {
    if (ended()) return;
    const kids = childrenOf(wrapper);
    if (kids === null) return; // the wrapper is gone
    const child = kids[0];
    if (child !== undefined) {
      if (!first || cmdline(child) === cmdline(wrapper) || Number(processStart(child)) > at) {
        try {
          process.kill(child, signal);
        } catch {
          // it ended meanwhile
        }
      }
      return;
    }
    if (Date.now() - since < GIVE_UP_MS) setTimeout(() => look(false), LOOK_MS).unref();
  };
  look(true);
}

/** A process's argv as /proc has it ('' once it is gone): a fork not yet exec'd has its parent's. */
function cmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** Clock ticks since boot (the unit of a process's start time in /proc/<pid>/stat), or null without /proc. */
function ticksNow(): number | null {
  try {
    // Rounded: it has two decimals, and 37181.12 * 100 is 3718111.99… in floating point (a tick early).
    return Math.round(parseFloat(fs.readFileSync('/proc/uptime', 'utf8')) * 100);
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
