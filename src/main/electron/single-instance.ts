/**
 * One desktop app per user: a second launch hands over to the first, whose window comes to the front, and quits
 * before it makes a window or connects to a host (a second client of the same team would be a second place to
 * act from, unseen). Electron's `app` is passed in, so a test drives this with a fake.
 */

/** What of Electron's `app` this needs. */
export interface InstanceApp {
  requestSingleInstanceLock(): boolean;
  on(event: 'second-instance', listener: () => void): unknown;
  quit(): void;
}

/** What of a BrowserWindow this needs. */
export interface FrontWindow {
  isDestroyed(): boolean;
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
}

/** True in the first instance (go on); false in a later one, which is quitting (stop there). */
export function holdSingleInstance(app: InstanceApp, window: () => FrontWindow | null): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', () => {
    const w = window();
    // Launched again before the first window exists: it is about to appear anyway.
    if (!w || w.isDestroyed()) return;
    if (w.isMinimized()) w.restore();
    w.show();
    w.focus();
  });
  return true;
}
