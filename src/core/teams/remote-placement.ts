/**
 * Where a teammate runs (docs/remote.md, "Teammates on other machines"): this machine, or a host of the user's
 * settings, reached over the person's ssh. The machinery (ssh, git over ssh, the host's socket) lives with the
 * host process (src/main/remote); the runtime sees it through `RemoteTeammates`, handed in by the CLI.
 */
import type { RemoteHost } from '../../contract/settings-schema.js';
import { TeamError } from '../store/index.js';
import type { TeammateStore } from '../store/teammate-store.js';

/** What to run locally (in the host's pty) to start a teammate on its host, and where its clone is there. */
export interface RemoteLaunch {
  /** ssh's argv: the teammate runs at its end, its store forwarded to the lead's host. */
  argv: string[];
  /** Variables the ssh process takes from the host's environment (the person's agent socket; never a key). */
  inheritEnv: string[];
  /** The teammate's clone on the host (absolute, as that host spells it). */
  clone: string;
  /** For people: `on big (user@big:/home/user/thclaws/work/t/alice)`. */
  where: string;
}

export interface RemotePrepare {
  host: string;
  agent: string;
  team: string;
  spawnId: string;
  /** The teammate's own variables (THCLAWS_*, editor stubs, ports), set on the command line there: never a secret. */
  env: Record<string, string>;
  /** Words after `<bin> --team-agent <name>` (the lead's child flags, model, resume). */
  args: string[];
}

export interface RemoteTeammates {
  /** The user's hosts by name (user settings only). */
  hosts(): Record<string, RemoteHost>;
  placement(): 'local' | 'spread';
  /** Its clone made or brought up to the lead's HEAD there (over ssh, git push), and the ssh that starts it. */
  prepare(p: RemotePrepare): Promise<RemoteLaunch>;
  /** Fetches `team/<name>` from its clone into the lead's repository as `refs/heads/team/<name>`. */
  fetch(agent: string, host: string, clone: string): Promise<void>;
}

/** The name that places a teammate on this machine (SpawnTeammate's `"host": "local"`), never a host's. */
export const LOCAL_HOST = 'local';

/**
 * The host a spawn goes to: the one SpawnTeammate names, else the member's, else the placement rule's (`spread`:
 * the defined host with the fewest live teammates under its `maxTeammates`; none free → this machine). `null` is
 * this machine. An unknown name is one error naming it and the defined ones.
 */
export function placeTeammate(remote: RemoteTeammates | undefined, asked: string | undefined, member: string | null | undefined, liveOn: Map<string, number>): string | null {
  const named = asked?.trim() || member || undefined;
  const hosts = remote?.hosts() ?? {};
  if (named) {
    if (named === LOCAL_HOST) return null;
    if (!hosts[named]) {
      const defined = Object.keys(hosts);
      throw new TeamError('invalid', `unknown host "${named}": ${defined.length ? `the hosts defined are ${defined.join(', ')}` : 'no hosts are defined'} (user settings "hosts")`);
    }
    const live = liveOn.get(named) ?? 0;
    if (live >= hosts[named].maxTeammates) throw new TeamError('conflict', `host "${named}" already runs ${live} teammates (its maxTeammates)`);
    return named;
  }
  if (remote?.placement() !== 'spread') return null;
  let best: string | null = null;
  for (const [name, h] of Object.entries(hosts)) {
    if (name === LOCAL_HOST) continue; // its next spawn, named local, would run here: never placed there
    const live = liveOn.get(name) ?? 0;
    if (live < h.maxTeammates && (best === null || live < (liveOn.get(best) ?? 0))) best = name;
  }
  return best;
}

/**
 * Every remote teammate's `team/<name>` fetched into the lead's repository (before a diff or a merge): one line
 * per host that could not be reached, the others fetched all the same.
 */
export async function fetchRemoteBranches(remote: RemoteTeammates | undefined, team: Pick<TeammateStore, 'config'>, only?: string[]): Promise<string[]> {
  if (!remote) return [];
  const cfg = await team.config.load();
  const failed: string[] = [];
  for (const m of cfg?.members ?? []) {
    if (!m.host || !m.clone || (only?.length && !only.includes(m.name))) continue;
    await remote.fetch(m.name, m.host, m.clone).catch((err: Error) => failed.push(err.message));
  }
  return failed;
}
