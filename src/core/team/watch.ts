import fs from 'node:fs';
import path from 'node:path';
import { ensureDir } from './fsio.js';
import { isAgentName, isTaskId } from './names.js';
import { TeamPaths } from './paths.js';
import { TEAM_POLICY } from './policy.js';

/**
 * A change in the team dir. Level-triggered: it says *what* may have changed, never how often; consumers
 * re-read state (chokidar/fs.watch coalesce and duplicate events, so counting them would be wrong).
 */
export type TeamEvent =
  | { kind: 'config'; key: 'config' }
  | { kind: 'log'; key: 'log' }
  | { kind: 'inbox'; key: `inbox:${string}`; agent: string }
  | { kind: 'task'; key: `task:${string}`; id: string }
  | { kind: 'status'; key: `status:${string}`; agent: string }
  | { kind: 'output'; key: `output:${string}`; agent: string }
  | { kind: 'spawn'; key: `spawn:${string}`; agent: string };

export interface TeamWatcher {
  onChange(listener: (event: TeamEvent) => void): () => void;
  close(): void;
}

export interface WatchOptions {
  /** Safety-net poll interval; 0 disables it. */
  safetyPollMs?: number;
}

const INBOX = /^([A-Za-z0-9_][A-Za-z0-9_-]{0,63})\.json$/;
const TASK = /^([1-9][0-9]*)\.json$/;

function classify(dir: 'root' | 'inboxes' | 'tasks' | 'agents' | { agent: string }, name: string): TeamEvent | null {
  if (dir === 'root') {
    if (name === 'config.json') return { kind: 'config', key: 'config' };
    if (name === 'team.log') return { kind: 'log', key: 'log' };
    return null;
  }
  if (dir === 'inboxes') {
    const m = INBOX.exec(name);
    return m ? { kind: 'inbox', key: `inbox:${m[1]!}`, agent: m[1]! } : null;
  }
  if (dir === 'tasks') {
    const m = TASK.exec(name);
    return m && isTaskId(m[1]) ? { kind: 'task', key: `task:${m[1]!}`, id: m[1]! } : null;
  }
  if (dir === 'agents') return isAgentName(name) ? { kind: 'status', key: `status:${name}`, agent: name } : null;
  if (name === 'status.json') return { kind: 'status', key: `status:${dir.agent}`, agent: dir.agent };
  if (name === 'output.log') return { kind: 'output', key: `output:${dir.agent}`, agent: dir.agent };
  if (name === 'spawn.json') return { kind: 'spawn', key: `spawn:${dir.agent}`, agent: dir.agent };
  return null;
}

/** The team change feed: fs.watch on each team directory (sub-ms on Linux) plus a slow stat-diff safety poll. */
export function watchTeam(teamDir: string, opts: WatchOptions = {}): TeamWatcher {
  const paths = new TeamPaths(teamDir);
  for (const d of [paths.root, paths.inboxesDir, paths.tasksDir, paths.agentsDir]) ensureDir(d);
  const listeners = new Set<(e: TeamEvent) => void>();
  const watchers = new Map<string, fs.FSWatcher>();
  const pending = new Map<string, TeamEvent>();
  let flushScheduled = false;
  let closed = false;

  const emit = (e: TeamEvent) => {
    pending.set(e.key, e);
    if (flushScheduled) return;
    flushScheduled = true;
    setImmediate(() => {
      flushScheduled = false;
      const batch = [...pending.values()];
      pending.clear();
      for (const ev of batch) for (const l of listeners) l(ev);
    });
  };

  const watchDir = (dir: string, kind: Parameters<typeof classify>[0]) => {
    if (closed || watchers.has(dir)) return;
    try {
      const w = fs.watch(dir, { persistent: false }, (_type, name) => {
        if (!name) return;
        const ev = classify(kind, name.toString());
        if (ev) emit(ev);
        if (kind === 'agents' && isAgentName(name.toString())) watchDir(path.join(paths.agentsDir, name.toString()), { agent: name.toString() });
      });
      w.on('error', () => {
        w.close();
        watchers.delete(dir); // re-attached by the safety poll if the directory comes back
      });
      watchers.set(dir, w);
    } catch {
      // directory missing right now; the safety poll retries
    }
  };

  const attach = () => {
    watchDir(paths.root, 'root');
    watchDir(paths.inboxesDir, 'inboxes');
    watchDir(paths.tasksDir, 'tasks');
    watchDir(paths.agentsDir, 'agents');
    for (const name of safeReaddir(paths.agentsDir)) {
      if (isAgentName(name)) watchDir(path.join(paths.agentsDir, name), { agent: name });
    }
  };
  attach();

  // Safety net: compare a stat snapshot; costs a few stats per interval when idle.
  let snapshot = takeSnapshot(paths);
  const pollMs = opts.safetyPollMs ?? TEAM_POLICY.safetyPollMs;
  const timer = pollMs > 0 ? setInterval(() => {
    attach();
    const next = takeSnapshot(paths);
    for (const [key, sig] of next) if (snapshot.get(key)?.sig !== sig.sig) emit(sig.event);
    for (const [key, sig] of snapshot) if (!next.has(key)) emit(sig.event);
    snapshot = next;
  }, pollMs) : null;
  timer?.unref();

  return {
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closed = true;
      if (timer) clearInterval(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
      listeners.clear();
    },
  };
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function takeSnapshot(paths: TeamPaths): Map<string, { sig: string; event: TeamEvent }> {
  const out = new Map<string, { sig: string; event: TeamEvent }>();
  const add = (file: string, event: TeamEvent | null) => {
    if (!event) return;
    try {
      const st = fs.statSync(file);
      out.set(file, { sig: `${st.ino}:${st.mtimeMs}:${st.size}`, event });
    } catch {
      // absent
    }
  };
  add(paths.config, classify('root', 'config.json'));
  for (const n of safeReaddir(paths.inboxesDir)) add(path.join(paths.inboxesDir, n), classify('inboxes', n));
  for (const n of safeReaddir(paths.tasksDir)) add(path.join(paths.tasksDir, n), classify('tasks', n));
  for (const a of safeReaddir(paths.agentsDir)) {
    if (!isAgentName(a)) continue;
    add(path.join(paths.agentsDir, a, 'status.json'), classify({ agent: a }, 'status.json'));
    add(path.join(paths.agentsDir, a, 'spawn.json'), classify({ agent: a }, 'spawn.json'));
  }
  return out;
}
