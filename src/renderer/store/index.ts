import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { HostEvent } from '../../contract/api';
import { createTasksSlice, reduceTasks, type TasksSlice } from './tasks-slice';
import { createTeamSlice, reduceTeam, type TeamSlice } from './team-slice';
import { createUiSlice, reduceUi, stillTrue, type UiSlice } from './ui-slice';
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
      if (ev.type === 'notice' && /^budget (at 80 %|reached)/.test(ev.text)) desktopNotify(ev.text);
      // A notice whose cause is over (the team now exists, the lead runs again) goes away by itself.
      if (ev.type === 'roster' && stillTrue(get().notices, ev) !== get().notices) set({ notices: stillTrue(get().notices, ev) });
      if (ev.type === 'roster' && !get().focused && ev.members.length) set({ focused: ev.members[0]!.name });
    },
  }));
}

/** A budget alert reaches a person who is looking elsewhere: a desktop notification, when they allowed them. */
function desktopNotify(text: string): void {
  if (typeof document === 'undefined' || document.hasFocus() || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const n = new Notification('thclaws', { body: text });
  // What the browser actually showed (read by the e2e test; no stub).
  n.addEventListener('show', () => {
    const w = window as unknown as { __budgetNotifications?: string[] };
    w.__budgetNotifications = [...(w.__budgetNotifications ?? []), text];
  });
}

export type DashboardStore = ReturnType<typeof createDashboardStore>;
export const dashboard = createDashboardStore();
export const useDashboard = <T>(selector: (s: DashboardState) => T): T => useStore(dashboard, selector);
