import type { StateCreator } from 'zustand';
import type { ApprovalView, ClaudeCodeView, HostEvent, Member, MessageLogEntry } from '../../contract/api';
import type { DashboardState } from './index';

export interface TeamSlice {
  team: string | null;
  workspace: { dir: string; recent: string[]; demo: boolean; hostPid: number | null; claudeCode: ClaudeCodeView | null } | null;
  /** A Claude Code team's messages (from its transcripts). */
  messageLog: MessageLogEntry[];
  /** Members in roster order. */
  members: Member[];
  approvalsPending: number;
  /** The approval inbox, oldest first; `selectedApproval` is the one the keyboard answers. */
  approvals: ApprovalView[];
  selectedApproval: string | null;
  selectApproval(id: string | null): void;
  connected: boolean;
  setConnected(connected: boolean): void;
  /** The dashboard's server has been gone a while: the page says so and its controls are off until it is back. */
  serverLost: boolean;
  /** What answers at the page's address is not its dashboard (another key, another program). */
  serverForeign: boolean;
  setServerLost(lost: boolean, foreign?: boolean): void;
  /** The remote machine whose link dropped (`--remote`): the team runs on there while the dashboard reconnects. */
  linkLost: string | null;
  /** Remote workspaces this machine opened lately (`ssh://…`), and whether "Open remote folder…" is asking. */
  remotes: string[];
  remoteDialog: boolean;
}

export const createTeamSlice: StateCreator<DashboardState, [], [], TeamSlice> = (set) => ({
  team: null,
  workspace: null,
  messageLog: [],
  members: [],
  approvalsPending: 0,
  approvals: [],
  selectedApproval: null,
  selectApproval: (id) => set({ selectedApproval: id }),
  connected: false,
  setConnected: (connected) => set({ connected }),
  serverLost: false,
  serverForeign: false,
  setServerLost: (serverLost, foreign = false) => set({ serverLost, serverForeign: serverLost && foreign }),
  linkLost: null,
  remotes: [],
  remoteDialog: false,
});

/** Roster and member deltas; a member not in the roster yet is appended (the roster event follows). */
export function reduceTeam(state: DashboardState, ev: HostEvent): Partial<DashboardState> | null {
  switch (ev.type) {
    case 'workspace':
      return { workspace: { dir: ev.workspace.dir, recent: ev.workspace.recent, demo: !!ev.workspace.demo, hostPid: ev.workspace.host_pid ?? null, claudeCode: ev.workspace.claude_code ?? null }, team: ev.workspace.team };
    case 'message_log':
      return { messageLog: ev.entries };
    case 'roster':
      return { team: ev.team, members: ev.members };
    case 'member': {
      const i = state.members.findIndex((m) => m.name === ev.member.name);
      const members = i < 0 ? [...state.members, ev.member] : state.members.map((m, j) => (j === i ? ev.member : m));
      return { members };
    }
    case 'link':
      return { linkLost: ev.lost ? ev.label : null };
    case 'remotes':
      return { remotes: ev.urls, ...(ev.dialog ? { remoteDialog: true } : {}) };
    case 'approvals': {
      // The selection follows its request while it is pending, else moves to the oldest one.
      const keep = ev.items.some((a) => a.request_id === state.selectedApproval);
      return { approvalsPending: ev.pending, approvals: ev.items, selectedApproval: keep ? state.selectedApproval : (ev.items[0]?.request_id ?? null) };
    }
    default:
      return null;
  }
}

// The header's counting lives in counts.ts (no imports of the store, so the Node tests load it too).
export { countedState, modelAlert, teamCounts, type CountedState, type TeamCounts } from './counts';
