/**
 * The dashboard's Stop of a teammate this host runs in its pty, when that teammate cannot act on SIGTERM (stopped
 * with SIGSTOP, as a debugger or a job-control slip leaves it): the Stop is answered, the process is gone and the
 * pane reads stopped — never a Stop that waits for ever on a process that will not end.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { pidAlive, TeamStore } from '../../src/core/store/index.js';
import { openHostView, type HostView } from '../host-view.js';
import { agentSimScript, makeTeamWorkspace, waitFor } from './helpers.js';

let view: HostView | undefined;
afterEach(async () => {
  await view?.close();
  view = undefined;
});

const member = (v: HostView, name: string) =>
  [...v.events].reverse().flatMap((e) => (e.type === 'member' ? [e.member] : e.type === 'roster' ? e.members : [])).find((m) => m.name === name);

describe('Stop of a host-run teammate that is stopped (SIGSTOP)', () => {
  it('is answered within the grace, the process and its pty are gone, and it reads stopped', async () => {
    const ws = makeTeamWorkspace(['bob']);
    view = await openHostView(ws, { host: { teammateArgv: (name) => [process.execPath, agentSimScript(), name], stopGraceMs: 500 } });
    expect((await view.call({ type: 'respawn', agent: 'bob' })).ok).toBe(true);
    const store = new TeamStore(view.host.store.dir);
    const st = await waitFor(async () => {
      const s = await store.statuses.read('bob');
      return s?.pid && s.pid !== process.pid ? s : null;
    }, 'bob running');
    const term = member(view, 'bob')?.terminal;
    const pty = term?.kind === 'pty' ? term.pid : undefined;
    expect(pty).toBeGreaterThan(0);
    process.kill(st.pid!, 'SIGSTOP');
    const reply = await Promise.race([view.call({ type: 'stop', agent: 'bob' }), new Promise<null>((r) => setTimeout(() => r(null), 20_000))]);
    expect(reply, 'the Stop was never answered').not.toBeNull();
    expect(reply!.ok, String(reply!.error)).toBe(true);
    expect(pidAlive(st.pid!)).toBe(false);
    expect(pidAlive(pty!)).toBe(false);
    await waitFor(() => member(view!, 'bob')?.state === 'stopped', 'bob reads stopped');
  });

  it('one that ignores SIGTERM is ended by SIGKILL after the grace, and the Stop is answered', async () => {
    const ws = makeTeamWorkspace(['bob']);
    const mark = `thclaws-deaf-${process.pid}-${Date.now()}`;
    view = await openHostView(ws, { host: { teammateArgv: () => ['bash', '-c', `trap '' TERM; exec -a ${mark} sleep 600`], stopGraceMs: 500 } });
    expect((await view.call({ type: 'respawn', agent: 'bob' })).ok).toBe(true);
    const deaf = await waitFor(() => pgrep(mark), 'the teammate running');
    const reply = await Promise.race([view.call({ type: 'stop', agent: 'bob' }), new Promise<null>((r) => setTimeout(() => r(null), 20_000))]);
    expect(reply, 'the Stop was never answered').not.toBeNull();
    expect(reply!.ok, String(reply!.error)).toBe(true);
    expect(pidAlive(deaf)).toBe(false);
  });
});

/** The pid of the process whose argv[0] is `mark`, if one runs. */
function pgrep(mark: string): number | null {
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0')[0] === mark) return Number(d);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}
