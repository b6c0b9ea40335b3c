import { useEffect, useRef } from 'react';
import { useDashboard } from '../store';

/**
 * The live demo's last act: once every task of the demo team is done, the page opens the team's changes (the
 * person sees what each teammate did), says so, and leaves the landing to the person: "Merge…" opens the merge
 * panel, where the checks run before the branches land. Only in the demo's own throw-away workspace; once.
 */
export function DemoGuide() {
  const demo = useDashboard((s) => !!s.workspace?.demo);
  const done = useDashboard((s) => {
    const tasks = Object.values(s.tasks);
    return tasks.length > 0 && tasks.every((t) => t.status === 'completed');
  });
  const openReview = useDashboard((s) => s.openReview);
  const notify = useDashboard((s) => s.notify);
  const shown = useRef(false);
  useEffect(() => {
    if (!demo || !done || shown.current) return;
    shown.current = true;
    openReview({ kind: 'changes', agent: 'all' });
    notify('info', "The demo team is done: its changes are open. Review them, then press Merge… to land them on main.");
  }, [demo, done, openReview, notify]);
  return null;
}
