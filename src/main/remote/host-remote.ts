/** The lead's side of remote teammates, wired where settings and the host's socket are known (CLI lead, host). */
import fs from 'node:fs';
import { loadSettings } from '../../core/agent/settings.js';
import type { TeamStore } from '../../core/store/index.js';
import { fetchRemoteBranches, type RemoteTeammates } from '../../core/teams/remote-placement.js';
import type { Settings } from '../../contract/settings-schema.js';
import type { PtyExit } from '../../core/teams/launchers/pty-process.js';
import type { SpawnRequest } from '../../core/teams/launcher.js';
import { hostPaths } from '../daemon/runtime-dir.js';
import { storeServerOf } from '../host/store-server.js';
import { SshRemoteTeammates } from './remote-teammates.js';

/** Remote teammates of a workspace: hosts and placement from its settings (read at each use), its host's socket. */
export function remoteTeammatesFor(workspace: string, env: NodeJS.ProcessEnv = process.env, settings?: () => Pick<Settings, 'hosts' | 'placement'>): RemoteTeammates {
  const read = settings ?? (() => loadSettings(workspace, env).settings);
  return new SshRemoteTeammates({
    root: workspace,
    env,
    hosts: () => read().hosts,
    placement: () => read().placement,
    hostSocket: () => forwardedSocket(workspace, env),
  });
}

/** The socket of the workspace's host that a remote teammate's ssh forwards to its machine: its store-only one. */
export function forwardedSocket(workspace: string, env: NodeJS.ProcessEnv = process.env): string {
  return hostPaths(workspace, env).store;
}

/**
 * The lead's host for its remote teammates: each completion brings the teammate's branch home (so diff, review
 * and merge see it at once), and an attach that asks gets the model variables the host gives its own agents.
 */
export function serveRemoteTeammates(store: TeamStore, remote: RemoteTeammates, agentsEnv: () => NodeJS.ProcessEnv): void {
  const server = storeServerOf(store);
  server.modelEnv = agentsEnv;
  server.afterComplete = async (agent) => {
    for (const failed of await fetchRemoteBranches(remote, store, [agent])) store.journal.record({ event: 'note', file: store.paths.config, reason: failed });
  };
}

/** A launch of the host's: when it is a remote teammate's, its first run to attach is owed the model variables. */
export function launchingRemote(store: TeamStore, req: SpawnRequest): void {
  if (req.env.THCLAWS_REMOTE_HOST) storeServerOf(store).owesModelEnv(req.agent);
}

/**
 * A remote teammate's pty (the ssh to its host) ended: the line its pane shows, also appended to output.log for a
 * restore (before the read-only tail that follows starts at the log's end, so it is shown once). Its status is
 * left to liveness: dead once its process is gone (sshd hangs it up) or its heartbeat is past the bound, when
 * the lead's watchdog frees its task and tells the lead.
 */
export function linkEnded(store: TeamStore, agent: string, req: SpawnRequest, exit: PtyExit): string {
  const host = req.env.THCLAWS_REMOTE_HOST;
  const line = `\r\n[thclaws: ${exit.code === 0 ? `${agent} on ${host} exited` : `the link to ${host} dropped (ssh ${exit.signal ?? `exit ${exit.code}`})`}]\r\n`;
  fs.appendFileSync(store.paths.output(agent), line);
  return line;
}

/** The dashboard's Respawn: the last request again under a new spawn id (a remote teammate's ssh rewritten for it). */
export function respawnRequest(prev: SpawnRequest, spawnId: string): SpawnRequest {
  return prev.env.THCLAWS_REMOTE_HOST ? relaunchRemote(prev, spawnId) : { ...prev, spawn_id: spawnId, requested_at: Date.now() };
}

/**
 * The dashboard's Respawn of a remote teammate: the same ssh, under a new spawn id (its forwarded socket's name
 * and THCLAWS_SPAWN_ID there carry it), its clone and branch as it left them.
 */
export function relaunchRemote(prev: SpawnRequest, spawnId: string): SpawnRequest {
  const old = prev.spawn_id;
  const swap = (w: string) => w.replaceAll(old, spawnId).replaceAll(`thclaws-${old.slice(0, 8)}.sock`, `thclaws-${spawnId.slice(0, 8)}.sock`);
  return { ...prev, spawn_id: spawnId, argv: prev.argv.map(swap), env: Object.fromEntries(Object.entries(prev.env).map(([k, v]) => [k, swap(v)])), requested_at: Date.now() };
}
