import type { CountedState, TeamCounts } from '../store/counts';
import { STATE_LABEL } from './StatusBadge';

/** Shown in this order; working and idle always, any other state while some agent is in it. */
const ORDER: CountedState[] = ['working', 'waiting', 'idle', 'spawning', 'error', 'stopped', 'dead', 'defined', 'not_configured'];
const LABEL: Record<CountedState, string> = { ...STATE_LABEL, waiting: 'waiting for you' };

/** The header's counts: every state a pane shows is counted, so the numbers add up to the panes. */
export function StateCounts({ counts }: { counts: TeamCounts }) {
  const shown = ORDER.filter((s) => s === 'working' || s === 'idle' || (counts.byState[s] ?? 0) > 0);
  return (
    <>
      {shown.map((s, i) => (
        <span key={s} className={`c-${s}`} data-state={s}>
          {i > 0 && ' · '}
          {counts.byState[s] ?? 0} {LABEL[s]}
        </span>
      ))}
    </>
  );
}
