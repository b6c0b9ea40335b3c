/**
 * One project check in the integration worktree: `bash -c` in a process group of its own, output streamed.
 * The check ends when its shell exits (or its timeout kills the group): its output is then drained for a
 * bounded time, the group is killed, and whatever still holds the output pipe from outside the group (a
 * `setsid` child) is killed too, so a left-behind child never holds the merge and its lock.
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { groupCarries, processesCarrying } from '../group-mark.js';
import { outputEnds, outputHolders } from '../output-holders.js';

/**
 * In every check's environment (one random value a run): once its shell is gone, its group is killed only while
 * a member still holds this, and whatever holds it at the drain's end is the check's own.
 */
export const MARK_ENV = 'THCLAWS_CHECK_RUN';

/** A run's value of MARK_ENV: given by a caller that must find the run's processes from another process later. */
export const newCheckMark = (): string => randomBytes(9).toString('hex');

const ENDING_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
/** After the check's shell exits, how long its output may still arrive before the pipes are closed. */
export const CHECK_DRAIN_MS = 2000;

/** The check's exit code; null when a signal (its timeout, or any other) ended it, which counts as failed. */
export function runCheck(line: string, cwd: string, onOutput: ((s: string) => void) | undefined, timeoutMs: number, drainMs = CHECK_DRAIN_MS, mark = newCheckMark()): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', line], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: process.env.CI ?? '1', [MARK_ENV]: mark } });
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const ends = outputEnds(child.pid);
    const timer = setTimeout(killGroup, timeoutMs);
    let drain: NodeJS.Timeout | undefined;
    // The check's own process group is out of a terminal's Ctrl-C: when this process is told to end, the check
    // ends with it (then the signal takes its usual course), instead of running on orphaned.
    const onSignal = (sig: NodeJS.Signals) => {
      killGroup();
      unhook();
      if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
    };
    const unhook = () => {
      for (const s of ENDING_SIGNALS) process.off(s, onSignal);
      process.off('exit', killGroup);
    };
    for (const s of ENDING_SIGNALS) process.on(s, onSignal);
    process.on('exit', killGroup);
    child.stdout.on('data', (b: Buffer) => onOutput?.(b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => onOutput?.(b.toString('utf8')));
    child.on('error', (err) => {
      onOutput?.(`${err.message}\n`);
    });
    child.on('exit', () => {
      clearTimeout(timer);
      drain = setTimeout(() => {
        // The shell is gone: its group's number may belong to a stranger by now (see group-mark.ts).
        if (groupCarries(child.pid!, `${MARK_ENV}=${mark}`)) killGroup();
        // By the output's pipe, and by the mark: a shell that exited at once may be gone before its pipe was
        // read from /proc, and a holder left its group (setsid) but not its environment.
        const holders = [...new Set([...outputHolders(ends), ...processesCarrying(`${MARK_ENV}=${mark}`)])];
        for (const pid of holders) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // gone
          }
        }
        onOutput?.(`[the check left ${holders.length ? `${holders.length} process(es) holding its output: killed` : 'its output open: stopped reading'}]\n`);
        child.stdout.destroy();
        child.stderr.destroy();
      }, drainMs);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      clearTimeout(drain);
      unhook();
      resolve(code);
    });
  });
}
