/** A real TeamHost on a workspace, driven through one view's protocol (HostSession), as a dashboard drives it. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RecentWorkspaces } from '../../src/main/host/recent.js';
import { HostSession } from '../../src/main/host/session.js';
import { TeamHost } from '../../src/main/host/team-host.js';
import type { HostEvent } from '../../src/contract/api.js';

export interface HostView {
  events: HostEvent[];
  call(body: Record<string, unknown>): Promise<Extract<HostEvent, { type: 'reply' }>>;
  close(): Promise<void>;
}

/** Opens the host (no lead started) with a throw-away HOME and subscribes one view. */
export async function openHostView(workspace: string): Promise<HostView> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'host-view-'));
  const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, 'cfg'), ANTHROPIC_API_KEY: '', ANTHROPIC_AUTH_TOKEN: '' };
  const host = new TeamHost({ workspace, startLead: false, recent: new RecentWorkspaces(path.join(home, 'r.json')), env });
  const events: HostEvent[] = [];
  const s = new HostSession(host, (e) => events.push(e));
  await host.open();
  let id = 1;
  const call = async (body: Record<string, unknown>) => {
    const n = ++id;
    await s.handle({ id: n, ...body });
    return events.find((e) => e.type === 'reply' && e.id === n) as Extract<HostEvent, { type: 'reply' }>;
  };
  await call({ type: 'subscribe' });
  return {
    events,
    call,
    close: async () => {
      await host.close();
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}
