import fs from 'node:fs';
import path from 'node:path';
import { ensureDir } from './fsio.js';
import { isAgentName } from './names.js';
import { TeamPaths } from './paths.js';
import { TEAM_POLICY } from './policy.js';
import { classifyEntry as classify, type TeamDirKind, type TeamEvent } from './classify.js';

export type { TeamEvent } from './classify.js';

export interface TeamWatcher {
  onChange(listener: (event: TeamEvent) => void): () => void;
  close(): void;
}

export interface WatchOptions {
  /** Safety-net poll interval; 0 disables it. */
  safetyPollMs?: number;
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

  const watchDir = (dir: string, kind: TeamDirKind) => {
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
    if (isAgentName(a)) add(path.join(paths.agentsDir, a, 'status.json'), classify({ agent: a }, 'status.json'));
  }
  return out;
}
