/**
 * SpawnTeammate: validate, pick the mode, prepare the worktree, write the initial prompt once per spawn
 * id, launch through a TeammateLauncher (or a spawn request for a host), and verify the boot. A failed
 * spawn leaves no ghost: the child is killed, the prompt acknowledged, the request removed.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { assertMemberName, deriveState, isLive, LEAD, leaseHeldByLive, selfProcess, TeamError } from '../store/index.js';
import { assertInside } from './paths.js';
import type { LaunchedTeammate, SpawnRequest, TeammateLauncher } from './launcher.js';
import { BackgroundLauncher } from './launchers/background.js';
import { TmuxLauncher, tmuxAvailable } from './launchers/tmux.js';
import { TEAM_POLICY } from '../../contract/policy.js';
import { spawnModel } from '../agent/model-choice.js';
import type { TeammateMode, TeamSession } from './session.js';
import { refuseOnLowMemory } from './memory-floor.js';
import { readyWorktree } from './bootstrap.js';
import { assignPorts, portEnv } from './ports.js';
import { WorktreeSettingsSchema } from '../../contract/settings-schema.js';
import { placeTeammate, type RemoteLaunch } from './remote-placement.js';

export interface SpawnInput {
  name: string;
  prompt?: string;
  cwd?: string;
  model?: string;
  teammateMode?: TeammateMode;
  /** Start in plan mode (THCLAWS_PLAN_MODE=1); kept on the member so a respawn plans again. */
  planModeRequired?: boolean;
  /** Why plan mode was set, when the runtime set it (journaled, and said in the spawn result). */
  planModeReason?: string;
  /** A saved session of this member to continue (`--resume`): the conversation goes on where it was. */
  resumeSession?: string;
  /** The host of the user's settings it runs on (`local`: this machine); kept on the member for respawns. */
  host?: string;
}

export interface SpawnOutcome {
  agent: string;
  spawn_id: string;
  mode: 'background' | 'tmux' | 'host';
  pid: number | null;
  cwd: string;
  model: string | null;
  worktree: boolean;
  bootMs: number;
  where: string;
}

/** Variables a teammate takes from the launching process by name (values never written to spawn.json). */
export const INHERITED_ENV = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LC_ALL', 'TERM', 'TMPDIR', 'TZ', 'XDG_CONFIG_HOME', 'NO_COLOR', 'ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL', 'GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL'];

/** Launchers this lead process owns, one per mode, created on first use. */
const launchers = new WeakMap<TeamSession, Map<string, TeammateLauncher>>();
function launcherFor(session: TeamSession, mode: 'background' | 'tmux'): TeammateLauncher {
  let m = launchers.get(session);
  if (!m) launchers.set(session, (m = new Map()));
  let l = m.get(mode);
  if (!l) m.set(mode, (l = mode === 'tmux' ? new TmuxLauncher(session.store) : new BackgroundLauncher(session.store)));
  return l;
}

export function resolveMode(mode: TeammateMode): 'background' | 'tmux' | 'host' {
  if (mode === 'host' || mode === 'background') return mode;
  if (mode === 'tmux') {
    if (!tmuxAvailable()) throw new TeamError('invalid', 'teammateMode "tmux": tmux is not installed');
    return 'tmux';
  }
  return tmuxAvailable() ? 'tmux' : 'background';
}

export async function spawnTeammate(session: TeamSession, input: SpawnInput): Promise<SpawnOutcome> {
  const name = assertMemberName(input.name.trim());
  if (input.resumeSession !== undefined && !/^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/.test(input.resumeSession)) throw new TeamError('invalid', `invalid session id "${input.resumeSession.slice(0, 80)}"`);
  const store = session.store;
  const cfg = await store.config.require();
  let member = cfg.members.find((m) => m.name === name);
  if (!member) {
    await store.config.addMember({ name, role: '', prompt: '' });
    member = (await store.config.require()).members.find((m) => m.name === name)!;
  }
  const prior = await store.statuses.read(name);
  const state = deriveState(prior);
  if (isLive(state) && state !== 'spawning') throw new TeamError('conflict', `teammate '${name}' is already running (${state}); one process per name`);
  if (state === 'spawning' && prior && Date.now() - prior.last_heartbeat < TEAM_POLICY.bootTimeoutMs + 2000) {
    throw new TeamError('conflict', `a spawn of '${name}' is already in progress${prior.spawner ? ` (by pid ${prior.spawner.pid} on ${prior.spawner.host})` : ''}`);
  }
  // A void spawn (its spawner died) may still have started its child: that process holds the name's lease.
  if (leaseHeldByLive(store.paths, name)) throw new TeamError('conflict', `teammate '${name}' is already running (a live process holds its lease); one process per name`);
  let live = 0;
  const liveOn = new Map<string, number>();
  for (const m of cfg.members) {
    if (m.name === name || !isLive(deriveState(await store.statuses.read(m.name)))) continue;
    live++;
    if (m.host) liveOn.set(m.host, (liveOn.get(m.host) ?? 0) + 1);
  }
  if (live >= session.opts.maxLiveTeammates) {
    throw new TeamError('conflict', `${live} teammates are already live (limit ${session.opts.maxLiveTeammates}, setting maxLiveTeammates): stop one or reuse it`);
  }
  const host = placeTeammate(session.opts.remote, input.host, member.host, liveOn);
  if (!host) refuseOnLowMemory(session, name);
  // A teammate on another machine is started by the workspace's host (its pty runs the ssh; its store is the host's).
  const mode = host ? 'host' : resolveMode(session.opts.teammateModeFixedBy ? session.opts.teammateMode : (input.teammateMode ?? session.opts.teammateMode));
  // The model named for this spawn or this member, else the role's (settings roleModels), else the child's default.
  const model = spawnModel({ requested: input.model, member: member.model, role: member.role, roleModels: session.opts.roleModels });
  const planMode = input.planModeRequired === true || member.plan_mode_required === true;
  if (planMode && input.planModeReason) store.journal.record({ event: 'note', file: store.paths.config, reason: `${name} starts in plan mode: ${input.planModeReason}` });
  if (input.planModeRequired && !member.plan_mode_required) {
    await store.config.update((c) => {
      const m = c.members.find((x) => x.name === name);
      if (m) m.plan_mode_required = true;
    });
  }
  const worktree = !host && member.isolation === 'worktree';
  const root = session.projectRoot;
  const wtSettings = session.opts.worktree?.() ?? WorktreeSettingsSchema.parse({});
  const ports = portEnv(await assignPorts(store, name, wtSettings.portBase));
  const cwd = worktree
    ? await readyWorktree({ store, name, root, settings: wtSettings, env: { ...session.opts.childEnv, ...ports } })
    : input.cwd ? assertInside(root, path.resolve(root, input.cwd)) : root;

  const spawnId = randomUUID();
  const prompt = [member.prompt, input.prompt].filter((p) => p?.trim()).join('\n\n');
  const teamDir = store.dir;
  // No permission flags: a teammate's mode is the team's setting for it, never the lead's own --accept-all.
  const argv = [...session.opts.selfArgv, '--team-agent', name, '--team-dir', teamDir, ...session.opts.childFlags, ...(model ? ['--model', model] : []), ...(input.resumeSession ? ['--resume', input.resumeSession] : [])];
  const env: Record<string, string> = {
    THCLAWS_TEAM_AGENT: name,
    THCLAWS_TEAM_DIR: teamDir,
    THCLAWS_PROJECT_ROOT: root,
    THCLAWS_SPAWN_ID: spawnId,
    EDITOR: 'true',
    VISUAL: 'true',
    GIT_EDITOR: 'true',
    GIT_SEQUENCE_EDITOR: 'true',
    ...(worktree ? { THCLAWS_IN_WORKTREE: '1' } : {}),
    ...(planMode ? { THCLAWS_PLAN_MODE: '1' } : {}),
    ...ports,
    ...session.opts.childEnv,
  };
  let remote: RemoteLaunch | undefined;
  if (host) {
    const own = Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'THCLAWS_TEAM_DIR' && k !== 'THCLAWS_PROJECT_ROOT' && k !== 'HOME'));
    const args = [...session.opts.childFlags, ...(model ? ['--model', model] : []), ...(input.resumeSession ? ['--resume', input.resumeSession] : [])];
    // Before any state is written: a host that cannot be reached is one line and leaves nothing behind.
    remote = await session.opts.remote!.prepare({ host, agent: name, team: cfg.name, spawnId, env: { ...own, THCLAWS_IN_WORKTREE: '1' }, args });
    await store.config.update((c) => {
      const m = c.members.find((x) => x.name === name);
      if (m) Object.assign(m, { host, clone: remote!.clone });
    });
  } else if (member.host) {
    await store.config.update((c) => {
      const m = c.members.find((x) => x.name === name);
      if (m) Object.assign(m, { host: null, clone: null });
    });
  }
  // A remote teammate's request runs its ssh here: the teammate's own variables are on that ssh's command line.
  const launch = remote
    ? { argv: remote.argv, env: { THCLAWS_REMOTE_HOST: host!, THCLAWS_SPAWN_ID: spawnId }, inherit_env: remote.inheritEnv }
    : { argv, env, inherit_env: [...new Set([...INHERITED_ENV, ...(session.opts.inheritEnv ?? [])])] };
  const req: SpawnRequest & { inherit_env: string[] } = { spawn_id: spawnId, agent: name, cwd, ...launch, team_dir: teamDir, requested_at: Date.now(), ...(model ? { model } : {}) };

  // The lead's MCP servers reach the teammate through its agent dir (owner-only: configs may hold tokens).
  store.memberMcp.write(name, session.opts.childMcpServers?.() ?? {});
  // The spawner is named so that, should this process die before the child boots, the spawn is void at once.
  await store.statuses.write(name, { status: 'spawning', spawn_id: spawnId, model, pid: null, pid_start: null, current_task: null, spawner: selfProcess() } as never);
  const [initial] = prompt ? await store.send(LEAD, name, prompt, { summary: `initial prompt for ${name}`, extra: { spawn_id: spawnId, initial: true } }) : [];

  const started = Date.now();
  let launched: LaunchedTeammate | undefined;
  try {
    if (mode === 'host') {
      await store.spawnRequests.write({ ...req, model });
    } else {
      launched = await launcherFor(session, mode).launch(req);
    }
    await verifyBoot(session, name, spawnId, launched, !!remote);
  } catch (err) {
    launched?.kill('SIGKILL');
    if (mode === 'host') {
      const r = await store.spawnRequests.read(name);
      if (r?.spawn_id === spawnId && r.served_pid) {
        try {
          process.kill(-r.served_pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
      await store.spawnRequests.remove(name, spawnId);
    }
    if (initial) await store.inboxes.markRead(name, [initial.id]);
    // Only this spawn's own status is marked failed, decided under the status lock: a concurrent spawn whose
    // teammate booted meanwhile keeps its state.
    await store.statuses.writeIfSpawn(name, spawnId, { status: 'stopped', pid: null, last_error: (err as Error).message } as never);
    throw err;
  }
  if (launched) session.children.set(name, launched);
  await store.config.update((c) => {
    const m = c.members.find((x) => x.name === name);
    if (m) m.is_active = true;
  });
  const where = remote?.where ?? launched?.where ?? (mode === 'host' ? 'by the team host' : 'as background process');
  // A host-served teammate's pid is the one its booted process wrote in its status.
  const pid = launched?.pid ?? (await store.statuses.read(name).catch(() => null))?.pid ?? null;
  return { agent: name, spawn_id: spawnId, mode, pid, cwd, model, worktree, bootMs: Date.now() - started, where };
}

/** Live = the status left `spawning` carrying this spawn id; a child that exits first is a boot failure. */
async function verifyBoot(session: TeamSession, name: string, spawnId: string, child: LaunchedTeammate | undefined, remote = false): Promise<void> {
  const store = session.store;
  // On another machine: ssh's connect and the clone's checkout come first; its pid is that machine's (the spawn id alone tells).
  const bootMs = remote ? TEAM_POLICY.bootTimeoutMs * 3 : TEAM_POLICY.bootTimeoutMs;
  const deadline = Date.now() + bootMs;
  let exited: { code: number | null; signal: string | null } | undefined;
  void child?.exited.then((e) => (exited = e));
  const tail = () => store.outputs.tail(name, TEAM_POLICY.bootTailLines, spawnId) || '(no output)';
  for (;;) {
    const st = (await store.statuses.read(name)) as (Record<string, unknown> & { status: string; pid?: number | null }) | null;
    const req = child ? null : await store.spawnRequests.read(name);
    // The status must be this spawn's and written by this spawn's process (its pid, or its parent's when the
    // launcher wraps it), not a concurrent one's.
    const pid = child?.pid ?? (req?.spawn_id === spawnId ? req.served_pid : null);
    if (st && st.spawn_id === spawnId && st.status !== 'spawning' && (!pid || remote || st.pid === pid || st.parent_pid === pid)) {
      if (st.status === 'stopped') throw new TeamError('conflict', `teammate '${name}' stopped during boot.\noutput.log tail:\n${tail()}`);
      return;
    }
    if (exited) {
      await new Promise((r) => setTimeout(r, 50));
      throw new TeamError('conflict', `teammate '${name}' exited immediately (${exited.signal ?? `code ${exited.code}`}) — never booted.\noutput.log tail:\n${tail()}`);
    }
    if (req?.spawn_id === spawnId && req.error) throw new TeamError('conflict', `the host could not start '${name}': ${req.error}`);
    if (Date.now() > deadline) {
      const why = !child && !req?.served_at ? ' (no host picked up the spawn request: is `thclaws host` or a dashboard running?)' : '';
      throw new TeamError('conflict', `teammate '${name}' did not come up within ${bootMs / 1000} s${why}.\noutput.log tail:\n${tail()}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}
