import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { HostEvent } from '../../contract/api';
import { createTasksSlice, reduceTasks, type TasksSlice } from './tasks-slice';
import { createTeamSlice, reduceTeam, type TeamSlice } from './team-slice';
import { createUiSlice, reduceUi, stillTrue, type UiSlice } from './ui-slice';
import { desktopNotify } from '../desktop-notify';
import { createReviewSlice, reduceReview, type ReviewSlice } from './review-slice';

export type DashboardState = TeamSlice & TasksSlice & UiSlice & ReviewSlice & { apply(ev: HostEvent): void };

/** The dashboard's state: one zustand store of slices; host events are folded in by `apply`. */
export function createDashboardStore() {
  return createStore<DashboardState>()((set, get, api) => ({
    ...createTeamSlice(set, get, api),
    ...createTasksSlice(set, get, api),
    ...createUiSlice(set, get, api),
    ...createReviewSlice(set, get, api),
    apply: (ev) => {
      const s = get();
      const patch = reduceTeam(s, ev) ?? reduceTasks(s, ev) ?? reduceUi(s, ev) ?? reduceReview(s, ev);
      if (patch) set(patch);
      if (ev.type === 'notice') s.notify(ev.level, ev.text);
      // A budget reached is in the "needs you" queue (its notification is the queue's); 80 % is a heads-up.
      if (ev.type === 'notice' && ev.text.startsWith('budget at 80 %')) budgetHeadsUp(ev.text);
      // A notice whose cause is over (the team now exists, the lead runs again) goes away by itself.
      if (stillTrue(get().notices, ev) !== get().notices) set({ notices: stillTrue(get().notices, ev) });
      if (ev.type === 'roster' && !get().focused && ev.members.length) set({ focused: ev.members[0]!.name });
    },
  }));
}

/** A budget alert reaches a person who is looking elsewhere: a desktop notification, when they have them on. */
function budgetHeadsUp(text: string): void {
  if (typeof document === 'undefined') return;
  desktopNotify({
    title: 'thclaws',
    body: text,
    tag: text,
    // What the browser actually showed (read by the e2e test; no stub).
    onShow: () => {
      const w = window as unknown as { __budgetNotifications?: string[] };
      w.__budgetNotifications = [...(w.__budgetNotifications ?? []), text];
    },
  });
}

export type DashboardStore = ReturnType<typeof createDashboardStore>;
export const dashboard = createDashboardStore();
export const useDashboard = <T>(selector: (s: DashboardState) => T): T => useStore(dashboard, selector);
