import type { StateCreator } from 'zustand';
import type { BudgetsView, HostEvent, MemberSpec, SandboxView, SettingsView, SetupView, SpendPoint } from '../../contract/api';
import type { DashboardState } from './index';
import { LEAD } from '../../contract/limits';

export type Tab = 'team' | 'board' | 'messages';

export interface Notice {
  id: number;
  level: 'info' | 'warn' | 'error';
  text: string;
  /** What the notice is about, when the page can tell that it is over (then the notice closes by itself). */
  cause?: NoticeCause;
}

/** Causes the page sees go away: a team appears, the lead runs again, the stopped host runs again. */
export type NoticeCause = 'no_team' | 'lead_down' | 'host_stopped';

export function noticeCause(text: string): NoticeCause | undefined {
  if (/^there is no team yet/i.test(text)) return 'no_team';
  if (/^the lead is not running/i.test(text)) return 'lead_down';
  if (/^the workspace host \(pid \d+\) is stopped/.test(text)) return 'host_stopped';
  return undefined;
}

/** A notice that says a cause is over (src/main/daemon/host-stall.ts): the notices of that cause close. */
const endsCause = (text: string): NoticeCause | undefined => (/^the workspace host \(pid \d+\) (runs again|is gone)/.test(text) ? 'host_stopped' : undefined);

/**
 * The notices still true after a roster or a host's hello: one whose cause is gone (the team exists, the lead is
 * alive; a host answers — a stopped one sends nothing, and one killed while stopped never runs again) is closed.
 */
export function stillTrue(notices: Notice[], ev: HostEvent): Notice[] {
  if (ev.type !== 'roster' && ev.type !== 'workspace') return notices;
  const gone = (c: NoticeCause | undefined) =>
    ev.type === 'workspace' ? c === 'host_stopped' : (c === 'no_team' && ev.team !== null) || (c === 'lead_down' && ev.members.some((m) => m.name === LEAD && m.alive));
  return notices.some((n) => gone(n.cause)) ? notices.filter((n) => !gone(n.cause)) : notices;
}

export interface UiSlice {
  tab: Tab;
  focused: string | null;
  maximised: string | null;
  helpOpen: boolean;
  settingsOpen: boolean;
  settings: SettingsView | null;
  restartNeeded: boolean;
  /** The teammate mode the host's lead really uses, and why. */
  effectiveMode: { mode: string; reason: string } | null;
  sandbox: SandboxView | null;
  notices: Notice[];
  /** Whether the lead can start (a key or the scripted provider); the welcome shows when it cannot. */
  setup: SetupView | null;
  /** Each teammate's definition, for the team manager's edit form. */
  memberSpecs: Record<string, MemberSpec>;
  /** What a model field offers (Anthropic aliases, `<profile>/<model>`). */
  models: string[];
  /** The user's hosts a member may run on (settings `hosts`, names only). */
  hosts: string[];
  /** Spending limits: budgets.json and the settings'. */
  budgets: { stored: BudgetsView; settings: BudgetsView } | null;
  /** Each agent's model calls seen by the host (the spend chart). */
  spend: Record<string, SpendPoint[]>;
  /** The member dialog: a name being edited, 'new' while adding, else null. */
  editingMember: string | null;
  /** The expander: the saved whole output a pane's link named, shown over the page (null: closed). */
  savedOutput: { agent: string; file: string } | null;
  showSavedOutput(open: { agent: string; file: string } | null): void;
  /** "Stop the team": the confirm dialog is open; the host's reason once it exited on purpose (the page then shows the team stopped). */
  stopOpen: boolean;
  stopping: boolean;
  hostClosed: string | null;
  setStopOpen(open: boolean): void;
  setStopping(stopping: boolean): void;
  setEditingMember(name: string | null): void;
  setTab(tab: Tab): void;
  focus(agent: string | null): void;
  toggleMaximise(agent: string): void;
  setHelpOpen(open: boolean): void;
  setSettingsOpen(open: boolean): void;
  notify(level: Notice['level'], text: string): void;
  dismiss(id: number): void;
  /** Moves focus to the next (+1) or previous (-1) pane. */
  cycleFocus(delta: 1 | -1): void;
}

let noticeId = 0;
const NOTICE_MS = { info: 5000, warn: 8000 } as const;

/**
 * A notice reads as a sentence: a capital first letter (unless it starts with an agent's name, which keeps
 * its spelling) and a full stop; protocol prefixes are said in words.
 */
export function asSentence(text: string, names: string[] = []): string {
  const t = text.replace(/^invalid request: /, 'The dashboard sent a request the host refused: ').trim();
  if (!t) return t;
  const first = /^[A-Za-z0-9_-]+/.exec(t)?.[0] ?? '';
  const s = names.includes(first) ? t : t[0]!.toUpperCase() + t.slice(1);
  return /[.!?…)]$/.test(s) ? s : `${s}.`;
}

export const createUiSlice: StateCreator<DashboardState, [], [], UiSlice> = (set, get) => ({
  tab: 'team',
  setup: null,
  memberSpecs: {},
  models: [],
  hosts: [],
  budgets: null,
  spend: {},
  editingMember: null,
  savedOutput: null,
  showSavedOutput: (savedOutput) => set({ savedOutput }),
  stopOpen: false,
  stopping: false,
  hostClosed: null,
  setStopOpen: (stopOpen) => set({ stopOpen }),
  setStopping: (stopping) => set({ stopping }),
  setEditingMember: (editingMember) => set({ editingMember }),
  focused: null,
  maximised: null,
  helpOpen: false,
  settingsOpen: false,
  settings: null,
  restartNeeded: false,
  effectiveMode: null,
  sandbox: null,
  notices: [],
  // A tab is a view of the page as Changes and Merge are: choosing one leaves the review.
  setTab: (tab) => {
    set({ tab });
    if (get().reviewView) get().openReview(null);
  },
  focus: (focused) => set({ focused }),
  toggleMaximise: (agent) => set((s) => ({ maximised: s.maximised === agent ? null : agent, focused: agent })),
  setHelpOpen: (helpOpen) => set({ helpOpen }),
  setSettingsOpen: (settingsOpen) => set({ settingsOpen }),
  notify: (level, text) => {
    const id = ++noticeId;
    const names = get().members.map((m) => m.name);
    const cause = noticeCause(text);
    const over = endsCause(text);
    set((s) => ({ notices: [...s.notices.filter((n) => !over || n.cause !== over).slice(-4), { id, level, text: asSentence(text, names), ...(cause ? { cause } : {}) }] }));
    // Information closes on its own; an error stays until the person closes it.
    if (level !== 'error') setTimeout(() => get().dismiss(id), NOTICE_MS[level]);
  },
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
  cycleFocus: (delta) => {
    const names = get().members.map((m) => m.name);
    if (!names.length) return;
    const i = names.indexOf(get().focused ?? '');
    const next = names[(i + delta + names.length) % names.length]!;
    set((s) => ({ focused: next, maximised: s.maximised ? next : null }));
  },
});

export function reduceUi(state: DashboardState, ev: HostEvent): Partial<DashboardState> | null {
  if (ev.type === 'settings') return { settings: ev.settings, restartNeeded: ev.restart_needed, effectiveMode: ev.effective_mode ?? null, models: ev.models ?? state.models, hosts: ev.hosts ?? state.hosts };
  if (ev.type === 'budgets') return { budgets: { stored: ev.stored, settings: ev.settings } };
  if (ev.type === 'spend') return { spend: { ...state.spend, [ev.agent]: ev.calls } };
  if (ev.type === 'sandbox') return { sandbox: ev.sandbox };
  if (ev.type === 'setup') return { setup: ev.setup };
  if (ev.type === 'member_specs') return { memberSpecs: ev.specs };
  if (ev.type === 'host_closed') return { hostClosed: ev.reason, stopOpen: false, stopping: false };
  return null;
}
