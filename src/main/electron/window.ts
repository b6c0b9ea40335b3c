import path from 'node:path';
import { BrowserWindow, session, shell } from 'electron';
import { CSP } from '../web/static.js';

/** The app window: isolated, sandboxed, no Node in the page, no navigation, no new windows, strict CSP. */
export function createWindow(outDir: string): BrowserWindow {
  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    title: 'thclaws Agent Teams',
    backgroundColor: '#0b0d11',
    webPreferences: {
      preload: path.join(outDir, 'preload', 'index.cjs'),
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  });
  const page = path.join(outDir, 'renderer', 'index.html');
  const pageUrl = new URL(`file://${page}`).href;
  win.webContents.on('will-navigate', (e, url) => {
    if (url !== pageUrl) e.preventDefault();
  });
  win.webContents.on('will-redirect', (e) => e.preventDefault());
  win.webContents.setWindowOpenHandler(({ url }) => {
    // Links to the web open in the user's browser, never inside the app.
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-attach-webview', (e) => e.preventDefault());
  void win.loadFile(page);
  return win;
}

/**
 * No remote content and no permissions (camera, microphone, …) for any page of the app, but desktop
 * notifications for its own page: the "needs you" queue tells a person in another window.
 */
export function lockDownSession(): void {
  const s = session.defaultSession;
  s.webRequest.onHeadersReceived((details, cb) => {
    cb({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
  });
  s.webRequest.onBeforeRequest((details, cb) => {
    const ok = details.url.startsWith('file://') || details.url.startsWith('devtools://') || details.url.startsWith('data:');
    cb({ cancel: !ok });
  });
  const ownPage = (url: string) => url.startsWith('file://');
  s.setPermissionRequestHandler((wc, perm, cb) => cb(perm === 'notifications' && ownPage(wc.getURL())));
  s.setPermissionCheckHandler((wc, perm) => perm === 'notifications' && !!wc && ownPage(wc.getURL()));
}
