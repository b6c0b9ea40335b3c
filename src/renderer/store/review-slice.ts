import type { StateCreator } from 'zustand';
import type { ChangesView, ConflictWarningView, HostEvent, ReviewCommentView } from '../../contract/api';
import type { DashboardState } from './index';

/** Which review view is open: one teammate's changes, everyone's ("all"), or the merge panel. */
export type ReviewView = { kind: 'changes'; agent: string } | { kind: 'merge' } | null;

export interface ReviewSlice {
  changes: Record<string, ChangesView>;
  comments: Record<string, ReviewCommentView[]>;
  warnings: ConflictWarningView[];
  /** Output of the latest merge run's checks, as streamed. */
  mergeOutput: string;
  mergeResult: unknown;
  reviewView: ReviewView;
  /** `agent\0source\0path` → the file signature it was marked viewed at (a changed file loses its mark). */
  viewed: Record<string, string>;
  openReview(view: ReviewView): void;
  markViewed(key: string, sig: string | null): void;
  clearMergeOutput(): void;
}

const VIEWED_KEY = 'thclaws.review.viewed';

function loadViewed(): Record<string, string> {
  try {
    return JSON.parse(globalThis.localStorage?.getItem(VIEWED_KEY) ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}

/** `#review/<agent>`, `#review/all`, `#merge`: a view another part of the app (or a link) can open. */
export function viewFromHash(hash: string): ReviewView {
  const m = /^#review\/([A-Za-z0-9_][A-Za-z0-9_-]{0,63}|all)$/.exec(hash);
  if (m) return { kind: 'changes', agent: m[1]! };
  return hash === '#merge' ? { kind: 'merge' } : null;
}

export function hashOf(view: ReviewView): string {
  if (!view) return '';
  return view.kind === 'merge' ? '#merge' : `#review/${view.agent}`;
}

export const createReviewSlice: StateCreator<DashboardState, [], [], ReviewSlice> = (set) => ({
  changes: {},
  comments: {},
  warnings: [],
  mergeOutput: '',
  mergeResult: null,
  reviewView: typeof location !== 'undefined' ? viewFromHash(location.hash) : null,
  viewed: loadViewed(),
  openReview: (reviewView) => {
    set({ reviewView });
    if (typeof history !== 'undefined') history.replaceState(null, '', hashOf(reviewView) || location.pathname + location.search);
  },
  markViewed: (key, sig) =>
    set((s) => {
      const viewed = { ...s.viewed };
      if (sig === null) delete viewed[key];
      else viewed[key] = sig;
      try {
        globalThis.localStorage?.setItem(VIEWED_KEY, JSON.stringify(viewed));
      } catch {
        // storage full or denied: the mark lives for this page only
      }
      return { viewed };
    }),
  clearMergeOutput: () => set({ mergeOutput: '', mergeResult: null }),
});

export function reduceReview(state: DashboardState, ev: HostEvent): Partial<DashboardState> | null {
  if (ev.type === 'review_changes') return { changes: { ...state.changes, [ev.agent]: ev.changes }, comments: { ...state.comments, [ev.agent]: ev.comments } };
  if (ev.type === 'conflict_warnings') return { warnings: ev.warnings };
  // Keep the last 1 MB of check output: a chatty test suite must not grow the page without bound.
  if (ev.type === 'merge_output') return { mergeOutput: (state.mergeOutput + ev.data).slice(-1_000_000) };
  if (ev.type === 'merge_done') return { mergeResult: ev.result };
  return null;
}

/** The warnings that name `agent`. */
export function warningsOf(warnings: ConflictWarningView[], agent: string): ConflictWarningView[] {
  return warnings.filter((w) => w.agents.includes(agent));
}
