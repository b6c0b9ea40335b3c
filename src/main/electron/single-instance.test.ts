/**
 * The desktop app's single-instance lock, through the real main.ts with Electron replaced by a fake `app` (no
 * Electron binary here): a second launch asks for the lock, is refused, quits, and never makes a window or a
 * host connection; the first, when launched again, brings its window to the front (restored if minimised).
 */
import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const h = vi.hoisted(() => ({ lock: true, made: [] as unknown[], connects: 0, app: null as unknown as ReturnType<typeof fakeApp> }));

function fakeApp(lock: boolean) {
  const ev = new EventEmitter();
  let ready!: () => void;
  const readyP = new Promise<void>((r) => (ready = r));
  return Object.assign(ev, {
    isPackaged: false,
    requestSingleInstanceLock: vi.fn(() => lock),
    quit: vi.fn(),
    enableSandbox: vi.fn(),
    whenReady: vi.fn(() => readyP),
    ready: () => ready(),
  });
}

function fakeWindow() {
  const w = Object.assign(new EventEmitter(), {
    minimised: true,
    isDestroyed: () => false,
    isMinimized: () => w.minimised,
    restore: vi.fn(() => void (w.minimised = false)),
    show: vi.fn(),
    focus: vi.fn(),
    webContents: Object.assign(new EventEmitter(), { send: vi.fn(), reload: vi.fn() }),
  });
  return w;
}

vi.mock('electron', () => ({
  get app() {
    return h.app;
  },
  ipcMain: { on: vi.fn() },
  safeStorage: { isEncryptionAvailable: () => false },
  dialog: {},
  Menu: { buildFromTemplate: vi.fn(), setApplicationMenu: vi.fn() },
}));
vi.mock('./window.js', () => ({
  lockDownSession: vi.fn(),
  createWindow: vi.fn(() => {
    const w = fakeWindow();
    h.made.push(w);
    return w;
  }),
}));
vi.mock('../daemon/remote-views.js', () => ({
  RemoteViews: class {
    connect() {
      h.connects++;
      return { handle: vi.fn(), close: vi.fn() };
    }
  },
}));

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('the desktop app runs once per user', () => {
  beforeEach(() => {
    vi.resetModules();
    h.made = [];
    h.connects = 0;
  });

  it('a second launch is refused the lock and quits before any window or host connection', async () => {
    h.app = fakeApp(false);
    await import('./main.js');
    h.app.ready();
    await flush();
    expect(h.app.requestSingleInstanceLock).toHaveBeenCalledOnce();
    expect(h.app.quit).toHaveBeenCalledOnce();
    expect(h.app.whenReady).not.toHaveBeenCalled();
    expect({ windows: h.made.length, connects: h.connects }).toEqual({ windows: 0, connects: 0 });
  });

  it('the first instance, launched again, brings its window to the front', async () => {
    h.app = fakeApp(true);
    await import('./main.js');
    // Launched again before its window exists: nothing to focus, nothing breaks.
    h.app.emit('second-instance');
    h.app.ready();
    await flush();
    expect(h.app.quit).not.toHaveBeenCalled();
    expect({ windows: h.made.length, connects: h.connects }).toEqual({ windows: 1, connects: 1 });
    const w = h.made[0] as ReturnType<typeof fakeWindow>;
    h.app.emit('second-instance');
    expect(w.restore).toHaveBeenCalledOnce();
    expect(w.show).toHaveBeenCalledOnce();
    expect(w.focus).toHaveBeenCalledOnce();
    expect(h.made).toHaveLength(1);
  });
});
