import { CliError } from './errors.js';
import { keepServed } from './dashboard-command.js';

export interface RemoteDashboardOptions {
  remote: string;
  remoteBin?: string;
  useMyKey?: boolean;
  host: string;
  port?: string;
  lead: boolean;
  leadScript?: string;
  leadPrompt?: string;
}

/**
 * `thclaws dashboard --remote ssh://…`: this machine serves the page; the workspace, its host and the agents
 * are on the other machine, reached through the person's own ssh. Closing this dashboard (or losing the link)
 * leaves the team running there.
 */
export async function runRemoteDashboard(opts: RemoteDashboardOptions, port: number, untilInterrupted: () => Promise<void>): Promise<void> {
  const [{ runDashboardViaHost }, { parseRemoteUrl }, { keptRemoteEndpoint }] = await Promise.all([import('../main/web/run.js'), import('../main/daemon/remote-url.js'), import('../main/web/endpoint.js')]);
  let url: string;
  try {
    url = parseRemoteUrl(opts.remote).url;
  } catch (err) {
    throw new CliError(`--remote: ${(err as Error).message.split('\n')[0]!}`);
  }
  // "Use my key there": this machine's key, held in the remote host's memory (key_hold over the stream), never
  // on a command line or in a file there. Without it nothing local is sent: the agents use the remote's key.
  let key: (() => string | null) | undefined;
  if (opts.useMyKey) {
    const mine = process.env.ANTHROPIC_API_KEY?.trim();
    if (!mine) throw new CliError('--use-my-key: ANTHROPIC_API_KEY is not set here; without --use-my-key the agents use the remote machine\'s own key');
    key = () => mine;
  }
  let kept: ReturnType<typeof keptRemoteEndpoint> | null = null;
  try {
    kept = keptRemoteEndpoint(url);
    if (kept.note) process.stderr.write(`thclaws: warning: ${kept.note}\n`);
  } catch (err) {
    process.stderr.write(`thclaws: warning: the dashboard's address cannot be kept (${String((err as Error).message).split('\n')[0]}): this dashboard has a new URL\n`);
  }
  const server = await runDashboardViaHost({
    workspace: url,
    port,
    host: opts.host,
    startLead: opts.lead,
    leadScript: opts.leadScript,
    leadPrompt: opts.leadPrompt,
    remote: { url, ...(opts.remoteBin ? { bin: opts.remoteBin } : {}), ...(key ? { key } : {}) },
    ...(kept ? { token: kept.token, ...(opts.port === undefined && kept.port ? { preferredPort: kept.port } : {}) } : {}),
  }).catch((err: Error) => {
    throw new CliError(err.message.split('\n')[0]!);
  });
  keepServed(kept, server);
  const label = server.remote?.label ?? url;
  process.stdout.write(`thclaws dashboard for ${url}\n${server.url}\n`);
  process.stdout.write(`agents run on ${label} in ${server.workspace} (host pid ${server.hostPid} there): closing this dashboard or losing the link leaves them running; the page reconnects by itself\n`);
  await untilInterrupted();
  await server.close();
  process.stdout.write(`the team keeps running on ${label} (host pid ${server.hostPid} there); come back: thclaws dashboard --remote ${url}\n`);
}
