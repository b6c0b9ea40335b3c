/** A real TeamHost on a workspace, driven through one view's protocol (HostSession), as a dashboard drives it. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RecentWorkspaces } from '../src/main/host/recent.js';
import { HostSession } from '../src/main/host/session.js';
import { TeamHost, type TeamHostOptions } from '../src/main/host/team-host.js';
import type { HostEvent } from '../src/contract/api.js';

/** A reply; `result` as loose as the tests that read into it need. */
export type HostReply = Extract<HostEvent, { type: 'reply' }> & { result?: any };

export interface HostView {
  host: TeamHost;
  events: HostEvent[];
  /** The config home the host's agents get (`env.HOME`). */
  home: string;
  env: { HOME: string; XDG_CONFIG_HOME: string } & Record<string, string>;
  call(body: Record<string, unknown>): Promise<HostReply>;
  /** Everything one agent's pane was sent (output and replays), in order. */
  output(agent: string): string;
  close(): Promise<void>;
}

export interface HostViewOptions {
  /** The agents' HOME; default a throw-away one (removed by close), with `cfg/` as XDG_CONFIG_HOME and no key. */
  home?: string;
  env?: { HOME: string; XDG_CONFIG_HOME: string } & Record<string, string>;
  /** TeamHost options beyond the workspace, env and recent list (default: no lead started). */
  host?: Partial<TeamHostOptions>;
  /** Acknowledge each output as xterm's write callback would, so a chatty pty keeps flowing. */
  ack?: boolean;
}

/** Opens the host and subscribes one view. */
export async function openHostView(workspace: string, opts: HostViewOptions = {}): Promise<HostView> {
  const ownHome = opts.home === undefined && opts.env === undefined;
  const home = opts.env?.HOME ?? opts.home ?? fs.mkdtempSync(path.join(os.tmpdir(), 'host-view-'));
  const env = opts.env ?? { HOME: home, XDG_CONFIG_HOME: path.join(home, 'cfg'), ANTHROPIC_API_KEY: '', ANTHROPIC_AUTH_TOKEN: '' };
  const host = new TeamHost({ workspace, startLead: false, recent: new RecentWorkspaces(path.join(home, 'r.json')), env, ...opts.host });
  const events: HostEvent[] = [];
  const s: HostSession = new HostSession(host, (e) => {
    events.push(e);
    if (opts.ack && (e.type === 'output' || e.type === 'replay')) setTimeout(() => void s.handle({ id: 0, type: 'ack', agent: e.agent, chars: Math.max(1, e.data.length) }), 1);
  });
  await host.open();
  let id = 1;
  const call = async (body: Record<string, unknown>): Promise<HostReply> => {
    const n = ++id;
    await s.handle({ id: n, ...body });
    return events.find((e) => e.type === 'reply' && e.id === n) as HostReply;
  };
  await call({ type: 'subscribe' });
  const output = (agent: string) => events.filter((e) => (e.type === 'output' || e.type === 'replay') && e.agent === agent).map((e) => (e as { data: string }).data).join('');
  return {
    host,
    events,
    home,
    env,
    call,
    output,
    close: async () => {
      await host.close();
      if (ownHome) fs.rmSync(home, { recursive: true, force: true });
    },
  };
}
