import fs from 'node:fs';
import path from 'node:path';
import { ensureDir } from './fsio.js';
import { isAgentName } from './names.js';
import { TeamPaths } from './paths.js';
import { TEAM_POLICY } from '../../contract/policy.js';
import { classifyEntry, type TeamDirKind, type TeamEvent } from './classify.js';

export type { TeamEvent } from './classify.js';

export interface TeamWatcher {
  onChange(listener: (event: TeamEvent) => void): () => void;
  close(): void;
}

export interface WatchOptions {
  /** Safety-net poll interval; 0 disables it. */
  safetyPollMs?: number;
  /** false: no fs.watch, the poll alone (filesystems whose change events never arrive, e.g. some network mounts). */
  fsEvents?: boolean;
  /**
   * Only these kinds of event. Without `status`, `output` and `spawn` the agents' directories are neither
   * watched nor polled: an idle teammate is not woken by every other agent's heartbeat.
   */
  only?: ReadonlyArray<TeamEvent['kind']>;
  /**
   * Make the team directories first (default). The dashboard passes false: opening a folder writes nothing
   * into it, and a team made later is found by the parent's watch or the safety poll.
   */
  createDirs?: boolean;
}

type WatchKind = TeamDirKind | 'parent';
const SUBDIRS = new Map<string, TeamDirKind>([
  ['inboxes', 'inboxes'],
  ['tasks', 'tasks'],
  ['agents', 'agents'],
]);

/**
 * The team change feed: fs.watch on each team directory (sub-ms on Linux) plus a slow stat-diff safety poll.
 * An fs.watch follows an inode, so a directory removed and made again would leave it deaf: each directory's
 * parent is watched too (the team dir's own parent included), and when a directory appears or changes inode
 * its watch is re-attached at once and its entries announced, covering files written before the re-attach.
 */
export function watchTeam(teamDir: string, opts: WatchOptions = {}): TeamWatcher {
  const paths = new TeamPaths(teamDir);
  if (opts.createDirs ?? true) for (const d of [paths.root, paths.inboxesDir, paths.tasksDir, paths.agentsDir]) ensureDir(d);
  const parentDir = path.dirname(paths.root);
  const rootName = path.basename(paths.root);
  const useEvents = opts.fsEvents ?? true;
  const only = opts.only ? new Set(opts.only) : null;
  const agentDirs = !only || only.has('status') || only.has('output') || only.has('spawn');
  const listeners = new Set<(e: TeamEvent) => void>();
  /** id = inode + birth time: a directory made again often gets the inode number of the removed one. */
  const watched = new Map<string, { w: fs.FSWatcher; id: string }>();
  const pending = new Map<string, TeamEvent>();
  let flushScheduled = false;
  let closed = false;

  const emit = (e: TeamEvent) => {
    if (only && !only.has(e.kind)) return;
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

  const drop = (dir: string) => {
    watched.get(dir)?.w.close();
    watched.delete(dir);
  };

  const dirKind = (dir: string): WatchKind | null => {
    if (dir === parentDir) return 'parent';
    if (dir === paths.root) return 'root';
    const rel = path.relative(paths.root, dir);
    const sub = SUBDIRS.get(rel);
    if (sub) return sub === 'agents' && !agentDirs ? null : sub;
    if (!agentDirs) return null;
    const agent = path.relative(paths.agentsDir, dir);
    return isAgentName(agent) && path.join(paths.agentsDir, agent) === dir ? { agent } : null;
  };

  /**
   * Watches `dir` unless already watching this very directory (`force`: the parent saw its name change, so
   * watch again whatever it is now), then does the same for its subdirectories. `announce` emits an event
   * per entry of a directory that was (re)attached.
   */
  const attach = (dir: string, announce: boolean, force = false): void => {
    const kind = dirKind(dir);
    if (closed || !kind) return;
    let id: string;
    try {
      const st = fs.statSync(dir);
      if (!st.isDirectory()) return drop(dir);
      id = `${st.ino}:${st.birthtimeMs}`;
    } catch {
      return drop(dir);
    }
    const fresh = force || watched.get(dir)?.id !== id;
    if (fresh) {
      drop(dir);
      if (useEvents) {
        try {
          const w = fs.watch(dir, { persistent: false }, (_type, name) => name && onEntry(kind, name.toString()));
          w.on('error', () => {
            w.close();
            if (watched.get(dir)?.w === w) watched.delete(dir);
          });
          watched.set(dir, { w, id });
        } catch {
          return; // vanished meanwhile; its parent's event or the poll comes back to it
        }
      } else watched.set(dir, { w: { close() {} } as fs.FSWatcher, id });
    }
    if (kind === 'parent') return attach(paths.root, announce, force);
    const say = announce && fresh;
    if (!say && kind !== 'root' && kind !== 'agents') return;
    for (const name of safeReaddir(dir)) {
      if (say) {
        const ev = classifyEntry(kind, name);
        if (ev) emit(ev);
      }
      const child = childDir(kind, name);
      if (child) attach(child, announce, force);
    }
  };

  const childDir = (kind: WatchKind, name: string): string | null => {
    if (kind === 'root') return SUBDIRS.has(name) ? path.join(paths.root, name) : null;
    if (kind === 'agents') return isAgentName(name) ? path.join(paths.agentsDir, name) : null;
    return null;
  };

  const onEntry = (kind: WatchKind, name: string) => {
    if (kind === 'parent') {
      if (name === rootName) attach(paths.root, true, true);
      return;
    }
    const ev = classifyEntry(kind, name);
    if (ev) emit(ev);
    const child = childDir(kind, name);
    if (child) attach(child, true, true);
  };

  attach(parentDir, false);

  // Safety net: re-attach what moved and compare a stat snapshot of every kind of team file.
  let snapshot = takeSnapshot(paths, agentDirs);
  const pollMs = opts.safetyPollMs ?? TEAM_POLICY.safetyPollMs;
  const timer =
    pollMs > 0
      ? setInterval(() => {
          if (useEvents) attach(parentDir, true);
          const next = takeSnapshot(paths, agentDirs);
          for (const [key, sig] of next) if (snapshot.get(key)?.sig !== sig.sig) emit(sig.event);
          for (const [key, sig] of snapshot) if (!next.has(key)) emit(sig.event);
          snapshot = next;
        }, pollMs)
      : null;
  timer?.unref();

  return {
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closed = true;
      if (timer) clearInterval(timer);
      for (const { w } of watched.values()) w.close();
      watched.clear();
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

/** One stat per team file: config, team.log, inboxes, tasks, and (`agents`) each agent's dir, status and output. */
function takeSnapshot(paths: TeamPaths, agents: boolean): Map<string, { sig: string; event: TeamEvent }> {
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
  for (const n of ['config.json', 'team.log']) add(path.join(paths.root, n), classifyEntry('root', n));
  for (const n of safeReaddir(paths.inboxesDir)) add(path.join(paths.inboxesDir, n), classifyEntry('inboxes', n));
  for (const n of safeReaddir(paths.tasksDir)) add(path.join(paths.tasksDir, n), classifyEntry('tasks', n));
  for (const a of agents ? safeReaddir(paths.agentsDir) : []) {
    if (!isAgentName(a)) continue;
    const dir = path.join(paths.agentsDir, a);
    add(dir, classifyEntry('agents', a));
    for (const n of ['status.json', 'output.log', 'spawn.json']) add(path.join(dir, n), classifyEntry({ agent: a }, n));
  }
  return out;
}
