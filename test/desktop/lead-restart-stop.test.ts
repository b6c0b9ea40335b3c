/**
 * Stop against the lead's restart, beyond one Stop in the grace: Stop pressed twice, a restart after the Stop
 * (it must start the lead again), and the host closing during the restart (no lead may outlive it).
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

/** A lead deaf to SIGTERM (so the restart's grace is a window to press Stop in), its argv[0] `mark`. */
const deafLead = (mark: string) => {
  marks.push(mark);
  return ['bash', '-c', `trap '' TERM; exec -a ${mark} sleep 600`];
};
const lead = (v: HostView) => v.host.member('lead') as Member | null;

describe('Stop during the lead’s restart', () => {
  it('Stop twice during the grace: both answered, no lead left; a restart afterwards starts it again', async () => {
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
