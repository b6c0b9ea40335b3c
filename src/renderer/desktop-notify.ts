/**
 * Desktop notifications (the browser's Notification API, which Electron's renderer has too): the browser is
 * asked once, on the person's click, never at load; the off switch is remembered; a notification is shown only
 * when the person is not looking at the page (hidden or not focused), so it never takes the focus from the
 * pane they type in. Clicking one brings the window forward and opens what it is about.
 */
import { useSyncExternalStore } from 'react';

const OFF_KEY = 'thclaws.notifications.off';

/** `ask`: the browser has not been asked yet; `blocked`: it said no (only its site settings undo that). */
export type NotifyState = 'on' | 'off' | 'ask' | 'blocked' | 'unsupported';

const listeners = new Set<() => void>();
const changed = () => listeners.forEach((l) => l());

function switchedOff(): boolean {
  try {
    return globalThis.localStorage?.getItem(OFF_KEY) === '1';
  } catch {
    return false;
  }
}

function setSwitchedOff(off: boolean): void {
  try {
    if (off) globalThis.localStorage?.setItem(OFF_KEY, '1');
    else globalThis.localStorage?.removeItem(OFF_KEY);
  } catch {
    // storage refused (private mode): the switch lasts for this page only
  }
  changed();
}

export function notifyState(): NotifyState {
  if (typeof Notification === 'undefined') return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  if (switchedOff()) return 'off';
  return Notification.permission === 'granted' ? 'on' : 'ask';
}

export function useNotifyState(): NotifyState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    notifyState,
  );
}

/** The person's "on": asks the browser if it never was (this click is the one allowed to). */
export async function turnNotificationsOn(): Promise<NotifyState> {
  setSwitchedOff(false);
  if (typeof Notification !== 'undefined' && Notification.permission === 'default') await Notification.requestPermission().catch(() => undefined);
  changed();
  return notifyState();
}

export function turnNotificationsOff(): void {
  setSwitchedOff(true);
}

/** Whether the person is looking elsewhere: another tab, another window, a minimised one. */
export function lookingElsewhere(): boolean {
  return document.hidden || !document.hasFocus();
}

/**
 * Shows a notification when the person is looking elsewhere and has them on; `open` runs on its click, after the
 * window is brought forward. `onShow` runs when the system showed it. Returns whether one was made.
 */
export function desktopNotify(n: { title: string; body: string; tag: string; open?: () => void; onShow?: () => void }): boolean {
  if (notifyState() !== 'on' || !lookingElsewhere()) return false;
  const shown = new Notification(n.title, { body: n.body, tag: n.tag });
  shown.addEventListener('click', () => {
    window.focus();
    shown.close();
    n.open?.();
  });
  if (n.onShow) shown.addEventListener('show', n.onShow);
  return true;
}
