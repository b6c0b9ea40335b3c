/**
 * Agent Teams wiring of the CLI: the role (lead / teammate), the role guard, the team tools, the team
 * system prompt. With `teamEnabled: false` and no `--team-agent` nothing here runs and nothing is written
 * under `.thclaws/state/team`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { AgentCliOptions } from './options.js';
import { CliError } from '../errors.js';
import { registerAgentHooks, type RuntimeInfo } from './hooks.js';
import { serversForTeammates } from './mcp-setup.js';
import { outsideWorktrees } from '../../core/teams/roots.js';
import type { TeamSession, TeamSessionOptions } from '../../core/teams/session.js';
import { TEAMMATE_MODE_ENV } from '../../core/teams/mode-env.js';
import type { CommandGuard } from '../../core/guard/types.js';
import type { Tool } from '../../core/agent/types.js';
import { teammateBranch } from '../../contract/branch.js';
import { PORT_BLOCK } from '../../contract/settings-schema.js';
import { leadPorts, portEnv, portsInstruction } from '../../core/teams/ports.js';

let active: TeamSession | undefined;
let leadBudget: { check(): Promise<string | undefined> } | undefined;

/**
 * The lead's spending guard: its own limit (the dashboard's budget row, or `thclaws team budget lead`). The team's
 * limit stops the teammates, and the lead then ends its run naming it (print.ts): not checked here. Said on stderr,
 * so `-p --output-format json` keeps its stdout.
 */
async function leadBudgetGuard(session: TeamSession): Promise<{ check(): Promise<string | undefined> }> {
  const [{ BudgetGuard, settingsBudgets }, { loadSettings }] = await Promise.all([import('../../core/teams/budget-guard.js'), import('../../core/agent/settings.js')]);
  const initial = loadSettings(session.projectRoot).settings.budgets;
  return new BudgetGuard(session, settingsBudgets(session.projectRoot, process.env, initial), (line) => process.stderr.write(`${line}\n`), () => true, true);
}

/** The process's team session, when team mode is on. */
export function activeTeamSession(): TeamSession | undefined {
  return active;
}

function teamDirOf(projectRoot: string): string {
  const env = process.env.THCLAWS_TEAM_DIR;
  return env ? path.resolve(projectRoot, env) : path.join(projectRoot, '.thclaws', 'state', 'team');
}

/** Flags a teammate inherits from the lead so it talks to the same kind of model. */
function childFlags(opts: AgentCliOptions): string[] {
  const out: string[] = [];
  if (opts.provider) out.push('--provider', opts.provider);
  if (opts.script) out.push('--script', path.resolve(opts.script));
  return out;
}

export function registerTeamHooks(opts: AgentCliOptions): void {
  // Read once and removed: it binds this process only, never a thclaws a person or the model runs in its Bash.
  const forcedMode = process.env[TEAMMATE_MODE_ENV];
  delete process.env[TEAMMATE_MODE_ENV];
  // A teammate whose team state is the lead's host's (docs/remote.md): also read once, for this process only.
  const via = process.env.THCLAWS_TEAM_VIA;
  delete process.env.THCLAWS_TEAM_VIA;
  let guard: CommandGuard | undefined;
  let tools: Tool<any>[] = [];
  let addenda: string[] = [];
  registerAgentHooks({
    role(info) {
      if (info.agentName || !info.settings.teamEnabled) return undefined;
      // A person's session in a project with a team is that team's lead.
      return existsSync(path.join(teamDirOf(outsideWorktrees(info.projectRoot)), 'config.json')) ? 'lead' : undefined;
    },
    async prepare(info) {
      if (!info.agentName && !info.settings.teamEnabled) return;
      const [{ TeamSession }, { createCommandGuard }, { roleGuard }, { teamToolsFor }, { TeamError }, { worktreeSettings }] = await Promise.all([
        import('../../core/teams/session.js'),
        import('../../core/guard/index.js'),
        import('../../core/teams/role-guard.js'),
        import('../../core/teams/tools/index.js'),
        import('../../core/store/index.js'),
        import('../../core/teams/bootstrap.js'),
      ]);
      const projectRoot = outsideWorktrees(info.projectRoot);
      const { HooksSchema } = await import('../../core/teams/hooks.js');
      const hooksParsed = HooksSchema.safeParse(info.settings.hooks);
      if (!hooksParsed.success) {
        const issue = hooksParsed.error.issues[0]!;
        throw new CliError(`invalid settings: key "hooks.${issue.path.join('.')}": ${issue.message}`, 2);
      }
      const settings = info.settings;
      const viaHost = info.role === 'teammate' ? await hostStoreFor(via, info.agentName!) : undefined;
      // The lead's teammates may run on the user's hosts (docs/remote.md): none of that for a teammate.
      const remote = info.role !== 'teammate' ? (await import('../../main/remote/host-remote.js')).remoteTeammatesFor(projectRoot, process.env, () => settings) : undefined;
      const session = new TeamSession({
        ...(viaHost ? { viaHost } : {}),
        ...(remote ? { remote } : {}),
        projectRoot,
        teamDir: teamDirOf(projectRoot),
        cwd: info.cwd,
        ...(info.agentName ? { agentName: info.agentName } : {}),
        role: info.role,
        ...teammateModeFor(info.settings.teammateMode, forcedMode),
        selfArgv: [process.execPath, ...process.execArgv, process.argv[1]!],
        childFlags: childFlags(opts),
        childMcpServers: serversForTeammates,
        defaultModel: info.settings.model,
        maxLiveTeammates: settings.maxLiveTeammates,
        roleModels: settings.roleModels,
        // A teammate on a provider profile reads its key from the same variable the lead has.
        inheritEnv: Object.values(settings.providers).flatMap((p) => (p.apiKeyEnv ? [p.apiKeyEnv] : [])),
        approvers: { permission: settings.permissionApprover, plan: settings.planApprover },
        hooks: hooksParsed.data,
        // Read again at each spawn: a setup command or port base set in the dashboard applies to the next teammate.
        worktree: () => worktreeSettings(projectRoot),
      });
      try {
        if (info.role === 'teammate') await session.holdLease(info.agentName!);
        // Through the lead's host: its model variables, in this process's memory before the provider is made (its
        // commands never get them: spawn.ts drops the agent's credentials).
        if (viaHost) Object.assign(process.env, viaHost.modelEnv);
        if (info.role === 'lead') await session.becomeLead();
      } catch (err) {
        if (err instanceof TeamError) throw new CliError(err.message);
        throw err;
      }
      let branch: string | undefined;
      if (info.role === 'teammate') {
        const wt = session.worktreePath(info.agentName!);
        const rel = path.relative(wt, info.cwd);
        if (existsSync(wt) && !rel.startsWith('..') && !path.isAbsolute(rel)) {
          info.sandboxRoot = wt;
          branch = teammateBranch(info.agentName!);
        }
      }
      guard = roleGuard(session, createCommandGuard, { workspaceRoot: projectRoot, cwd: info.cwd, ...(info.agentName ? { agentName: info.agentName } : {}), ...(branch ? { branch } : {}) });
      tools = teamToolsFor(session);
      // The lead's own block of ports, in its environment and so in its commands' (a teammate's comes from its spawn).
      if (info.role !== 'teammate') Object.assign(process.env, portEnv(leadPorts(settings.worktree.portBase)));
      else if (!process.env.THCLAWS_PORT_BASE) {
        // Started by another path than SpawnTeammate (a person, a host's respawn): its recorded block still holds.
        const own = (await session.team.config.load())?.members.find((m) => m.name === info.agentName)?.ports;
        if (own) Object.assign(process.env, portEnv(own));
      }
      addenda = [await teamAddendum(session, info, branch)];
      active = session;
      if (info.interactive && info.role !== 'teammate') (await import('./team-repl.js')).registerTeamRepl(session);
    },
    guard: () => guard,
    wrapTools: (list) => {
      if (active) preToolUse(active, list);
    },
    tools: () => tools,
    systemAddenda: () => addenda,
    onUsage: (usage, costUsd) => {
      active?.health.onSuccess();
      void active?.recordUsage(usage, costUsd);
    },
    onRetry: (info) => active?.health.onRetry(info),
    onTurn: (working, result) => void active?.leadTurn(working, result),
    onSession: (id) => {
      if (active) active.sessionId = id;
    },
    // The lead keeps its own limit as a teammate does; a teammate's loop checks its own.
    beforeModelCall: async () => (active?.role === 'lead' ? (leadBudget ??= await leadBudgetGuard(active)).check() : undefined),
  });
}

async function teamAddendum(session: TeamSession, info: RuntimeInfo, branch: string | undefined): Promise<string> {
  const cfg = await session.team.config.load();
  const members = cfg ? ['- lead (team coordinator)', ...cfg.members.map((m) => `- ${m.name}${m.role ? ` (${m.role})` : ''}`)].join('\n') : '(no team yet)';
  const base = Number(process.env.THCLAWS_PORT_BASE);
  const ports = Number.isInteger(base) && base > 0 ? { base, count: PORT_BLOCK } : null;
  if (session.role === 'teammate') {
    return [
      `# Agent Team`,
      `You are teammate "${session.me}" in team "${cfg?.name ?? '?'}". Members:\n${members}`,
      `Your working directory: ${info.cwd}${branch ? ` — your own git worktree on branch ${branch}: commit your work there (git add + git commit) before TeamTaskComplete.` : ''}`,
      'Tasks and messages are delivered to you as turns. When a task is done, call TeamTaskComplete with its task_id and a one-line summary.',
      'Ask the lead with SendMessage to "lead" when blocked. Never write under .thclaws/ or into another teammate\'s worktree.',
      ...(ports ? [portsInstruction(ports)] : []),
    ].join('\n\n');
  }
  const { LEAD_RULES } = await import('../../core/teams/tools/team-tools.js');
  return ['# Agent Team', cfg ? `You lead team "${cfg.name}". Members:\n${members}` : 'Agent Teams are on: TeamCreate makes you the lead of a new team.', ...(cfg ? [LEAD_RULES] : []), ...(ports ? [portsInstruction(ports)] : [])].join('\n\n');
}

/** The host-backed store of a teammate started with `THCLAWS_TEAM_VIA=host:<socket>`; none without it. */
async function hostStoreFor(via: string | undefined, agent: string) {
  const [{ teamVia, connectStoreSocket }, { HostStore }] = await Promise.all([import('../../main/daemon/store-link.js'), import('../../core/store/host-store.js')]);
  let at: { socket: string } | null;
  try {
    at = teamVia(via);
  } catch (err) {
    throw new CliError((err as Error).message, 2);
  }
  return at ? new HostStore({ agent, connect: () => connectStoreSocket(at.socket) }) : undefined;
}

/** PreToolUse hooks run after a tool's input is valid and before its permission question; a refusal is the tool's error. */
function preToolUse(session: TeamSession, list: Tool<any>[]): void {
  if (!session.opts.hooks?.PreToolUse?.length) return;
  const run = import('../../core/teams/hooks.js').then((m) => m.sessionHooks(session));
  for (let i = 0; i < list.length; i++) {
    const t = list[i]!;
    const preflight = t.preflight?.bind(t);
    list[i] = {
      ...t,
      preflight: async (input, ctx) => {
        const v = await (await run)('PreToolUse', { agent: session.me, tool_name: t.name, tool_input: input }, t.name);
        if (v.blocked) return { content: v.blocked, isError: true };
        return preflight?.(input, ctx);
      },
    };
  }
}

/**
 * The desktop host starts its lead with THCLAWS_TEAMMATE_MODE=host: every teammate must come back to it as a
 * spawn request (a live pane), whatever the workspace setting or a SpawnTeammate call asks for.
 */
function teammateModeFor(setting: TeamSessionOptions['teammateMode'], forced: string | undefined): Pick<TeamSessionOptions, 'teammateMode' | 'teammateModeFixedBy'> {
  if (forced === 'host' || forced === 'background' || forced === 'tmux' || forced === 'auto') return { teammateMode: forced, teammateModeFixedBy: TEAMMATE_MODE_ENV };
  return { teammateMode: setting };
}
