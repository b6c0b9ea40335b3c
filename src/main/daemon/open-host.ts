import path from 'node:path';
import { LEAD } from '../../core/store/index.js';
import { HostManager } from '../host/connection.js';
import { typeWhenReady } from '../host/lead-prompt.js';
import { TeamHost, thclawsBin, type TeamHostOptions } from '../host/team-host.js';

export interface OpenHostOptions {
  startLead?: boolean;
  leadScript?: string;
  leadPrompt?: string;
  extra?: Partial<TeamHostOptions>;
}

/** Opens a workspace's TeamHost (starting the lead unless told not to) behind a HostManager views connect to. */
export async function openHostManager(workspace: string, opts: OpenHostOptions = {}): Promise<HostManager> {
  const leadArgv = opts.leadScript ? [thclawsBin(), '--script', path.resolve(opts.leadScript)] : undefined;
  const hostOpts: TeamHostOptions = { workspace, startLead: opts.startLead, leadArgv, ...(opts.leadPrompt ? { leadPrompt: opts.leadPrompt } : {}), ...opts.extra };
  const host = new TeamHost(hostOpts);
  await host.open();
  if (hostOpts.leadPrompt && opts.startLead !== false) void typeWhenReady(host.terminal(LEAD), hostOpts.leadPrompt);
  return new HostManager(host, (o) => new TeamHost(o));
}
