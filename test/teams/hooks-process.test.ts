/**
 * A hook's processes, for real: a hook that leaves a background process holding its output (fire-and-forget
 * notifiers, or one that escapes into its own session) must not hold the agent past its exit or its timeout.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runHooks } from '../../src/core/teams/hooks.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) {
    const pidFile = path.join(d, 'pid');
    if (fs.existsSync(pidFile)) {
      try {
        process.kill(Number(fs.readFileSync(pidFile, 'utf8').trim()), 'SIGKILL');
      } catch {
        // gone
      }
    }
    fs.rmSync(d, { recursive: true, force: true });
  }
});
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'hooks-proc-'));
  dirs.push(d);
  return d;
}
const hooks = (command: string, timeout: number) => ({ PreToolUse: [{ hooks: [{ type: 'command' as const, command, timeout }] }] });

describe('hook processes', () => {
  it('a hook that exits 0 leaving a background job on its stdout passes (it is not taken for a timeout that blocks)', async () => {
    const cwd = tmp();
    const v = await runHooks(hooks('sleep 120 & echo $! > pid; echo notified; exit 0', 5), 'PreToolUse', {}, { cwd });
    expect(v.blocked).toBeUndefined();
    expect(v.results[0]).toMatchObject({ code: 0, timedOut: false, stdout: expect.stringContaining('notified') });
  }, 60_000);

  it('a hook whose child escapes into its own session and keeps the output open still ends at its timeout', async () => {
    const cwd = tmp();
    const v = await runHooks(hooks('setsid sleep 120 & echo $! > pid; sleep 120', 1), 'PreToolUse', {}, { cwd });
    expect(v.blocked).toMatch(/PreToolUse hook refused \(timed out after 1 s\)/);
    expect(v.results[0]!.timedOut).toBe(true);
  }, 30_000);

  it('a hook flooding MBs of binary output and failing blocks with a bounded message', async () => {
    const cwd = tmp();
    const v = await runHooks(hooks('head -c 4000000 /dev/urandom; head -c 4000000 /dev/urandom >&2; exit 3', 30), 'PreToolUse', {}, { cwd });
    expect(v.blocked).toMatch(/^PreToolUse hook refused \(exit 3\)/);
    expect(v.blocked!.length).toBeLessThan(12_000);
  }, 60_000);
});
