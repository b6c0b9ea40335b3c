/**
 * "Open remote folder…" in the desktop app's menu, through the real main.ts with Electron replaced by fakes (no
 * Electron binary here): the menu item's click asks the page for its remote dialog, with the remote workspaces
 * this machine opened lately; and the RemoteViews main makes opens a picked remote with the stored key only when
 * the person ticked "use my key there".
 */
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const h = vi.hoisted(() => ({ template: null as unknown, win: null as unknown, viewOpts: null as unknown, app: null as unknown }));

vi.mock('electron', () => ({
  get app() {
    return h.app;
  },
  ipcMain: { on: vi.fn() },
  safeStorage: { isEncryptionAvailable: () => true, encryptString: (s: string) => Buffer.from(s), decryptString: (b: Buffer) => b.toString() },
  Menu: { buildFromTemplate: vi.fn((t: unknown) => (h.template = t)), setApplicationMenu: vi.fn() },
}));
vi.mock('./window.js', () => ({
  lockDownSession: vi.fn(),
  createWindow: vi.fn(() => (h.win = Object.assign(new EventEmitter(), { isDestroyed: () => false, webContents: Object.assign(new EventEmitter(), { send: vi.fn(), reload: vi.fn() }) }))),
}));
vi.mock('../daemon/remote-views.js', () => ({
  RemoteViews: class {
    constructor(_first: unknown, opts: unknown) {
      h.viewOpts = opts;
    }
    connect() {
      return { handle: vi.fn(), close: vi.fn() };
    }
  },
}));
vi.mock('../daemon/desktop-keys.js', () => ({ DesktopKeys: class { current = () => 'sk-ant-stored-key-0123456789' } }));

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'menu-home-'));
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

describe('the desktop app\'s "Open remote folder…"', () => {
  it('the menu item asks the page for the remote dialog, listing recent remotes; "use my key there" alone sends the stored key', async () => {
    vi.stubEnv('XDG_CONFIG_HOME', path.join(home, 'cfg'));
    fs.mkdirSync(path.join(home, 'cfg', 'thclaws'), { recursive: true });
    fs.writeFileSync(path.join(home, 'cfg', 'thclaws', 'recent-remotes.json'), JSON.stringify(['ssh://me@devbox/home/me/app']));
    let ready!: () => void;
    const readyP = new Promise<void>((r) => (ready = r));
    h.app = Object.assign(new EventEmitter(), { isPackaged: false, requestSingleInstanceLock: () => true, quit: vi.fn(), enableSandbox: vi.fn(), whenReady: () => readyP });
    await import('./main.js');
    ready();
    await new Promise((r) => setTimeout(r, 0));
    const file = (h.template as Array<{ label?: string; submenu?: Array<{ label?: string; click?: () => void }> }>).find((m) => m.label === 'File');
    const item = file?.submenu?.find((i) => i.label === 'Open remote folder…');
    expect(item, 'File ▸ Open remote folder…').toBeTruthy();
    item!.click!();
    const web = (h.win as { webContents: { send: ReturnType<typeof vi.fn> } }).webContents;
    await vi.waitFor(() => expect(web.send).toHaveBeenCalled());
    const [channel, text] = web.send.mock.calls.at(-1) as [string, string];
    expect(channel).toBe('thclaws:event');
    expect(JSON.parse(text)).toEqual({ type: 'remotes', urls: ['ssh://me@devbox/home/me/app'], dialog: true });

    const opts = h.viewOpts as { remoteFor(url: string, mine: boolean): { remote: { key?: () => string | null; remote: { host: string; dir: string } } } };
    const plain = opts.remoteFor('ssh://me@devbox:2222/srv/app', false);
    expect(plain.remote.remote).toMatchObject({ host: 'devbox', dir: '/srv/app' });
    expect(plain.remote.key, 'nothing local is sent by default').toBeUndefined();
    expect(opts.remoteFor('ssh://me@devbox/srv/app', true).remote.key?.()).toBe('sk-ant-stored-key-0123456789');
    vi.unstubAllEnvs();
  });
});
