import { useEffect, useRef, useState } from 'react';
import { act } from '../context';
import { dashboard, useDashboard } from '../store';
import { CLAUDE_CODE_DIR } from './ClaudeCode';

/** The picker's entry that asks for a remote workspace (RemoteDialog), never a folder's name. */
const OPEN_REMOTE = ':open-remote';

/**
 * The header's less frequent controls: workspace, connection, help, settings and Stop the team. Inline on a wide window;
 * behind a "Menu" button on a phone-narrow one (styles.css), so ? and ⚙ stay reachable at 390 px.
 */
export function HeaderMenu() {
  // The page's socket may be up while its link to a remote machine is down: that reads as reconnecting too.
  const connected = useDashboard((s) => s.connected && s.linkLost === null);
  const setSettingsOpen = useDashboard((s) => s.setSettingsOpen);
  const setHelpOpen = useDashboard((s) => s.setHelpOpen);
  const workspace = useDashboard((s) => s.workspace);
  const setStopOpen = useDashboard((s) => s.setStopOpen);
  const stopping = useDashboard((s) => s.stopping);
  const team = useDashboard((s) => s.team);
  const remotes = useDashboard((s) => s.remotes);
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    const esc = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('pointerdown', away);
    document.addEventListener('keydown', esc);
    return () => {
      document.removeEventListener('pointerdown', away);
      document.removeEventListener('keydown', esc);
    };
  }, [open]);
  const menuButton = useRef<HTMLButtonElement>(null);
  const pick = (f: () => void) => () => {
    // The phone's menu hides as the dialog opens: focus goes back to the Menu button when the dialog closes.
    if (open) menuButton.current?.focus();
    setOpen(false);
    f();
  };
  return (
    <div className="header-menu" ref={ref}>
      <button ref={menuButton} className="menu-button" aria-expanded={open} aria-controls="header-extra" onClick={() => setOpen(!open)}>
        Menu
      </button>
      <div id="header-extra" className={`header-extra${open ? ' open' : ''}`}>
        {workspace && (
          <select
            className="workspace"
            value={workspace.dir}
            title="recent workspaces"
            aria-label="workspace"
            onChange={(e) => (e.target.value === OPEN_REMOTE ? pick(() => dashboard.setState({ remoteDialog: true }))() : void act({ type: 'open_workspace', dir: e.target.value }))}
          >
            {[workspace.dir, ...workspace.recent.filter((d) => d !== workspace.dir)]
              .filter((d) => !d.startsWith(CLAUDE_CODE_DIR))
              .map((d) => (
                <option key={d}>{d}</option>
              ))}
            {/* Claude Code's own teams (Claude Code runs them; shown read-only where it owns the action), one entry each once open. */}
            {workspace.claudeCode?.teams.length ? (
              workspace.claudeCode.teams.map((t) => (
                <option key={t.name} value={`${CLAUDE_CODE_DIR}${t.name}`}>
                  Claude Code: {t.name}
                  {t.ended ? ' (ended)' : ''}
                </option>
              ))
            ) : (
              <option value={CLAUDE_CODE_DIR}>Claude Code teams{workspace.claudeCode ? ' (none yet)' : ''}</option>
            )}
            {remotes.length > 0 && (
              <optgroup label="remote">
                {remotes.map((u) => (
                  <option key={u}>{u}</option>
                ))}
              </optgroup>
            )}
            <option value={OPEN_REMOTE}>Open remote folder…</option>
          </select>
        )}
        <span className={`conn ${connected ? 'up' : 'down'}`}>{connected ? 'connected' : 'reconnecting…'}</span>
        {/* The label is visually hidden on a wide window (the symbol is enough there), shown in the phone's menu. */}
        <button className="help-button" title="keyboard shortcuts (?)" onClick={pick(() => setHelpOpen(true))}>
          ? <span className="menu-label">keyboard shortcuts</span>
        </button>
        {!workspace?.claudeCode && (
          <button className="gear" title="settings" onClick={pick(() => setSettingsOpen(true))}>
            ⚙ <span className="menu-label">settings</span>
          </button>
        )}
        {/* Only a host process can be stopped from here (an --in-process dashboard ends with Ctrl-C), and only a team. */}
        {workspace?.hostPid && team && (
          <button className="stop-team-button" title="stop every agent and the team's host process" disabled={stopping} onClick={pick(() => setStopOpen(true))}>
            {stopping ? 'Stopping…' : 'Stop the team'}
          </button>
        )}
      </div>
    </div>
  );
}
