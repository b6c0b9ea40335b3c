/**
 * A Claude Code team (cc36's reader, src/core/claude-code) in the shapes of the dashboard's API: its members,
 * tasks, approvals, log and the workspace view with the `claude_code` flag that makes the renderer read-only
 * where Claude Code owns the action.
 */
import type { ApprovalView, ClaudeCodeView, Member, MessageLogEntry, TaskView, WorkspaceView } from '../../contract/api.js';
import { AGENT_NAME_PATTERN } from '../../contract/limits.js';
import { filePathOf } from '../../core/agent/tool-input.js';
import type { ApprovalRequest } from '../../core/claude-code/approvals.js';
import type { LogEntry } from '../../core/claude-code/log.js';
import type { ClaudeTask } from '../../core/claude-code/schemas.js';
import type { MemberView, TeamView } from '../../core/claude-code/teams.js';
import { inputJson } from '../host/lead-questions.js';

/** The pseudo-folder a view opens for Claude Code's teams (`claude-code:` the newest live one, `claude-code:<team>` that one). */
export const CLAUDE_CODE_DIR = 'claude-code:';

/** A Claude Code name as the API's agent name (its sanitiser keeps [A-Za-z0-9_-] already; a leading '-' is not one). */
export const agentNameOf = (name: string): string => (AGENT_NAME_PATTERN.test(name) ? name : `_${name.replace(/[^A-Za-z0-9_-]/g, '-')}`.slice(0, 64));

const STATES: Record<MemberView['state'], Member['state']> = { idle: 'idle', busy: 'working', waiting: 'idle', starting: 'spawning', ended: 'stopped', unknown: 'idle' };

export function memberOf(m: MemberView, team: TeamView, approvals: ApprovalRequest[]): Member {
  const mine = approvals.find((a) => a.agent === m.name);
  const waiting = m.state === 'waiting' ? (mine?.id ?? m.waitingFor ?? 'input') : (mine?.id ?? null);
  const how = m.tmuxPane ? `Claude Code's tmux pane ${m.tmuxPane}: Type here to type into it` : m.transcript ? 'its transcript (an in-process teammate has no terminal)' : 'no terminal or transcript yet';
  return {
    name: agentNameOf(m.name),
    role: m.agentType && m.agentType !== m.name ? m.agentType : m.name === 'team-lead' ? 'lead' : 'teammate',
    model: m.model ?? null,
    state: team.ended ? 'stopped' : STATES[m.state],
    alive: !team.ended && m.state !== 'ended',
    current_task: team.tasks.find((t) => t.owner === m.name && t.status === 'in_progress' && /^[1-9]\d*$/.test(t.id))?.id ?? null,
    tokens: null,
    cost_usd: null,
    queued: 0,
    terminal: { kind: 'readonly', reason: how },
    can_respawn: false,
    waiting_for: waiting ? waiting.slice(0, 100) : null,
    budget_reached: null,
    error: null,
    retry: null,
    ports: null,
  };
}

const COLUMNS = new Set(['pending', 'in_progress', 'completed']);

export function taskOf(t: ClaudeTask, all: ClaudeTask[], updatedAt: number): TaskView | null {
  if (!/^[1-9]\d{0,8}$/.test(t.id)) return null;
  const status = (COLUMNS.has(t.status) ? t.status : 'pending') as TaskView['status'];
  const blockedBy = (t.blockedBy ?? []).filter((b) => /^[1-9]\d{0,8}$/.test(b));
  const owner = t.owner ? agentNameOf(t.owner) : null;
  return {
    id: t.id,
    subject: t.subject.slice(0, 2000),
    description: (t.description ?? '').slice(0, 100_000),
    status,
    column: status,
    owner,
    reserved_for: null,
    blocked_by: blockedBy,
    open_blockers: blockedBy.filter((b) => all.find((x) => x.id === b)?.status !== 'completed'),
    result: null,
    updated_at: updatedAt,
  };
}

export function approvalOf(a: ApprovalRequest): ApprovalView {
  const input = a.toolInput as { command?: unknown } | null;
  const detail = typeof input?.command === 'string' ? input.command : (filePathOf(input) ?? null);
  const since = Date.parse(a.createdAt) || Date.now();
  return {
    request_id: a.id.slice(0, 100),
    kind: 'permission',
    agent: agentNameOf(a.agent),
    tool: a.toolName.slice(0, 200),
    summary: `${a.toolName}${detail ? `: ${detail}` : ''}`.slice(0, 2000),
    detail: detail?.slice(0, 20_000) ?? null,
    cwd: (a.cwd ?? '').slice(0, 4096),
    plan: null,
    attempt: null,
    // No "Always": a rule would be Claude Code's settings to write, not the dashboard's.
    rule: null,
    input: inputJson(a.toolInput),
    since,
    // The hook falls back to Claude Code's own dialog when its wait ends; the card shows no countdown.
    deadline: since + 24 * 3600_000,
  };
}

/** The requests of this team's lead session (the hook's input names it); a request without one is shown to every team. */
export const teamApprovals = (team: TeamView, all: ApprovalRequest[]): ApprovalRequest[] => all.filter((a) => !a.sessionId || a.sessionId === team.leadSessionId);

export function workspaceOf(team: TeamView | undefined, teams: TeamView[], error: string | null): WorkspaceView {
  const cc: ClaudeCodeView = {
    teams: teams.map((t) => ({ name: t.name.slice(0, 200), ended: t.ended })),
    ended: team?.ended ?? false,
    version: team?.version ?? null,
    error: error?.slice(0, 2000) ?? null,
    members: Object.fromEntries(
      (team?.members ?? []).map((m) => [agentNameOf(m.name), { backend: m.backend ?? null, pane: team?.ended ? null : (m.tmuxPane ?? null), waiting: m.state === 'waiting' ? (m.waitingFor ?? 'input') : null }]),
    ),
  };
  return { dir: `${CLAUDE_CODE_DIR}${team?.name ?? ''}`, team: team?.name ?? null, recent: [], claude_code: cc };
}

export const logOf = (entries: LogEntry[]): MessageLogEntry[] =>
  entries.slice(-1000).map((e) => ({ at: e.at ?? null, member: e.member.slice(0, 200), direction: e.direction, text: e.text.slice(0, 20_000) }));

/** An in-process teammate's pane text: its transcript's turns, one block each. */
export const transcriptText = (entries: LogEntry[]): string =>
  entries.map((e) => `\x1b[${e.direction === 'in' ? '36m<- ' : '33m-> '}${e.at ? e.at.slice(11, 19) : ''}\x1b[0m\r\n${e.text.replace(/\r?\n/g, '\r\n')}\r\n\r\n`).join('');
