import { useSyncExternalStore } from 'react';

/** Below this width (CSS px) the dashboard is laid out for a phone: one column, menus, tabs. */
export const NARROW_PX = 700;
const query = `(max-width: ${NARROW_PX}px)`;

function subscribe(onChange: () => void): () => void {
  const mq = window.matchMedia(query);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

/** Whether the window is phone-narrow (the same breakpoint as styles.css). */
export function useNarrow(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
}
