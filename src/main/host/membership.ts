import fs from 'node:fs';
import path from 'node:path';
import { localSettingsPath } from '../../core/agent/settings.js';
import { assertMemberName, deriveState, isLive, LEAD, leaseHeldByLive, TeamError, USER, type TeamConfig, type TeamStore } from '../../core/store/index.js';
import { sendFrame } from '../../core/teams/protocol.js';
import { TeamSession } from '../../core/teams/session.js';
import { spawnTeammate } from '../../core/teams/spawn.js';
import { worktreeSettings } from '../../core/teams/bootstrap.js';
import type { MemberSpec } from '../../contract/api.js';
import type { StoredPermissionMode } from '../../contract/settings-schema.js';
import { LOCAL_HOST, placeTeammate, type RemoteTeammates } from '../../core/teams/remote-placement.js';

export interface MembershipOptions {
  workspace: string;
  store: TeamStore;
  /** argv of the lead: its first word runs thclaws, the rest (provider, script) every teammate inherits. */
  leadArgv: string[];
  maxLiveTeammates: () => number;
  /** The settings' model per role: a member started here runs its role's model, as a lead's spawn does. */
  roleModels?: () => Readonly<Record<string, string>>;
  env?: Record<string, string>;
  /** The user's hosts (docs/remote.md): where Add member may place a teammate, and how Start reaches it there. */
  remote?: RemoteTeammates;
}

/**
 * The team from the GUI, with the membership rules: a team is created once; `lead` and `user` are
 * reserved, as is any name a removed member had; a member is edited or removed only while not live, and removed
 * only when it owns no unfinished task; a removed member's inbox and history are moved aside, never deleted.
 * Starting goes through the runtime's own spawn (its cap, guards, sandbox and epoch). The lead is told of every
 * change by a `team_changed` frame.
 */
export class Membership {
  constructor(private readonly o: MembershipOptions) {}

  get remote(): RemoteTeammates | undefined {
    return this.o.remote;
  }

  private get store(): TeamStore {
    return this.o.store;
  }

  async createTeam(name: string, description: string): Promise<void> {
    await this.store.config.create({ name: name.trim(), description: description.trim() || null });
    await this.tellLead(`the person created team "${name.trim()}"${description.trim() ? `: ${description.trim()}` : ''}`, { change: 'team_created' });
  }

  async add(name: string, spec: MemberSpec): Promise<void> {
    this.assertNewName(name);
    this.assertHost(spec.host);
    await this.store.config.addMember({ name, ...this.configFields(spec) });
    this.writePermissionMode(name, spec.permission_mode);
    await this.tellLead(`the person added teammate ${name} (${describe(spec)})`, { change: 'member_added', member: name });
  }

  async edit(name: string, spec: Partial<MemberSpec>): Promise<void> {
    const cfg = await this.store.config.require();
    const current = cfg.members.find((m) => m.name === name);
    if (!current) throw new TeamError('not_found', `${name} is not a member of team "${cfg.name}"`);
    await this.assertNotLive(name, 'edit');
    // Only a new host is checked: one since removed from the settings must not block editing the rest (Start says why).
    if ((spec.host ?? null) !== (current.host ?? null)) this.assertHost(spec.host);
    const merged = { ...this.specOf(current, this.permissionModes()), ...spec };
    await this.store.config.update((c) => {
      const m = c.members.find((x) => x.name === name);
      if (!m) return;
      // Moved to another machine: its clone there is made at its next start (the old one's work came home at each completion).
      if ((merged.host ?? null) !== (m.host ?? null)) m.clone = null;
      Object.assign(m, this.configFields(merged));
    });
    if (spec.permission_mode) this.writePermissionMode(name, spec.permission_mode);
    await this.tellLead(`the person changed teammate ${name} (${describe(merged)})`, { change: 'member_edited', member: name });
  }

  async remove(name: string): Promise<void> {
    const cfg = await this.store.config.require();
    if (!cfg.members.some((m) => m.name === name)) throw new TeamError('not_found', `${name} is not a member of team "${cfg.name}"`);
    await this.assertNotLive(name, 'remove');
    const owned = (await this.store.tasks.list()).filter((t) => t.status !== 'completed' && !(t as Record<string, unknown>).cancelled && (t.owner === name || (t.status === 'pending' && t.reserved_for === name)));
    if (owned.length) {
      throw new TeamError('conflict', `${name} still owns unfinished task${owned.length > 1 ? 's' : ''} ${owned.map((t) => `#${t.id}`).join(', ')}: reassign or cancel ${owned.length > 1 ? 'them' : 'it'} first`);
    }
    await this.store.config.update((c) => {
      c.members = c.members.filter((m) => m.name !== name);
    });
    const where = this.store.archiveMember(name);
    await this.tellLead(`the person removed teammate ${name}; its inbox and history are kept in ${path.relative(this.o.workspace, where)}`, { change: 'member_removed', member: name });
  }

  /** Starts a member through the runtime's spawn, as a host-served teammate (a live pane here); `resume` continues a saved session. */
  async start(name: string, resume?: string): Promise<void> {
    const [bin, ...childFlags] = this.o.leadArgv;
    const session = new TeamSession({
      projectRoot: this.o.workspace,
      teamDir: this.store.dir,
      cwd: this.o.workspace,
      role: 'solo',
      teammateMode: 'host',
      teammateModeFixedBy: 'the dashboard runs every teammate in its own pane',
      selfArgv: [bin!],
      childFlags,
      defaultModel: '',
      maxLiveTeammates: this.o.maxLiveTeammates(),
      ...(this.o.roleModels ? { roleModels: this.o.roleModels() } : {}),
      ...(this.o.env ? { childEnv: this.o.env } : {}),
      ...(this.o.remote ? { remote: this.o.remote } : {}),
      worktree: () => worktreeSettings(this.o.workspace),
    });
    await spawnTeammate(session, { name, ...(resume ? { resumeSession: resume } : {}) });
    await this.tellLead(`the person ${resume ? 'resumed' : 'started'} teammate ${name}`, { change: resume ? 'member_resumed' : 'member_started', member: name });
  }

  /** Each member's definition as the manager shows it. */
  async specs(): Promise<Record<string, MemberSpec>> {
    const cfg = await this.store.config.load().catch(() => null);
    const modes = this.permissionModes();
    return Object.fromEntries((cfg?.members ?? []).map((m) => [m.name, this.specOf(m, modes)]));
  }

  private specOf(m: TeamConfig['members'][number], modes: Record<string, StoredPermissionMode>): MemberSpec {
    return {
      role: m.role,
      prompt: m.prompt,
      model: m.model ?? null,
      isolation: m.isolation === 'worktree' ? 'worktree' : 'shared',
      plan_mode: (m as Record<string, unknown>).plan_mode_required === true,
      permission_mode: modes[m.name] ?? 'ask',
      host: m.host ?? null,
    };
  }

  private configFields(spec: Partial<MemberSpec>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (spec.role !== undefined) out.role = spec.role;
    if (spec.prompt !== undefined) out.prompt = spec.prompt;
    if (spec.model !== undefined) out.model = spec.model?.trim() || null;
    if (spec.isolation !== undefined) out.isolation = spec.isolation === 'worktree' ? 'worktree' : 'none';
    if (spec.plan_mode !== undefined) out.plan_mode_required = spec.plan_mode;
    // "local" is this machine (as SpawnTeammate's): kept as no host, so the form never shows a clone elsewhere.
    if (spec.host !== undefined) out.host = spec.host === LOCAL_HOST ? null : spec.host;
    return out;
  }

  /** A host must be one of the user's (the same one-line refusal as SpawnTeammate's). */
  private assertHost(host: string | null | undefined): void {
    if (host) placeTeammate(this.o.remote, host, null, new Map());
  }

  private assertNewName(name: string): void {
    assertMemberName(name);
    if (name === LEAD || name === USER) throw new TeamError('invalid', `"${name}" is reserved: choose another name`);
    if (this.store.removedMemberNames().has(name)) throw new TeamError('conflict', `"${name}" belonged to a removed member whose history is kept: choose another name`);
  }

  private async assertNotLive(name: string, what: 'edit' | 'remove'): Promise<void> {
    const state = deriveState(await this.store.statuses.read(name).catch(() => null));
    if (isLive(state)) throw new TeamError('conflict', `${name} is ${state}: stop it before you ${what} it`);
    // A member that wrote "stopped" is on its way out: its process still holds the lease for the moments it takes to
    // exit, so the person who clicks Remove as the badge turns is not refused (bounded: a stuck exit is refused below).
    if (state === 'stopped') await leaseReleased(() => leaseHeldByLive(this.store.paths, name), STOPPING_EXIT_MS);
    // A stalled process (stopped, paused) stops beating and reads dead, but holds its lease and resumes as this member.
    if (leaseHeldByLive(this.store.paths, name)) throw new TeamError('conflict', `${name} is still running (its process holds its lease, though it stopped reporting): stop it before you ${what} it`);
  }

  /** The person's per-teammate permission mode lives in the local settings (never committed), where the runtime reads it. */
  private permissionModes(): Record<string, StoredPermissionMode> {
    const raw = readJson(localSettingsPath(this.o.workspace));
    const all = (raw.teammates && typeof raw.teammates === 'object' ? raw.teammates : {}) as Record<string, { permissionMode?: unknown }>;
    return Object.fromEntries(Object.entries(all).flatMap(([n, v]) => (v?.permissionMode === 'auto' || v?.permissionMode === 'ask' ? [[n, v.permissionMode]] : [])));
  }

  private writePermissionMode(name: string, mode: StoredPermissionMode): void {
    const file = localSettingsPath(this.o.workspace);
    const raw = readJson(file);
    const all = (raw.teammates && typeof raw.teammates === 'object' ? raw.teammates : {}) as Record<string, Record<string, unknown>>;
    if ((all[name]?.permissionMode ?? 'ask') === mode) return;
    raw.teammates = { ...all, [name]: { ...all[name], permissionMode: mode } };
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `${JSON.stringify(raw, null, 2)}\n`);
    fs.renameSync(tmp, file);
  }

  private async tellLead(summary: string, fields: Record<string, unknown>): Promise<void> {
    await sendFrame(this.store, USER, LEAD, 'team_changed', { summary, ...fields });
  }
}

function describe(spec: Partial<MemberSpec>): string {
  return [
    spec.role ? `role ${spec.role}` : null,
    spec.model ? `model ${spec.model}` : null,
    spec.isolation === 'worktree' ? 'own worktree' : 'shared folder',
    spec.plan_mode ? 'plans first' : null,
    spec.host ? `on ${spec.host}` : null,
    spec.permission_mode === 'auto' ? 'no permission prompts' : 'asks before Write/Edit/Bash',
  ]
    .filter(Boolean)
    .join(', ');
}

function readJson(file: string): Record<string, unknown> {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new TeamError('invalid', `${file} is not valid JSON: fix or delete it first`);
  }
}

/** How long a member that wrote "stopped" is given to exit before Remove/Edit is refused. */
const STOPPING_EXIT_MS = 10_000;

async function leaseReleased(held: () => boolean, withinMs: number): Promise<void> {
  for (const end = Date.now() + withinMs; held() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
}
