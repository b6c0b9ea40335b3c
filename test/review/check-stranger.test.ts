/**
 * A check's drain kills what the check left holding its output — also when its shell exited at once, before
 * its pipe could be read from /proc — and never a stranger. The check's shell exits leaving only a `setsid` child holding its
 * output (so its own group is empty and its number free); during the drain a stranger's group takes that number
 * (forced through /proc/sys/kernel/ns_last_pid: root, Linux; elsewhere skipped). When the drain ends, the
 * holder of the output is killed — and the stranger still runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/core/review/run-check.js';
import { waitFor } from '../teams/helpers.js';
import { canForcePid, forkAt, groupMembers, statFields, stillRuns } from '../teams/stranger.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('a check whose shell exits at once', () => {
  it('its setsid child holding the output is killed at the drain, every time (20 checks)', async () => {
    const marker = `60.${process.pid}7`;
    const left = () => processesWith(marker);
    cleanups.push(() => {
      for (const pid of left()) process.kill(pid, 'SIGKILL');
    });
    for (let i = 0; i < 20; i++) {
      let out = '';
      expect(await runCheck(`setsid sleep ${marker} & exit 0`, os.tmpdir(), (s) => (out += s), 60_000, 200)).toBe(0);
      expect(out, `check ${i + 1}`).toContain('[the check left 1 process(es) holding its output: killed]');
      await waitFor(() => left().length === 0, `the setsid child of check ${i + 1} to be gone`, 5000);
    }
  }, 60_000);
});

/** Live processes whose command line holds `marker`. */
function processesWith(marker: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d) && statFields(d)[0] !== 'Z' && statFields(d)[0] !== undefined)
    .filter((d) => {
      try {
        return fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe.skipIf(!canForcePid)("a check's group number taken by a stranger during the drain", () => {
  it('the drain kills the holder of the output, not the stranger', async (ctx) => {
    let out = '';
    const done = runCheck(`echo pid=$$; setsid sleep 60.${process.pid}3 & exit 0`, os.tmpdir(), (s) => (out += s), 60_000, 5000);
    const pid = Number((await waitFor(() => /pid=(\d+)/.exec(out), "the check's shell pid"))[1]);
    // The shell exited and was reaped: its group is empty, its number free.
    await waitFor(() => !fs.existsSync(`/proc/${pid}`), 'the check shell to be gone');
    if (!forkAt(pid, `sleep 120.${process.pid}4 & exit 0`)) return ctx.skip();
    const stranger = groupMembers(pid)[0]!;
    const start = statFields(stranger)[19]!;
    cleanups.push(() => {
      if (stillRuns(stranger, start)) process.kill(stranger, 'SIGKILL');
    });
    expect(await done).toBe(0);
    expect(out).toContain('process(es) holding its output: killed');
    expect(stillRuns(stranger, start), `stranger ${stranger} in group ${pid} killed when the check's drain ended`).toBe(true);
  }, 60_000);

  it("the check's own group is still killed at the drain's end: a child that holds no output goes too", async () => {
    let out = '';
    const quiet = `100.${process.pid}5`;
    const done = runCheck(`echo pid=$$; sleep ${quiet} >/dev/null 2>&1 & setsid sleep 60.${process.pid}6 & exit 0`, os.tmpdir(), (s) => (out += s), 60_000, 1000);
    const pid = Number((await waitFor(() => /pid=(\d+)/.exec(out), "the check's shell pid"))[1]);
    const member = await waitFor(() => groupMembers(pid)[0], 'the quiet child in the check group');
    const start = statFields(member)[19]!;
    cleanups.push(() => {
      if (stillRuns(member, start)) process.kill(member, 'SIGKILL');
    });
    expect(await done).toBe(0);
    await waitFor(() => !stillRuns(member, start), 'the quiet child to be killed with its group', 5000);
  }, 60_000);
});
