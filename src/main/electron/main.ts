/**
 * Electron main: a thin shell over the same TeamHost the web transport serves. IPC carries the API
 * contract's messages; every one is validated in the HostSession, as over WebSocket.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, ipcMain, safeStorage, type IpcMainEvent } from 'electron';
import type { KeyCipher } from '../../core/agent/api-key.js';
import { HostManager, type Connection } from '../host/connection.js';
import { RecentWorkspaces } from '../host/recent.js';
import { TeamHost } from '../host/team-host.js';
import { IPC_CHANNELS, type HostEvent } from '../../shared/api.js';
import { createWindow, lockDownSession } from './window.js';

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The workspace: `--dir <path>` or the first plain argument, else the last one opened, else the cwd. */
function pickWorkspace(argv: string[]): string {
  const i = argv.indexOf('--dir');
  const given = i >= 0 ? argv[i + 1] : argv.slice(app.isPackaged ? 1 : 2).find((a) => !a.startsWith('-'));
  const candidates = [given, new RecentWorkspaces().list()[0], process.cwd()];
  for (const c of candidates) if (c && fs.statSync(c, { throwIfNoEntry: false })?.isDirectory()) return path.resolve(c);
  return process.cwd();
}

app.enableSandbox();
app.on('web-contents-created', (_e, contents) => {
  contents.on('will-navigate', (ev) => ev.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
});

void app.whenReady().then(async () => {
  lockDownSession();
  // The stored model key is encrypted by the OS keychain where Electron has one; else a 0600 file, as the CLI writes.
  const keyCipher: KeyCipher | null = safeStorage.isEncryptionAvailable() ? { name: 'electron-safeStorage', encrypt: (s) => safeStorage.encryptString(s), decrypt: (b) => safeStorage.decryptString(b) } : null;
  const host = new TeamHost({ workspace: pickWorkspace(process.argv), keyCipher });
  await host.open();
  const manager = new HostManager(host, (o) => new TeamHost(o));
  const win = createWindow(outDir);
  const send = (e: HostEvent) => {
    if (!win.isDestroyed()) win.webContents.send(IPC_CHANNELS.event, e);
  };
  const conn: Connection = manager.connect(send);
  ipcMain.on(IPC_CHANNELS.request, (e: IpcMainEvent, message: unknown) => {
    // Only our own page may talk to the host.
    if (e.sender !== win.webContents || !e.senderFrame?.url.startsWith('file://')) return;
    void conn.handle(message);
  });
  win.on('closed', () => conn.close());
  app.on('window-all-closed', () => {
    void manager.close().finally(() => app.quit());
  });
});
