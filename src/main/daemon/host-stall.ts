/**
 * Whether the workspace host a view talks to is stopped (SIGSTOP, Ctrl-Z in the terminal that started it): it
 * then reads nothing, so every request of the view would wait with no word. Read from /proc/<pid>/stat (Linux;
 * elsewhere nothing is said), every `everyMs`, and told on each change: stopped, then running again.
 */
import fs from 'node:fs';
import { liveHolder } from '../../core/store/index.js';
import { hostPaths } from './runtime-dir.js';

/** The state letter of `pid` (`T` stopped, `t` traced), or null when it cannot be read. */
function stateOf(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2) || null;
  } catch {
    return null;
  }
}

/** Whether `pid` is stopped now (false once it is gone). */
export const isStopped = (pid: number): boolean => stateOf(pid) === 'T';

/**
 * Watches `pid` — or, while a view is still saying hello, whichever pid holds the host's lease (a host stopped
 * before it answered would otherwise leave the view waiting for the hello's timeout without a word).
 * `stopped` says what the view was last told, so a watch that takes over from another starts from it.
 */
export function watchHostStall(pid: number | (() => number | null), onChange: (stopped: boolean, pid: number) => void, everyMs = 1000, stopped = false): () => void {
  const timer = setInterval(() => {
    const p = typeof pid === 'number' ? pid : pid();
    if (p === null) return;
    const now = isStopped(p);
    if (now === stopped) return;
    stopped = now;
    onChange(now, p);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

export const hostStoppedText = (pid: number): string =>
  `the workspace host (pid ${pid}) is stopped (SIGSTOP or Ctrl-Z where it was started): nothing done here reaches the team until it runs again (kill -CONT ${pid})`;
export const hostRunsAgainText = (pid: number): string => `the workspace host (pid ${pid}) runs again`;
/** Another host serves the view than the stopped one (killed, not continued): "runs again" would name a dead pid. */
export const hostReplacedText = (gone: number, now: number): string => `the workspace host (pid ${gone}) is gone from this view: pid ${now} serves it now`;

/** The stopped host ended (killed: a stopped process does nothing by itself) and no other serves the view. */
export const hostGoneText = (pid: number): string => `the workspace host (pid ${pid}) is gone (it was stopped, then ended)`;

/** The pid holding the workspace host's lease (the running or starting host), or null when none does. */
export function leasePid(workspace: string, env?: NodeJS.ProcessEnv): number | null {
  try {
    return liveHolder(hostPaths(workspace, env).lock)?.holder?.pid ?? null;
  } catch {
    return null;
  }
}
