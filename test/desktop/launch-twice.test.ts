/**
 * A double click on Respawn, or Resume team pressed twice, starts one process, never two: before, both launches
 * passed the "already running" check while node-pty loaded, and the second process ran on untracked (the pane
 * and Stop held only one of them). A Stop pressed while the lead restarts wins over the restart, and the host
 * closing during one leaves no lead.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Member } from '../../src/contract/api.js';
import { openHostView, type HostView } from '../host-view.js';
import { makeTeamWorkspace, waitFor } from './helpers.js';

let view: HostView | undefined;
const marks: string[] = [];
afterEach(async () => {
  await view?.close();
  view = undefined;
  for (const m of marks.splice(0)) for (const pid of pgrep(m)) process.kill(pid, 'SIGKILL');
});

/** A process that runs until stopped, its argv[0] `mark` (so the test counts them). */
const sleeper = (mark: string) => {
  marks.push(mark);
  return ['bash', '-c', `exec -a ${mark} sleep 600`];
};

describe('one process per agent however often it is started at once', () => {
  it('Respawn sent twice at once starts the teammate once; the other is refused in one line', async () => {
    const mark = `thclaws-twice-bob-${process.pid}`;
    view = await openHostView(makeTeamWorkspace(['bob']), { host: { teammateArgv: () => sleeper(mark), stopGraceMs: 500 } });
    const replies = await Promise.all([view.call({ type: 'respawn', agent: 'bob' }), view.call({ type: 'respawn', agent: 'bob' })]);
    expect(replies.filter((r) => r.ok)).toHaveLength(1);
    expect(replies.find((r) => !r.ok)?.error).toMatch(/bob is already (starting|running) in this host/);
    await waitFor(() => pgrep(mark).length > 0 || null, 'bob running');
    expect(pgrep(mark)).toHaveLength(1);
    // The one Stop the dashboard has ends it: nothing of bob runs on.
    expect((await view.call({ type: 'stop', agent: 'bob' })).ok).toBe(true);
    await waitFor(() => pgrep(mark).length === 0 || null, 'no bob left');
  });

  it('the lead restarted twice at once (Resume team pressed twice) runs once', async () => {
    const mark = `thclaws-twice-lead-${process.pid}`;
    view = await openHostView(makeTeamWorkspace(['bob']), { host: { startLead: true, leadArgv: sleeper(mark), stopGraceMs: 500 } });
    await waitFor(() => pgrep(mark).length === 1 || null, 'the lead running');
    const first = pgrep(mark)[0];
    const done = await Promise.allSettled([view.host.restartLead(), view.host.restartLead()]);
    expect(done.filter((d) => d.status === 'fulfilled')).toHaveLength(1);
    await waitFor(() => (pgrep(mark).length && !pgrep(mark).includes(first!)) || null, 'the new lead running');
    expect(pgrep(mark)).toHaveLength(1);
    expect((await view.call({ type: 'stop', agent: 'lead' })).ok).toBe(true);
    await waitFor(() => pgrep(mark).length === 0 || null, 'no lead left');
  });

  it('Stop pressed (twice) while the lead restarts wins: both answered, the restart says so, no lead left; a restart afterwards starts it again', async () => {
    const mark = `thclaws-stop2-lead-${process.pid}`;
    view = await openHostView(makeTeamWorkspace(['bob']), { host: { startLead: true, leadArgv: deafLead(mark), stopGraceMs: 1500 } });
    await waitFor(() => pgrep(mark).length === 1 || null, 'the lead running');
    const restart = view.host.restartLead();
    restart.catch(() => undefined);
    // The restart has sent its SIGTERM and waits out the grace (its check of "running" is synchronous): Stop lands in it.
    const stops = await Promise.all([view.call({ type: 'stop', agent: 'lead' }), view.call({ type: 'stop', agent: 'lead' })]);
    expect(stops.map((r) => r.ok)).toEqual([true, true]);
    await expect(restart).rejects.toThrow('the lead was stopped while it restarted');
    await waitFor(() => pgrep(mark).length === 0 || null, 'no lead left');
    await waitFor(() => (lead(view!) && !lead(view!)!.alive) || null, 'the lead shown not alive');
    // The person restarts it: the earlier Stop must not cancel this one.
    await view.host.restartLead();
    await waitFor(() => pgrep(mark).length === 1 || null, 'the lead running again');
    await waitFor(() => lead(view!)?.alive || null, 'the lead shown alive');
  }, 60_000);

  it('the host closing during the restart’s grace: the restart starts no lead, and none outlives the host', async () => {
    const mark = `thclaws-close-lead-${process.pid}`;
    view = await openHostView(makeTeamWorkspace(['bob']), { host: { startLead: true, leadArgv: deafLead(mark), stopGraceMs: 1500 } });
    await waitFor(() => pgrep(mark).length === 1 || null, 'the lead running');
    const restart = view.host.restartLead();
    restart.catch(() => undefined);
    const v = view;
    view = undefined;
    await v.close();
    await expect(restart).rejects.toThrow();
    await waitFor(() => pgrep(mark).length === 0 || null, 'no lead left', 10_000);
    // Past the grace: still none (a restart that went on would have started one by now).
    const until = Date.now() + 2_000;
    await waitFor(() => Date.now() > until || null, 'two seconds past the grace');
    expect(pgrep(mark)).toEqual([]);
  }, 60_000);
});

/** A lead deaf to SIGTERM (so the restart's grace is a window to press Stop in), its argv[0] `mark`. */
function deafLead(mark: string): string[] {
  marks.push(mark);
  return ['bash', '-c', `trap '' TERM; exec -a ${mark} sleep 600`];
}
const lead = (v: HostView) => v.host.member('lead') as Member | null;

/** Pids of the processes whose argv[0] is `mark`. */
function pgrep(mark: string): number[] {
  return fs.readdirSync('/proc').flatMap((d) => {
    if (!/^\d+$/.test(d)) return [];
    try {
      return fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0')[0] === mark ? [Number(d)] : [];
    } catch {
      return [];
    }
  });
}
