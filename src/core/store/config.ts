import { ensureDir, parseJson, readTextFile, writeFileAtomic } from './fsio.js';
import type { Journal } from './journal.js';
import { withLock } from './lock.js';
import { assertMemberName, LEAD, USER } from './names.js';
import type { TeamPaths } from './paths.js';
import { ConfigSchema, describeIssues, type ConfigMember, ConfigMemberSchema, type TeamConfig } from '../../contract/store-schemas.js';
import { TeamError } from './errors.js';

export interface NewTeam {
  name: string;
  description?: string | null;
  members?: Array<Partial<ConfigMember> & { name: string }>;
}

/** `config.json`: locked read-modify-write and atomic save. */
export class TeamConfigFile {
  constructor(
    private readonly paths: TeamPaths,
    private readonly journal: Journal,
  ) {}

  /** null when there is no team; a corrupt config is quarantined (under the lock) and reads as no team. */
  async load(): Promise<TeamConfig | null> {
    const r = this.parse();
    if (r.kind === 'ok') return r.config;
    if (r.kind === 'missing') return null;
    await this.journal.quarantineIfStillBad(this.paths.config, () => {
      const again = this.parse();
      return again.kind === 'corrupt' ? again.reason : null;
    });
    return null;
  }

  async require(): Promise<TeamConfig> {
    const cfg = await this.load();
    if (!cfg) throw new TeamError('no_team', `no team in ${this.paths.root} (create one with \`thclaws team create\`)`);
    return cfg;
  }

  /** Creates the team; refuses to replace an existing one silently. */
  async create(team: NewTeam): Promise<TeamConfig> {
    const members = validateMembers(team.members ?? []);
    ensureDir(this.paths.root);
    return withLock(this.paths.config, (guard) => {
      const existing = this.parse();
      if (existing.kind === 'ok') throw new TeamError('conflict', `a team "${existing.config.name}" already exists in ${this.paths.root}`);
      if (existing.kind === 'corrupt') this.journal.quarantine(this.paths.config, existing.reason);
      const config: TeamConfig = { name: team.name, description: team.description ?? null, created_at: Date.now(), lead: LEAD, members };
      writeFileAtomic(this.paths.config, JSON.stringify(config, null, 2), { guard });
      return config;
    }, { journal: this.journal });
  }

  /** Locked read-modify-write of the config. */
  async update(change: (config: TeamConfig) => void): Promise<TeamConfig> {
    return withLock(this.paths.config, (guard) => {
      const r = this.parse();
      if (r.kind !== 'ok') throw new TeamError('no_team', `no readable team config in ${this.paths.root}`);
      change(r.config);
      const checked = ConfigSchema.parse(r.config);
      validateMembers(checked.members);
      writeFileAtomic(this.paths.config, JSON.stringify(checked, null, 2), { guard });
      return checked;
    }, { journal: this.journal });
  }

  async addMember(member: Partial<ConfigMember> & { name: string }): Promise<TeamConfig> {
    const [m] = validateMembers([member]);
    return this.update((cfg) => {
      if (cfg.members.some((x) => x.name === m!.name)) throw new TeamError('conflict', `member "${m!.name}" already exists`);
      cfg.members.push(m!);
    });
  }

  private parse(): { kind: 'ok'; config: TeamConfig } | { kind: 'missing' } | { kind: 'corrupt'; reason: string } {
    const r = readTextFile(this.paths.config);
    if (r.kind === 'missing') return r;
    if (r.kind === 'unreadable') return { kind: 'corrupt', reason: r.reason };
    const json = parseJson(r.text);
    if (!json.ok) return { kind: 'corrupt', reason: json.reason };
    const v = json.value as Record<string, unknown> | null;
    // thClaws wrote `lead_agent_id` and unix seconds.
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      if (v.lead === undefined && typeof v.lead_agent_id === 'string') v.lead = v.lead_agent_id;
      if (typeof v.created_at === 'number' && v.created_at < 1e11) v.created_at = v.created_at * 1000;
    }
    const res = ConfigSchema.safeParse(v);
    if (!res.success) return { kind: 'corrupt', reason: describeIssues(res.error) };
    return { kind: 'ok', config: res.data };
  }
}

function validateMembers(members: Array<Partial<ConfigMember> & { name: string }>): ConfigMember[] {
  const seen = new Set<string>();
  return members.map((m) => {
    assertMemberName(m.name);
    if (seen.has(m.name)) throw new TeamError('invalid', `duplicate member name "${m.name}"`);
    seen.add(m.name);
    return ConfigMemberSchema.parse(m);
  });
}

/** Names that may own tasks and receive messages: the members plus the lead and the person. */
export function knownNames(config: TeamConfig): string[] {
  return [LEAD, USER, ...config.members.map((m) => m.name)];
}
