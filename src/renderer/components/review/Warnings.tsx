import { act } from '../../context';
import { useDashboard } from '../../store';
import { warningsOf } from '../../store/review-slice';
import type { ConflictWarningView } from '../../../contract/api';

function lines(w: ConflictWarningView): string {
  return w.files
    .filter((f) => f.conflict || w.kind === 'overlap')
    .map((f) => `${f.path}${f.lines.length ? `:${f.lines.map((l) => (l.start === l.end ? l.start : `${l.start}-${l.end}`)).join(',')}` : ''}`)
    .join(', ');
}

/** A note to both teammates of a warning, from the person. */
function noteBoth(w: ConflictWarningView): void {
  const text = `Heads up: ${w.agents[0]} and ${w.agents[1]} are both changing ${lines(w)}${w.kind === 'conflict' ? ' and the changes would conflict when merged' : ''}. Coordinate before you go on (message each other), and keep to your own lines.`;
  for (const a of w.agents) void act({ type: 'send_message', to: a, text });
}

/** Every current warning, above the board and the team grid. */
export function WarningsBar() {
  const warnings = useDashboard((s) => s.warnings);
  const openReview = useDashboard((s) => s.openReview);
  if (!warnings.length) return null;
  return (
    <div className="review-warnings" data-testid="conflict-warnings">
      {warnings.map((w) => (
        <div key={w.id} className={`review-warning ${w.kind}`} data-kind={w.kind} data-agents={w.agents.join(',')}>
          <strong>{w.kind === 'conflict' ? '⚠ conflict' : 'overlap'}</strong>
          <span>
            {w.agents[0]} + {w.agents[1]}: {lines(w)}
          </span>
          <button onClick={() => openReview({ kind: 'changes', agent: w.agents[0] })}>Changes</button>
          <button onClick={() => noteBoth(w)} title="send both teammates a note">
            Note both
          </button>
        </div>
      ))}
    </div>
  );
}

/** The warning chip and the Changes button of a pane header. */
export function PaneReview({ agent }: { agent: string }) {
  const mine = warningsOf(useDashboard((s) => s.warnings), agent);
  const changes = useDashboard((s) => s.changes[agent]);
  const openReview = useDashboard((s) => s.openReview);
  const conflict = mine.find((w) => w.kind === 'conflict');
  const w = conflict ?? mine[0];
  return (
    <>
      {w && (
        <span className={`pane-warning ${w.kind}`} data-testid="pane-warning" title={lines(w)}>
          {w.kind === 'conflict' ? '⚠ conflict' : 'overlap'} with {w.agents.find((a) => a !== agent)}
        </span>
      )}
      {changes && changes.files.length > 0 && (
        <button className="pane-changes" onClick={() => openReview({ kind: 'changes', agent })} title="review this teammate's changes">
          Changes ({changes.files.length})
        </button>
      )}
    </>
  );
}

/** Header buttons: the Changes view of everyone and the merge panel. */
export function ReviewButtons() {
  const openReview = useDashboard((s) => s.openReview);
  const conflicts = useDashboard((s) => s.warnings.filter((w) => w.kind === 'conflict').length);
  const open = useDashboard((s) => s.reviewView?.kind ?? null);
  // Views of the page like the tabs beside them: the open one is marked current.
  const current = (kind: 'changes' | 'merge') => ({ className: `${kind === 'changes' ? 'review-open' : 'merge-open'}${open === kind ? ' active' : ''}`, 'aria-current': open === kind ? ('page' as const) : undefined });
  const team = useDashboard((s) => s.team);
  // No team, no teammate's branch: nothing to review or merge.
  if (!team) return null;
  return (
    <>
      <button {...current('changes')} aria-keyshortcuts="Alt+C" title="every teammate's changes (Alt+C)" onClick={() => openReview({ kind: 'changes', agent: 'all' })}>
        Changes{conflicts ? <span className="review-badge" title="conflict warnings">{conflicts}</span> : null}
      </button>
      <button {...current('merge')} aria-keyshortcuts="Alt+G" title="merge the teammates' branches (Alt+G)" onClick={() => openReview({ kind: 'merge' })}>
        Merge
      </button>
    </>
  );
}
