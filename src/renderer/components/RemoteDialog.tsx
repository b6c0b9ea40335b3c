import { useState } from 'react';
import { client } from '../context';
import { dashboard, useDashboard } from '../store';
import { Dialog } from './Dialog';

/**
 * "Open remote folder…": a workspace on another machine, reached through the person's own ssh
 * (`ssh://[user@]host[:port]/path`). The agents use that machine's key unless "use my key there" is ticked:
 * then this machine's key is held in the remote host's memory, never on a command line or in a file there.
 */
export function RemoteDialog() {
  const open = useDashboard((s) => s.remoteDialog);
  const remotes = useDashboard((s) => s.remotes);
  const [url, setUrl] = useState('');
  const [mine, setMine] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!open) return null;
  const close = () => dashboard.setState({ remoteDialog: false });
  const submit = async () => {
    setBusy(true);
    try {
      await client.request({ type: 'open_workspace', dir: url.trim(), use_my_key: mine });
      close();
    } catch (err) {
      dashboard.getState().notify('error', (err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog label="Open remote folder" className="remote-dialog" onClose={close}>
      <h2>Open remote folder</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label>
          ssh URL
          <input autoFocus value={url} list="recent-remotes" placeholder="ssh://me@devbox/home/me/project" pattern="ssh://.+" required onChange={(e) => setUrl(e.target.value)} />
        </label>
        <datalist id="recent-remotes">
          {remotes.map((r) => (
            <option key={r} value={r} />
          ))}
        </datalist>
        <label className="check">
          <input type="checkbox" checked={mine} onChange={(e) => setMine(e.target.checked)} /> use my key there (held in the remote host&apos;s memory; otherwise the agents use that
          machine&apos;s own key)
        </label>
        <p>The team runs on that machine: closing this window or losing the link leaves it working there.</p>
        <div className="modal-actions">
          <button type="button" onClick={close}>
            Cancel
          </button>
          <button type="submit" disabled={busy || !url.trim()}>
            {busy ? 'Connecting…' : 'Open'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
