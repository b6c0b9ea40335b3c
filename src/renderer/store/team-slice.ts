import type { StateCreator } from 'zustand';
import type { HostEvent, Member } from '../../shared/api';
import type { DashboardState } from './index';

export interface TeamSlice {
  team: string | null;
  workspace: { dir: string; recent: string[] } | null;
  /** Members in roster order. */
  members: Member[];
  approvalsPending: number;
  connected: boolean;
  setConnected(connected: boolean): void;
}

export const createTeamSlice: StateCreator<DashboardState, [], [], TeamSlice> = (set) => ({
  team: null,
  workspace: null,
  members: [],
  approvalsPending: 0,
  connected: false,
  setConnected: (connected) => set({ connected }),
});

/** Roster and member deltas; a member not in the roster yet is appended (the roster event follows). */
export function reduceTeam(state: DashboardState, ev: HostEvent): Partial<DashboardState> | null {
  switch (ev.type) {
    case 'workspace':
      return { workspace: { dir: ev.workspace.dir, recent: ev.workspace.recent }, team: ev.workspace.team };
    case 'roster':
      return { team: ev.team, members: ev.members };
    case 'member': {
      const i = state.members.findIndex((m) => m.name === ev.member.name);
      const members = i < 0 ? [...state.members, ev.member] : state.members.map((m, j) => (j === i ? ev.member : m));
      return { members };
    }
    case 'approvals':
      return { approvalsPending: ev.pending };
    default:
      return null;
  }
}

export interface TeamCounts {
  working: number;
  idle: number;
  dead: number;
  total: number;
  costUsd: number;
}

export function teamCounts(members: Member[]): TeamCounts {
  const c: TeamCounts = { working: 0, idle: 0, dead: 0, total: members.length, costUsd: 0 };
  for (const m of members) {
    if (m.state === 'working') c.working++;
    else if (m.state === 'idle') c.idle++;
    else if (m.state === 'dead') c.dead++;
    c.costUsd += m.cost_usd ?? 0;
  }
  return c;
}
