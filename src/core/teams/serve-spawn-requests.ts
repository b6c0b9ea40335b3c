/**
 * The host side of `host` mode: watches the store's change feed for spawn requests and launches each one
 * exactly once per spawn id through the given launcher (the workspace host, `thclaws host`, or the desktop
 * TeamHost). A request claimed by another host is left alone.
 */
import type { StoredSpawnRequest, TeamStore } from '../store/index.js';
import type { LaunchedTeammate, SpawnRequest, TeammateLauncher } from './launcher.js';

export type SpawnServeEvent =
  | { kind: 'launched'; agent: string; spawn_id: string; pid: number }
  | { kind: 'failed'; agent: string; spawn_id: string; error: string }
  | { kind: 'exited'; agent: string; spawn_id: string; code: number | null; signal: string | null };

export interface ServeOptions {
  /** Shown in the request as `served_by`. */
  by?: string;
  onEvent?: (e: SpawnServeEvent) => void;
  /** Safety poll of the change feed (ms). */
  safetyPollMs?: number;
}

export interface SpawnServer {
  /** Launched by this server, by spawn id. */
  readonly launched: Map<string, LaunchedTeammate>;
  /** Looks for requests now (the change feed calls it; exposed for tests and hosts). */
  scan(): Promise<void>;
  close(): void;
}

export function toSpawnRequest(r: StoredSpawnRequest): SpawnRequest & { inherit_env?: string[] } {
  return {
    spawn_id: r.spawn_id,
    agent: r.agent,
    argv: r.argv,
    cwd: r.cwd,
    env: r.env,
    team_dir: r.team_dir,
    requested_at: r.requested_at,
    ...(r.model ? { model: r.model } : {}),
    ...(r.cols ? { cols: r.cols } : {}),
    ...(r.rows ? { rows: r.rows } : {}),
    ...(r.inherit_env ? { inherit_env: r.inherit_env } : {}),
  };
}

export function serveSpawnRequests(store: TeamStore, launcher: TeammateLauncher, opts: ServeOptions = {}): SpawnServer {
  const by = opts.by ?? `${launcher.kind}:${process.pid}`;
  const launched = new Map<string, LaunchedTeammate>();
  const seen = new Set<string>();
  let scanning: Promise<void> = Promise.resolve();

  const serveOne = async (agent: string) => {
    const req = await store.spawnRequests.read(agent);
    if (!req || req.served_at || req.error || seen.has(req.spawn_id)) return;
    seen.add(req.spawn_id);
    if (!(await store.spawnRequests.claim(agent, req.spawn_id, by))) return;
    try {
      const t = await launcher.launch(toSpawnRequest(req));
      launched.set(req.spawn_id, t);
      await store.spawnRequests.annotate(agent, req.spawn_id, { pid: t.pid });
      opts.onEvent?.({ kind: 'launched', agent, spawn_id: req.spawn_id, pid: t.pid });
      void t.exited.then(({ code, signal }) => {
        launched.delete(req.spawn_id);
        opts.onEvent?.({ kind: 'exited', agent, spawn_id: req.spawn_id, code, signal });
      });
    } catch (err) {
      const error = (err as Error).message;
      await store.spawnRequests.annotate(agent, req.spawn_id, { error });
      opts.onEvent?.({ kind: 'failed', agent, spawn_id: req.spawn_id, error });
    }
  };

  const scan = () => {
    scanning = scanning.then(async () => {
      for (const agent of store.spawnRequests.agentsWithRequests()) await serveOne(agent).catch(() => {});
    });
    return scanning;
  };

  const watcher = store.watch({ safetyPollMs: opts.safetyPollMs ?? 2000 });
  watcher.onChange((e) => {
    // A status event may be the agent dir appearing before its spawn.json is watched.
    if (e.kind === 'spawn' || e.kind === 'status') {
      scanning = scanning.then(() => serveOne(e.agent).catch(() => {}));
    }
  });
  void scan();
  return {
    launched,
    scan,
    close: () => watcher.close(),
  };
}
