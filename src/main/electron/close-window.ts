import { dialog, type BrowserWindow } from 'electron';

/**
 * Closing the window is a choice: the team keeps running in its host (the dialog says so, and how to come
 * back), or "Stop the team and quit" asks the teammates to stop as the lead does, then ends the host and the app.
 */
export function askOnClose(win: BrowserWindow, workspace: string, opts: { stopTeam(): Promise<void> }): void {
  let decided = false;
  win.on('close', (e) => {
    if (decided) return;
    // THCLAWS_ON_CLOSE=keep|stop answers without asking (a person who chose once for good; the Electron test).
    const preset = ({ keep: 0, stop: 1 } as Record<string, number>)[process.env.THCLAWS_ON_CLOSE ?? ''];
    const choice = preset ?? dialog.showMessageBoxSync(win, {
      type: 'question',
      buttons: ['Keep the team running', 'Stop the team and quit', 'Cancel'],
      defaultId: 0,
      cancelId: 2,
      message: 'The team keeps running after this window closes.',
      detail: `Its agents live in the workspace's host process. Open thclaws again (or run thclaws dashboard --dir ${workspace}) to come back to them with their screens; thclaws host --stop --dir ${workspace} stops them.`,
    });
    if (choice === 0) {
      decided = true;
      return;
    }
    e.preventDefault();
    if (choice !== 1) return;
    decided = true;
    void opts.stopTeam().finally(() => win.close());
  });
}
