/**
 * A teammate this host started, then ended: its pane becomes a read-only tail of output.log (the pty's launcher
 * left the terminal without input). Re-stating the tail's reason on each member push no longer touches the
 * terminal, so what must still hold after an exit, a respawn and a second exit: output written to the log
 * afterwards (by a process this host did not start) reaches the pane once, and the pane keeps the view's size.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../src/contract/api.js';
import { openHostView, type HostView } from '../host-view.js';
import { makeTeamWorkspace, waitFor } from './helpers.js';

let view: HostView | undefined;
afterEach(async () => {
  await view?.close();
  view = undefined;
});

const exits = (v: HostView) => v.events.filter((e) => e.type === 'exit' && e.agent === 'bob').length;
const lastSize = (v: HostView) => v.events.filter((e): e is Extract<HostEvent, { type: 'pty_size' }> => e.type === 'pty_size' && e.agent === 'bob').at(-1);
const count = (s: string, part: string) => s.split(part).length - 1;

describe('the read-only tail after a pty of this host ended', () => {
  it('exit, respawn, exit: later output shows once, and the pane keeps the view’s size', async () => {
    view = await openHostView(makeTeamWorkspace(['bob']), { ack: true, host: { teammateArgv: () => ['bash', '-c', `printf 'run-done\\n'`], stopGraceMs: 500 } });
    const v = view;
    expect((await v.call({ type: 'attach', agent: 'bob', cols: 97, rows: 29 })).ok).toBe(true);
    expect((await v.call({ type: 'resize', agent: 'bob', cols: 97, rows: 29, active: true })).ok).toBe(true);
    for (const n of [1, 2]) {
      expect((await v.call({ type: 'respawn', agent: 'bob' })).ok).toBe(true);
      await waitFor(() => exits(v) === n || null, `bob's run ${n} ended`);
      await waitFor(() => (v.host.member('bob')?.terminal.kind === 'readonly' && v.host.member('bob')!.alive === false) || null, 'its pane read-only');
      // Something else writes to its log afterwards (a process this host did not start): the tail shows it, once.
      const log = v.host.store.outputs.append('bob');
      log.write(`after-${n}\n`);
      await log.close();
      await waitFor(() => count(v.output('bob'), `after-${n}`) >= 1 || null, `after-${n} in the pane`);
      // Member pushes re-state the reason meanwhile: nothing shows twice, the size stays the view's.
      for (let i = 0; i < 5; i++) await v.host.refreshMember('bob');
      expect(count(v.output('bob'), `after-${n}`)).toBe(1);
      // Each run (a respawn runs the same argv) once, each followed by what was written after it.
      expect(v.output('bob')).toBe(['run-done\r\nafter-1\r\n', 'run-done\r\nafter-2\r\n'].slice(0, n).join(''));
      expect(lastSize(v)).toMatchObject({ cols: 97, rows: 29 });
    }
  }, 60_000);
});
