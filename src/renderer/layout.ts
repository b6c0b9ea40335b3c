import { useReducer, useSyncExternalStore } from 'react';

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

/**
 * A view choice the person made (a section folded or open), kept in localStorage under `key` (per workspace
 * when the key names it) and read back on the next load; `fallback` until they choose.
 */
export function useRemembered(key: string, fallback: boolean): [boolean, (v: boolean) => void] {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  let value = fallback;
  try {
    const v = localStorage.getItem(key);
    if (v !== null) value = v === '1';
  } catch {
    // storage off (a private window's policy): the choice lasts this page only
  }
  const set = (v: boolean) => {
    try {
      localStorage.setItem(key, v ? '1' : '0');
    } catch {
      // see above
    }
    rerender();
  };
  return [value, set];
}
