import os from 'node:os';
import { deriveState, LEAD, modelTrouble, usageOf, withNotDone, type AgentStatus, type Task, type TeamConfig } from '../../core/store/index.js';
import { chooseModel } from '../../core/agent/model-choice.js';
import { describeSandboxStatus, type SandboxStatus } from '../../core/sandbox/status.js';
import type { Member, SandboxView, SettingsView, TaskColumn, TaskView, TerminalMode } from '../../contract/api.js';

/** What the host knows about an agent besides its files. */
export interface HostSideInfo {
  /** A pty this host owns and that is still running. */
  pty: { pid: number } | null;
  /** This host started it once (so it knows how to start it again). */
  spawnedHere: boolean;
  lastExit: { code: number | null; signal: string | null } | null;
  /** The lead could not start for want of a model key. */
  notConfigured?: boolean;
  /** The lead REPL's pending question (its approval card's request id). */
  waitingFor?: string | null;
  /** The lead's running tool the page is told about (TeamCreate: "the lead is setting up the team…"). */
  activity?: string | null;
}

/** The settings' default and role models, and each agent definition's model by agent name. */
export type ModelSettings = Pick<SettingsView, 'model' | 'roleModels'> & { definitions?: Readonly<Record<string, string>> };

/**
 * Builds one member's view from its config entry, status file, unread count and the host's own knowledge.
 * The model shown is the running process's own (its status), else the one it would run (`chooseModel`, as the
 * spawn and the process decide). `tasks`: the board, for a completion
 * refused for want of a commit (not-done.ts).
 */
export function memberView(name: string, cfg: TeamConfig, status: AgentStatus | null, queued: number, side: HostSideInfo, models: ModelSettings, tasks: readonly TaskView[] = [], now = Date.now()): Member {
  const entry = cfg.members.find((m) => m.name === name);
  let state: Member['state'] = deriveState(status, now);
  if (side.pty) {
    // A pty the host owns is alive by definition, whether or not the process writes a status file.
    if (state === 'dead' || state === 'defined' || state === 'stopped') state = status?.status === 'stopped' ? 'stopped' : 'idle';
  } else if (side.spawnedHere && state !== 'stopped' && state !== 'defined') {
    state = 'dead'; // its process is gone even if the last heartbeat is still fresh
  } else if (side.spawnedHere && state === 'defined' && side.lastExit) {
    state = 'dead';
  }
  if (side.notConfigured && !side.pty) state = 'not_configured';
  const alive = side.pty !== null || state === 'idle' || state === 'working' || state === 'spawning' || state === 'error';
  const { usage, tokens, cost_usd } = usageOf(status);
  let terminal: TerminalMode;
  if (side.pty) terminal = { kind: 'pty', pid: side.pty.pid };
  else terminal = { kind: 'readonly', reason: readonlyReason(status, side) };
  return withNotDone<Member>({
    name,
    role: name === LEAD ? 'lead' : clip(entry?.role ?? '', 200),
    model: clipOrNull(status?.model ?? chooseModel({ member: entry?.model, role: entry?.role, roleModels: models.roleModels, definition: models.definitions?.[name], settings: models.model }), 200),
    state,
    alive,
    current_task: status?.current_task ?? null,
    tokens: tokens === null ? null : Math.min(tokens, Number.MAX_SAFE_INTEGER),
    cost_usd,
    usage,
    queued,
    terminal,
    can_respawn: !side.pty && !alive && state !== 'not_configured',
    waiting_for: side.waitingFor ?? (alive ? (status?.waiting?.request_id ?? null) : null),
    budget_reached: alive ? (status?.budget_reached ?? null) : null,
    ports: (name === LEAD ? cfg.lead_ports : entry?.ports) ?? null,
    activity: alive ? (side.activity ?? null) : null,
    ...(entry?.host ? { host: clip(entry.host, 40) } : {}),
    ...modelTrouble(status, state === 'not_configured' ? 'dead' : state),
  }, tasks, name);
}

// The files hold any length; the contract's bounds hold for every member, or a view drops the whole roster.
function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

function clipOrNull(s: string | null, max: number): string | null {
  return s === null ? null : clip(s, max);
}

function readonlyReason(status: AgentStatus | null, side: HostSideInfo): string {
  return clip(readonlyWhy(status, side), 300);
}

function readonlyWhy(status: AgentStatus | null, side: HostSideInfo): string {
  if (side.notConfigured) return 'not configured: add an API key, or try the demo team (no key)';
  if (side.lastExit) return side.lastExit.signal ? `exited (${side.lastExit.signal})` : `exited with code ${side.lastExit.code}`;
  if (!status) return 'not running: no process has started it yet';
  if (status.host && status.host !== os.hostname()) return `runs on host ${status.host}; output from output.log`;
  const spawner = status.spawner;
  if (typeof spawner === 'string') return `started by ${spawner}, not by this dashboard; output from output.log`;
  return 'not started by this dashboard; output from output.log';
}

export function taskView(task: Task, byId: Map<string, Task>): TaskView {
  let column: TaskColumn = task.status;
  // `parked` holds the runtime's reason (a string); `failed`/`state` come from other writers of the format.
  if (task.cancelled === true) column = 'cancelled';
  else if (task.failed === true || task.state === 'failed') column = 'failed';
  else if (task.parked || task.state === 'parked') column = 'parked';
  return {
    id: task.id,
    subject: task.subject,
    description: task.description,
    status: task.status,
    column,
    owner: task.owner ?? null,
    reserved_for: task.reserved_for ?? null,
    blocked_by: task.blocked_by,
    open_blockers: task.blocked_by.filter((d) => byId.get(d)?.status !== 'completed'),
    result: task.result ?? null,
    updated_at: task.updated_at,
    commit: task.commit ?? null,
    not_done: task.status === 'completed' ? null : (task.not_done ?? null),
    not_done_by: task.status === 'completed' ? null : (task.not_done_by ?? null),
    landed: task.landed ? { at: task.landed.at, into: task.landed.into, commit: task.landed.commit } : null,
  };
}

export function effectiveMode(setting: SettingsView['teammateMode']): { mode: 'host'; reason: string } {
  return {
    mode: 'host',
    reason:
      setting === 'host'
        ? 'every teammate the lead spawns runs in a live pane of this dashboard'
        : `the dashboard's lead always uses host (setting: ${setting}), so every teammate it spawns runs in a live pane here`,
  };
}

export function sandboxView(s: SandboxStatus): SandboxView {
  switch (s.state) {
    case 'os':
      return { state: 'on', text: describeSandboxStatus(s), fix: null };
    case 'off':
      return { state: 'off', text: `sandbox: off (${s.reason})`, fix: null };
    case 'guards-only':
      return { state: 'unavailable', text: `sandbox: unavailable — ${s.reason}; guards only`, fix: s.fix };
    case 'pending':
      return { state: 'checking', text: describeSandboxStatus(s), fix: null };
  }
}

/** What a teammate waits for (its status's `waiting`), or null. */
export function waitingOf(status: AgentStatus | null | undefined): unknown {
  return (status as Record<string, unknown> | null | undefined)?.waiting ?? null;
}
