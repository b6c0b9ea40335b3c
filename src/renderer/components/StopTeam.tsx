import { useEffect, useRef } from 'react';
import { client } from '../context';
import { dashboard, useDashboard } from '../store';
import { Dialog } from './Dialog';

/** The grace the host gives teammates to stop by themselves (src/main/daemon/stop-team.ts STOP_GRACE_MS). */
const GRACE_S = 15;

/**
 * "Stop the team": the one way from a browser to do what closing the desktop window with "Stop the team and
 * quit" does. Offered only when a host process serves the team (an `--in-process` dashboard stops with Ctrl-C).
 */
export function StopTeamDialog() {
  const open = useDashboard((s) => s.stopOpen);
  const stopping = useDashboard((s) => s.stopping);
  const setOpen = useDashboard((s) => s.setStopOpen);
  const setStopping = useDashboard((s) => s.setStopping);
  const close = useRef<HTMLButtonElement>(null);
  if (!open) return null;
  const stop = async () => {
    // The confirm button is disabled next: focus it would lose (to the page behind the dialog) goes to Close.
    close.current?.focus();
    setStopping(true);
    // The reply comes at once; the page turns to "team stopped" on the host's host_closed, after the grace.
    try {
      await client.request({ type: 'host_stop' });
    } catch (err) {
      setStopping(false);
      dashboard.getState().notify('error', (err as Error).message);
    }
  };
  return (
    <Dialog label="Stop the team" className="stop-team" onClose={() => setOpen(false)}>
      <h2>Stop the team?</h2>
      <p>
        Each teammate is asked to finish its turn and stop, as the lead asks on exit; any still running after {GRACE_S} seconds is stopped. Then the lead
        stops and the team&apos;s host process exits.
      </p>
      <p>Their work, tasks and conversations stay on disk. To start again, reload this page (or run thclaws dashboard); Resume team brings the teammates back on their conversations.</p>
      {stopping && (
        <p role="status" className="stop-progress">
          Stopping the team: waiting up to {GRACE_S} seconds for the teammates…
        </p>
      )}
      <div className="modal-actions">
        <button ref={close} onClick={() => setOpen(false)}>{stopping ? 'Close' : 'Cancel'}</button>
        <button className="danger" disabled={stopping} onClick={() => void stop()}>
          Stop the team
        </button>
      </div>
    </Dialog>
  );
}

/** What the page shows once the host exited on purpose: the team stopped, and how to start it again. */
export function TeamStopped() {
  const reason = useDashboard((s) => s.hostClosed);
  const workspace = useDashboard((s) => s.workspace);
  const ref = useRef<HTMLElement>(null);
  // The control that had focus is gone with the page it was on: focus (and a screen reader) goes to this.
  useEffect(() => ref.current?.focus(), []);
  return (
    <section ref={ref} tabIndex={-1} className="team-stopped" data-testid="team-stopped" aria-labelledby="team-stopped-title">
      <h2 id="team-stopped-title">The team is stopped</h2>
      <p>The workspace&apos;s host process exited ({reason}). No agent is running; their work, tasks and conversations are kept on disk.</p>
      <p>
        Start it again: reload this page, or run <code>thclaws dashboard{workspace ? ` --dir ${workspace.dir}` : ''}</code>. The lead starts, and Resume team brings the
        teammates back on their conversations.
      </p>
      <button onClick={() => location.reload()}>Start the team again</button>
    </section>
  );
}
