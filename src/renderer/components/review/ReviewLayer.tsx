import { useEffect } from 'react';
import { useDashboard } from '../../store';
import { viewFromHash } from '../../store/review-slice';
import { ChangesView } from './ChangesView';
import { MergePanel } from './MergePanel';
import './review.css';

/**
 * Follows the URL hash (`#review/<agent>`, `#review/all`, `#merge`) into the store, so a link, the demo or
 * another view can land on a review view. Always mounted: the hash can change while no review view is open.
 */
export function ReviewHash() {
  const openReview = useDashboard((s) => s.openReview);
  useEffect(() => {
    const onHash = () => openReview(viewFromHash(location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [openReview]);
  return null;
}

/** The open review view (Changes or the merge panel), in the page under its header where a tab's view goes. */
export function ReviewLayer() {
  const view = useDashboard((s) => s.reviewView);
  if (!view) return null;
  // A region of the page (F6 reaches it after the header), as the task board is in the Tasks tab.
  return (
    <div className="review-layer" data-region aria-label={view.kind === 'merge' ? 'merge panel' : 'changes'}>
      {view.kind === 'merge' ? <MergePanel /> : <ChangesView agent={view.agent} />}
    </div>
  );
}
