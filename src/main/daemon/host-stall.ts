/**
 * Whether the workspace host a view talks to is stopped (SIGSTOP, Ctrl-Z in the terminal that started it): it
 * then reads nothing, so every request of the view would wait with no word. Read from /proc/<pid>/stat (Linux;
 * elsewhere nothing is said), every `everyMs`, and told on each change: stopped, then running again.
 */
import fs from 'node:fs';

/** The state letter of `pid` (`T` stopped, `t` traced), or null when it cannot be read. */
function stateOf(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2) || null;
  } catch {
    return null;
  }
}

export function watchHostStall(pid: number, onChange: (stopped: boolean) => void, everyMs = 1000): () => void {
  let stopped = false;
  const timer = setInterval(() => {
    const now = stateOf(pid) === 'T';
    if (now === stopped) return;
    stopped = now;
    onChange(now);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

export const hostStoppedText = (pid: number): string =>
  `the workspace host (pid ${pid}) is stopped (SIGSTOP or Ctrl-Z where it was started): nothing done here reaches the team until it runs again (kill -CONT ${pid})`;
export const hostRunsAgainText = (pid: number): string => `the workspace host (pid ${pid}) runs again`;
