/**
 * The page's "the workspace host (pid N) is stopped" notice (an error: it stays until something closes it) is
 * closed when that is over, whichever way: it runs again, the view says another host serves it now (the stopped
 * one was killed), the view says the stopped one is gone (killed, no other host could start), or a host answers
 * the page's reconnect (a stopped host sends nothing). "Cannot reach" alone leaves it: a hello that timed out on
 * the stopped host is no news that it runs or is gone.
 */
import { describe, expect, it } from 'vitest';
import { createDashboardStore } from './index';

const STOPPED = 'the workspace host (pid 41) is stopped (SIGSTOP or Ctrl-Z where it was started): nothing done here reaches the team until it runs again (kill -CONT 41)';
const stoppedShown = (s: ReturnType<typeof createDashboardStore>) => s.getState().notices.some((n) => /is stopped/i.test(n.text));

describe('the host-stopped notice', () => {
  it('closes on "runs again", on "is gone … serves it now", on "is gone (it was stopped, then ended)", and on a host answering the reconnect; other notices stay', () => {
    for (const closer of [
      { type: 'notice', level: 'info', text: 'the workspace host (pid 41) runs again' },
      { type: 'notice', level: 'info', text: 'the workspace host (pid 41) is gone from this view: pid 42 serves it now' },
      { type: 'notice', level: 'warn', text: 'the workspace host (pid 41) is gone (it was stopped, then ended)' },
      { type: 'workspace', workspace: { dir: '/w', recent: [], team: 'demo', host_pid: 42 } },
    ] as const) {
      const s = createDashboardStore();
      s.getState().apply({ type: 'notice', level: 'error', text: STOPPED });
      s.getState().apply({ type: 'notice', level: 'error', text: 'task 3 is already completed' });
      expect(stoppedShown(s)).toBe(true);
      s.getState().apply(closer);
      expect(stoppedShown(s)).toBe(false);
      expect(s.getState().notices.map((n) => n.text)).toContain('Task 3 is already completed.');
    }
  });

  it('stays beside "cannot reach the workspace host" when the view says nothing of the pid (a hello timed out on the stopped host)', () => {
    const s = createDashboardStore();
    s.getState().apply({ type: 'notice', level: 'error', text: STOPPED });
    s.getState().apply({ type: 'notice', level: 'error', text: 'cannot reach the workspace host: the host for /w did not answer in 10000 ms' });
    expect(stoppedShown(s)).toBe(true);
  });
});
