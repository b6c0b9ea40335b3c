import { useDashboard } from '../store';

/**
 * The dashboard's server gone for a while (its process killed or stopped): what happened and what brings it
 * back. The page keeps trying; a dashboard started again for the workspace serves the same URL, so this tab
 * comes back by itself and the notice goes.
 */
export function ServerLost() {
  const lost = useDashboard((s) => s.serverLost);
  const foreign = useDashboard((s) => s.serverForeign);
  const workspace = useDashboard((s) => s.workspace);
  const linkLost = useDashboard((s) => s.linkLost);
  if (!lost && linkLost !== null) {
    // The dashboard runs; its SSH link to the team's machine dropped and it is reconnecting on its own.
    return (
      <div className="server-lost" role="alert" data-testid="link-lost">
        <strong>connection to {linkLost} lost — the team keeps running there; reconnecting…</strong> Until it is back, this page's controls send nothing.
      </div>
    );
  }
  if (!lost) return null;
  // Something answers here but cannot show it holds this page's key: never given it, so this page stays off.
  if (foreign) {
    return (
      <div className="server-lost" role="alert" data-testid="server-lost">
        <strong>This page's dashboard is not at this address any more.</strong> What answers here now does not know this page's key (another
        program, or a dashboard started with a new key), so the page gives it nothing. Open the URL that <code>thclaws dashboard --dir {workspace?.dir ?? '<workspace>'}</code> printed.
      </div>
    );
  }
  return (
    <div className="server-lost" role="alert" data-testid="server-lost">
      <strong>The dashboard server stopped.</strong> Run <code>thclaws dashboard --dir {workspace?.dir ?? '<workspace>'}</code> to bring it back; this page
      reconnects by itself. Until then its controls are off.
    </div>
  );
}
