import { useEffect, useState } from 'react';
import { useDashboard } from '../store';

/**
 * The live demo's last act: once every task of the demo team is done, a banner under the header says so and
 * offers the team's changes; the person clicks when ready (the page is never taken away while they watch the
 * team finish). From the Changes view "Merge…" opens the merge panel, where the checks run before the branches
 * land. Only in the demo's own throw-away workspace; gone once the person has opened a review view or closed it.
 */
export function DemoGuide() {
  const demo = useDashboard((s) => !!s.workspace?.demo);
  const done = useDashboard((s) => {
    const tasks = Object.values(s.tasks);
    return tasks.length > 0 && tasks.every((t) => t.status === 'completed');
  });
  const reviewing = useDashboard((s) => s.reviewView !== null);
  const openReview = useDashboard((s) => s.openReview);
  const [closed, setClosed] = useState(false);
  // Already reviewing (from the header, a link): the banner has nothing left to offer.
  useEffect(() => {
    if (done && reviewing) setClosed(true);
  }, [done, reviewing]);
  if (!demo || !done || closed) return null;
  return (
    <div className="demo-done" role="status" data-testid="team-finished">
      <span>The team finished —</span>{' '}
      <button className="primary" onClick={() => openReview({ kind: 'changes', agent: 'all' })}>
        review the changes →
      </button>
      <button className="notice-close" aria-label="close this banner" title="close" onClick={() => setClosed(true)}>
        ×
      </button>
    </div>
  );
}
