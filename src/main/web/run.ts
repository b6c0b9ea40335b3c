import fs from 'node:fs';
import path from 'node:path';
import { HostManager } from '../host/connection.js';
import { RecentWorkspaces } from '../host/recent.js';
import { packageRoot } from '../host/package-root.js';
import { TeamHost, thclawsBin, type TeamHostOptions } from '../host/team-host.js';
import { LEAD } from '../../core/store/index.js';
import { typeWhenReady } from '../host/lead-prompt.js';
import { RemoteViews, type HostTarget } from '../daemon/remote-views.js';
import { demoTarget, hostTarget } from '../daemon/host-targets.js';
import { remoteTarget, type RemoteChoice } from '../daemon/remote-target.js';
import { parseRemoteUrl, type RemoteSpec } from '../daemon/remote-url.js';
import { startDashboardServer, type DashboardServer } from './server.js';
import { withClaudeCode } from '../claude-code/switch.js';
import { ClaudeCodeViews } from '../claude-code/views.js';

export interface RunDashboardOptions {
  workspace: string;
  port?: number;
  /** The port this workspace's last dashboard served on (src/main/web/endpoint.ts): used when free. */
  preferredPort?: number;
  host?: string;
  startLead?: boolean;
  leadScript?: string;
  /** Typed into the lead's REPL once it shows its prompt (the live demo). */
  leadPrompt?: string;
  token?: string;
  /** Built renderer; default `<package>/out/renderer`. */
  rendererDir?: string;
  extra?: Partial<TeamHostOptions>;
}

/** Opens the workspace in a TeamHost and serves it; closing the server stops the host and its ptys. */
export async function runDashboard(opts: RunDashboardOptions): Promise<DashboardServer & { manager: HostManager }> {
  const rendererDir = opts.rendererDir ?? path.join(packageRoot(), 'out', 'renderer');
  if (!fs.existsSync(path.join(rendererDir, 'index.html'))) throw new Error(`the dashboard is not built (${rendererDir}/index.html missing): run npm run build:renderer`);
  const leadArgv = opts.leadScript ? [thclawsBin(), '--script', path.resolve(opts.leadScript)] : undefined;
  const hostOpts: TeamHostOptions = { workspace: opts.workspace, startLead: opts.startLead, leadArgv, ...(opts.leadPrompt ? { leadPrompt: opts.leadPrompt } : {}), ...opts.extra };
  const host = new TeamHost(hostOpts);
  await host.open();
  if (hostOpts.leadPrompt && opts.startLead !== false) void typeWhenReady(host.terminal(LEAD), hostOpts.leadPrompt);
  const manager = new HostManager(host, (o) => new TeamHost(o));
  const server = await startDashboardServer({ manager: withClaudeCode(manager, new ClaudeCodeViews()), rendererDir, port: opts.port, preferredPort: opts.preferredPort, host: opts.host, token: opts.token }).catch(async (err: unknown) => {
    await manager.close();
    throw err;
  });
  return {
    ...server,
    manager,
    close: async () => {
      await server.close();
      await manager.close();
    },
  };
}

/**
 * The dashboard as a client of the workspace's host process (`thclaws host`, started detached when none runs):
 * the agents and their terminals live in the host, so closing or killing the dashboard leaves them running,
 * and a dashboard started again shows the same agents with their screens restored.
 */
export async function runDashboardViaHost(opts: RunDashboardOptions & { env?: NodeJS.ProcessEnv; target?: HostTarget; remote?: RemoteChoice }): Promise<DashboardServer & { hostPid: number; workspace: string; remote?: RemoteSpec }> {
  const rendererDir = opts.rendererDir ?? path.join(packageRoot(), 'out', 'renderer');
  if (!fs.existsSync(path.join(rendererDir, 'index.html'))) throw new Error(`the dashboard is not built (${rendererDir}/index.html missing): run npm run build:renderer`);
  const launch = { startLead: opts.startLead, leadScript: opts.leadScript, leadPrompt: opts.leadPrompt };
  // --remote: the workspace and its host are on another machine, reached through the person's ssh.
  const first = opts.target ?? (opts.remote ? remoteTarget(opts.remote, launch, opts.env) : hostTarget(opts.workspace, launch, opts.env));
  const views = new RemoteViews(first, {
    // Another folder's host starts its lead as this one's did, never with the first prompt or script.
    targetFor: (dir) => hostTarget(dir, { startLead: opts.startLead }, opts.env),
    demo: async () => demoTarget(opts.env, { fromView: true }).target,
    // A remote from the picker: "use my key there" holds this dashboard's ANTHROPIC_API_KEY in that host's memory.
    // On the machine this dashboard was opened on, the program there is the one --remote-bin named.
    remoteFor: (url, useMyKey) => {
      const bin = first.remote?.bin && sameMachine(first.remote.remote, parseRemoteUrl(url)) ? first.remote.bin : undefined;
      return remoteTarget({ url, ...(bin ? { bin } : {}), ...(useMyKey ? { key: envKey(opts.env) } : {}) }, { startLead: opts.startLead }, opts.env);
    },
    remotes: RecentWorkspaces.remotes(opts.env),
  });
  const hostPid = await views.probe();
  const server = await startDashboardServer({ manager: withClaudeCode(views, new ClaudeCodeViews()), rendererDir, port: opts.port, preferredPort: opts.preferredPort, host: opts.host, token: opts.token });
  return { ...server, hostPid, workspace: first.workspace, ...(first.remote ? { remote: first.remote.remote } : {}) };
}

/** This machine's key for "use my key there": its absence is said, rather than a remote lead without the key asked for. */
function envKey(env: NodeJS.ProcessEnv = process.env): () => string {
  const key = env.ANTHROPIC_API_KEY?.trim();
  if (!key) throw new Error("use my key there: this dashboard has no ANTHROPIC_API_KEY; without it the agents use the remote machine's own key");
  return () => key;
}

const sameMachine = (a: RemoteSpec, b: RemoteSpec): boolean => a.host === b.host && a.user === b.user && a.port === b.port;
