import { useEffect } from 'react';
import { useDashboard } from '../../store';
import { viewFromHash } from '../../store/review-slice';
import { ChangesView } from './ChangesView';
import { MergePanel } from './MergePanel';
import './review.css';

/**
 * The review views over the dashboard: opened by the store (`openReview`) or the URL hash (`#review/<agent>`,
 * `#review/all`, `#merge`), so a link, the demo or another view can land on them.
 */
export function ReviewLayer() {
  const view = useDashboard((s) => s.reviewView);
  const openReview = useDashboard((s) => s.openReview);
  useEffect(() => {
    const onHash = () => openReview(viewFromHash(location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [openReview]);
  if (!view) return null;
  return <div className="review-layer">{view.kind === 'merge' ? <MergePanel /> : <ChangesView agent={view.agent} />}</div>;
}
