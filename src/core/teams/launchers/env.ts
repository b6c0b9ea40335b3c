import type { SpawnRequest } from '../launcher.js';

/** The child's whole environment: the request's own values over the named variables taken from this process. */
export function resolveEnv(req: SpawnRequest & { inherit_env?: string[] }, from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of req.inherit_env ?? []) {
    const v = from[name];
    if (v !== undefined) env[name] = v;
  }
  return { ...env, ...req.env };
}

/** Resolves once when the pid is gone (for processes that are not our children: tmux panes). */
export function pidExit(pid: number, everyMs = 250): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve) => {
    const t = setInterval(() => {
      try {
        process.kill(pid, 0);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EPERM') return;
        clearInterval(t);
        resolve({ code: null, signal: null });
      }
    }, everyMs);
    t.unref();
  });
}

/** Signals the process group of a group leader, falling back to the pid alone. Never a name pattern. */
export function killGroup(pid: number, signal: NodeJS.Signals = 'SIGTERM'): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}
