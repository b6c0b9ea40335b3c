import type { MenuItemConstructorOptions } from 'electron';

/**
 * The desktop app's menu: Electron's usual one, with "Open remote folder…" in File. Its action is main's
 * (`openRemote` asks the page to show its remote dialog), so a test checks the wiring without Electron.
 */
export function appMenu(openRemote: () => void): MenuItemConstructorOptions[] {
  return [
    { label: 'File', submenu: [{ label: 'Open remote folder…', accelerator: 'CmdOrCtrl+Shift+O', click: () => openRemote() }, { type: 'separator' }, { role: 'quit' }] },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
  ];
}
