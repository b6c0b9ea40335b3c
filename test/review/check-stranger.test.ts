/**
 * A check's end never signals a stranger. The check's shell exits leaving only a `setsid` child holding its
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
