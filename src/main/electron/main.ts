/**
 * Electron main: a thin client of the workspace's host process (`thclaws host`, started detached when none
 * runs), which owns the agents and their terminals: closing the window, or Electron crashing, leaves the team
 * running, and the next window shows the same agents with their screens restored. IPC carries the API
 * contract's messages. Main parses only what it acts on (remote-views.ts): requests are validated where they
 * enter the host, events where they enter the renderer (its transport); the host's event lines pass as text.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, ipcMain, Menu, safeStorage, type IpcMainEvent } from 'electron';
import { RecentWorkspaces } from '../host/recent.js';
import { demoTarget, hostTarget } from '../daemon/host-targets.js';
import { remoteTarget } from '../daemon/remote-target.js';
import { RemoteViews, type ViewLink } from '../daemon/remote-views.js';
import { withClaudeCode } from '../claude-code/switch.js';
import { ClaudeCodeViews } from '../claude-code/views.js';
import { eventMessages, forwardToWindow, MAIN_REQUEST_ID } from '../daemon/view-event.js';
import { DesktopKeys } from '../daemon/desktop-keys.js';
import { IPC_CHANNELS, type HostEvent } from '../../contract/api.js';
import { appMenu } from './app-menu.js';
import { askOnClose } from './close-window.js';
import { holdSingleInstance } from './single-instance.js';
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

let mainWindow: ReturnType<typeof createWindow> | null = null;
// A second launch focuses this window and quits: it never gets as far as a window or a host connection.
const first = holdSingleInstance(app, () => mainWindow);

if (first) void app.whenReady().then(() => {
  lockDownSession();
  const workspace = pickWorkspace(process.argv);
  // The model key at rest is encrypted by the OS keychain; the hosts (plain Node) get it from here in memory.
  const keys = safeStorage.isEncryptionAvailable()
    ? new DesktopKeys({ name: 'electron-safeStorage', encrypt: (p) => safeStorage.encryptString(p), decrypt: (d) => safeStorage.decryptString(d) })
    : undefined;
  const remotes = RecentWorkspaces.remotes();
  // The picker's "Claude Code teams" entry moves the view to Claude Code's own teams (src/main/claude-code/switch.ts).
  const views = withClaudeCode(new RemoteViews(hostTarget(workspace), {
    targetFor: (d) => hostTarget(d),
    demo: async () => demoTarget(process.env, { fromView: true }).target,
    client: 'electron',
    keys,
    // "Open remote folder…": the stored key goes there only when the person ticks "use my key there".
    remoteFor: (url, useMyKey) => remoteTarget({ url, ...(useMyKey ? { key: () => keys?.current() ?? null } : {}) }, {}),
    remotes,
  }), new ClaudeCodeViews());
  const win = createWindow(outDir);
  mainWindow = win;
  const listeners = new Set<(e: HostEvent) => void>();
  // As over the WebSocket: one IPC message per turn of the event loop, its events one per line.
  const send = forwardToWindow(listeners, eventMessages((text) => {
    if (!win.isDestroyed()) win.webContents.send(IPC_CHANNELS.event, text);
  }));
  // The host killed: a new link (which starts the next host, offering Resume team) and the page loaded afresh.
  const open = (): ViewLink => views.connect(send, () => {
    link.close();
    link = open();
    if (!win.isDestroyed()) win.webContents.reload();
  });
  let link = open();
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenu(() => send({ type: 'remotes', urls: remotes.list(), dialog: true }))));
  // The team stopped on purpose ("Stop the team" in the page): the page's "Start the team again" reloads it,
  // and the reloaded page gets a new link, which starts the host again.
  let stopped = false;
  listeners.add((e) => void (e.type === 'host_closed' && (stopped = true)));
  win.webContents.on('did-start-loading', () => {
    if (!stopped) return;
    stopped = false;
    link.close();
    link = open();
  });
  ipcMain.on(IPC_CHANNELS.request, (e: IpcMainEvent, message: unknown) => {
    // Only our own page may talk to the host.
    if (e.sender !== win.webContents || !e.senderFrame?.url.startsWith('file://')) return;
    void link.handle(message);
  });
  askOnClose(win, workspace, {
    stopTeam: () => new Promise<void>((resolve) => {
      const id = MAIN_REQUEST_ID;
      const l = (e: HostEvent) => {
        if (e.type === 'host_closed' || (e.type === 'reply' && e.id === id && !e.ok)) resolve();
      };
      listeners.add(l);
      void link.handle({ id, type: 'host_stop' });
    }),
  });
  win.on('closed', () => link.close());
  // The team lives in its host: the app ends with its window, the agents do not.
  app.on('window-all-closed', () => app.quit());
});
