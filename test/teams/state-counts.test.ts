/**
 * "Waiting for you" is its own count: an agent whose approval waits for the person is not counted as working,
 * in `thclaws team status` (a real CLI process) nor in the dashboard's header counts (the host's member views,
 * folded by the renderer's own counting).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, scrubbedEnv } from '../agent/helpers.js';
import { selfProcess, TeamStore } from '../../src/core/store/index.js';
import { HostSession } from '../../src/main/host/session.js';
import { RecentWorkspaces } from '../../src/main/host/recent.js';
import { TeamHost } from '../../src/main/host/team-host.js';
import type { HostEvent } from '../../src/contract/api.js';
import { teamCounts } from '../../src/renderer/store/counts.js';
import { shownMember } from '../desktop/helpers.js';
import { cleanupsAfterEach, teamWorkspace, waitFor } from './helpers.js';

const cleanups = cleanupsAfterEach();

describe('agents waiting for the person are counted apart', () => {
  it('`team status` and the dashboard count "waiting for you", not working; an agent in error is counted as error', async () => {
    const ws = teamWorkspace();
    cleanups.push(() => ws.cleanup());
    const env = scrubbedEnv(ws.home);
    expect((await runCli(['team', 'create', 't', '--members', 'ann,bo,cy'], { cwd: ws.dir, env })).code).toBe(0);
    const store = TeamStore.forWorkspace(ws.dir);
    // Live agents (this very process stands in for each), as their heartbeats write them.
    const me = selfProcess();
    const live = { pid: me.pid, pid_start: me.start, host: os.hostname() };
    const now = Date.now();
    const waiting = { request_id: 'perm-1', kind: 'permission', agent: 'ann', tool: 'Bash', summary: 'npm test', cwd: ws.dir, epoch: null, since: now, deadline: now + 600_000 };
    await store.statuses.write('ann', { status: 'working', ...live, waiting } as never);
    await store.statuses.write('bo', { status: 'working', ...live } as never);
    await store.statuses.write('cy', { status: 'error', ...live, error: 'API key refused (401)' } as never);

    const r = await runCli(['team', 'status'], { cwd: ws.dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('agents: 1 working, 1 waiting for you, 1 error, 1 not started');
    expect(r.stdout.split('\n').find((l) => l.startsWith('ann '))).toContain('working, waiting for approval perm-1');

    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'host-home-'));
    const host = new TeamHost({ workspace: ws.dir, startLead: false, env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') }, recent: new RecentWorkspaces(path.join(home, 'r.json')) });
    cleanups.push(() => host.close());
    await host.open();
    const events: HostEvent[] = [];
    await new HostSession(host, (e) => events.push(e)).handle({ id: 1, type: 'subscribe' });
    const members = await waitFor(() => {
      const all = ['lead', 'ann', 'bo', 'cy'].map((n) => shownMember(events, n));
      return all.every((m) => m) && all[1]!.waiting_for === 'perm-1' ? all.map((m) => m!) : null;
    }, 'every member in the dashboard');
    expect(teamCounts(members).byState).toEqual({ defined: 1, waiting: 1, working: 1, error: 1 });
    expect(teamCounts(members).working).toBe(1);
  }, 60_000);
});
