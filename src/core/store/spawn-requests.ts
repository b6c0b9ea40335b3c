import { z } from 'zod';
import { ModelNameSchema } from '../../contract/model-name.js';
import { ensureDir, parseJson, readTextFile, writeFileAtomic } from './fsio.js';
import type { Journal } from './journal.js';
import { withLock } from './lock.js';
import { assertAgentName, isAgentName } from './names.js';
import type { TeamPaths } from './paths.js';
import { describeIssues } from '../../contract/store-schemas.js';
import { AGENT_NAME_PATTERN } from '../../contract/limits.js';
import fs from 'node:fs';
import { TeamError } from './errors.js';

/**
 * `agents/<name>/spawn.json`: a request for a host (`thclaws host`, the desktop TeamHost) to start a
 * teammate. Values of secrets never touch the disk: `env` holds only the team's own variables, and
 * `inherit_env` names the variables the host copies from its own environment.
 */
export const SpawnRequestSchema = z.looseObject({
  spawn_id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/),
  agent: z.string().regex(AGENT_NAME_PATTERN),
  argv: z.array(z.string().max(10_000)).min(1).max(200),
  cwd: z.string().min(1),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()),
  inherit_env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).optional(),
  team_dir: z.string().min(1),
  model: ModelNameSchema.nullish().catch(null),
  cols: z.number().int().positive().max(1000).optional(),
  rows: z.number().int().positive().max(1000).optional(),
  requested_at: z.number().int().nonnegative(),
  /** Set once by the host that launched it: a request is served at most once. */
  served_at: z.number().int().nonnegative().nullish(),
  served_pid: z.number().int().positive().nullish(),
  served_by: z.string().nullish(),
  /** Set by a host that could not start it; the spawner reports it. */
  error: z.string().nullish(),
});
export type StoredSpawnRequest = z.infer<typeof SpawnRequestSchema>;

export class SpawnRequests {
  constructor(
    private readonly paths: TeamPaths,
    private readonly journal: Journal,
  ) {}

  file(agent: string): string {
    return `${this.paths.agentDir(agent)}/spawn.json`;
  }

  /** Writes (replacing any earlier request for the agent). */
  async write(req: StoredSpawnRequest): Promise<StoredSpawnRequest> {
    assertAgentName(req.agent);
    const res = SpawnRequestSchema.safeParse(req);
    if (!res.success) throw new TeamError('invalid', `invalid spawn request: ${describeIssues(res.error)}`);
    ensureDir(this.paths.agentDir(req.agent));
    const file = this.file(req.agent);
    await withLock(file, () => writeFileAtomic(file, JSON.stringify(res.data, null, 2)));
    return res.data;
  }

  /** null when absent; a corrupt request is quarantined and reads as absent. */
  async read(agent: string): Promise<StoredSpawnRequest | null> {
    const file = this.file(agent);
    const r = this.parse(file);
    if (r.kind === 'ok') return r.req;
    if (r.kind === 'corrupt') {
      await withLock(file, () => {
        const again = this.parse(file);
        if (again.kind === 'corrupt') this.journal.quarantine(file, again.reason);
      });
    }
    return null;
  }

  /** Every agent that has a spawn.json right now. */
  agentsWithRequests(): string[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.paths.agentsDir);
    } catch {
      return [];
    }
    return names.filter((n) => isAgentName(n) && fs.existsSync(`${this.paths.agentsDir}/${n}/spawn.json`));
  }

  /**
   * Claims the request for one host if it is still this spawn id and not served yet; false when another
   * host got there first or the request changed: that is what makes serving exactly-once.
   */
  async claim(agent: string, spawnId: string, by: string): Promise<boolean> {
    const file = this.file(agent);
    return withLock(file, () => {
      const r = this.parse(file);
      if (r.kind !== 'ok' || r.req.spawn_id !== spawnId || r.req.served_at || r.req.error) return false;
      writeFileAtomic(file, JSON.stringify({ ...r.req, served_at: Date.now(), served_by: by }, null, 2));
      return true;
    });
  }

  /** Records the launch's outcome (pid or error) on the request, if it is still this spawn id. */
  async annotate(agent: string, spawnId: string, outcome: { pid?: number; error?: string }): Promise<void> {
    const file = this.file(agent);
    await withLock(file, () => {
      const r = this.parse(file);
      if (r.kind !== 'ok' || r.req.spawn_id !== spawnId) return;
      writeFileAtomic(file, JSON.stringify({ ...r.req, ...(outcome.pid ? { served_pid: outcome.pid } : {}), ...(outcome.error ? { error: outcome.error } : {}) }, null, 2));
    });
  }

  /** Removes the request if it still has this spawn id (or any, without one). */
  async remove(agent: string, spawnId?: string): Promise<boolean> {
    const file = this.file(agent);
    return withLock(file, () => {
      const r = this.parse(file);
      if (r.kind === 'missing') return false;
      if (spawnId && r.kind === 'ok' && r.req.spawn_id !== spawnId) return false;
      fs.rmSync(file, { force: true });
      return true;
    });
  }

  private parse(file: string): { kind: 'ok'; req: StoredSpawnRequest } | { kind: 'missing' } | { kind: 'corrupt'; reason: string } {
    const r = readTextFile(file);
    if (r.kind === 'missing') return r;
    if (r.kind === 'unreadable') return { kind: 'corrupt', reason: r.reason };
    const json = parseJson(r.text);
    if (!json.ok) return { kind: 'corrupt', reason: json.reason };
    const res = SpawnRequestSchema.safeParse(json.value);
    if (!res.success) return { kind: 'corrupt', reason: describeIssues(res.error) };
    return { kind: 'ok', req: res.data };
  }
}
