import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/agent/helpers.js';
import { SessionPermissionChecker } from '../permissions.js';
import { runToolCall } from '../tool-run.js';
import type { ToolContext } from '../types.js';
import { builtinTools } from './index.js';
import { ShellRegistry } from './shells.js';

const tools = builtinTools();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor<T>(fn: () => T | undefined, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((f) => setTimeout(f, 50));
  }
}

const readPid = (file: string) => (existsSync(file) && readFileSync(file, 'utf8').trim() ? Number(readFileSync(file, 'utf8')) : undefined);

/**
 * A process that leaves our process group and keeps stdout open, without the Linux-only `setsid` binary. Perl,
 * not node: it is in its own group within milliseconds of the command's start, long before the test's 1 s
 * timeout even on a starved machine (a node start-up there took longer than the timeout). The parent waits
 * for the pid file, which the child writes only once it has left the group, so the shell's own `sleep` starts
 * with the escapee already out of reach.
 */
const escapee = (pidFile: string) =>
  `perl -e 'if (fork) { select(undef, undef, undef, 0.005) until -s $ARGV[0]; exit } setpgrp(0, 0); open(my $f, ">", $ARGV[0]); print $f $$; close($f); exec("sleep", "30")' '${pidFile}'`;

describe('Bash: output, background children, background shells', () => {
  let root: string;
  let cleanup: () => void;
  let ctx: ToolContext;
  let shells: ShellRegistry;
  let n = 0;
  const call = (name: string, input: unknown, over: Partial<ToolContext> = {}) =>
    runToolCall({ type: 'tool_use', id: `t${++n}`, name, input }, tools, { ...ctx, ...over });

  beforeEach(() => {
    ({ dir: root, cleanup } = tempDir());
    shells = new ShellRegistry();
    ctx = {
      cwd: root, projectRoot: root, role: 'solo', signal: new AbortController().signal, shells,
      permissions: new SessionPermissionChecker('auto', { decide: async () => 'deny' }),
    };
  });
  afterEach(() => {
    shells.killAll();
    cleanup();
  });

  it('keeps the head and the tail with a cut line, and always shows the exit code', async () => {
    const r = await call('Bash', { command: 'seq 1 300000; echo FINAL_ERROR; exit 1' });
    expect(r.isError).toBe(true);
    expect(r.content.startsWith('1\n2\n')).toBe(true);
    expect(r.content).toMatch(/\[\.\.\. \d+ bytes cut from the middle of this output \.\.\.\]/);
    expect(r.content).toMatch(/300000\nFINAL_ERROR\n\[exit code 1\]$/);
    expect((await call('Bash', { command: 'true' })).content).toBe('(no output)\n[exit code 0]');
  });

  it('returns when the foreground finishes although a background child holds the output; the child dies with the agent', async () => {
    const pidFile = path.join(root, 'bg.pid');
    const r = await call('Bash', { command: `sleep 60 & echo $! > ${pidFile}; echo started`, timeout: 30_000 });
    expect(r.isError).toBeFalsy();
    expect(r.content).toMatch(/^started\n\[exit code 0; processes it started in the background keep running/);
    const pid = readPid(pidFile)!;
    expect(alive(pid)).toBe(true);
    shells.killAll();
    await waitFor(() => !alive(pid) || undefined, 'the background child to die');
  });

  it('returns after a timeout even when a process that left the group keeps the output open', async () => {
    const pidFile = path.join(root, 'escaped.pid');
    try {
      const r = await call('Bash', { command: `${escapee(pidFile)}; sleep 30`, timeout: 1000 }, { limits: { bashKillGraceMs: 100 } });
      expect(r.isError).toBe(true);
      expect(r.content).toMatch(/timed out after 1000 ms/);
      expect(r.content).toMatch(/another session was left running/);
    } finally {
      const pid = readPid(pidFile);
      if (pid) process.kill(pid, 'SIGKILL');
    }
  }, 20_000);

  it('run_in_background returns an id at once; BashOutput gives new output since the last read; KillShell ends the group', async () => {
    const pidFile = path.join(root, 'server.pid');
    const start = await call('Bash', { command: `sleep 120 & echo $! > ${pidFile}; echo ready; while true; do sleep 0.1; if [ -f go ]; then echo tick; rm go; fi; done`, run_in_background: true });
    const id = /started in the background as (shell_\d+)/.exec(start.content)?.[1];
    expect(id, start.content).toBeDefined();
    const first = await waitForOutput(id!, /ready/);
    expect(first).toMatch(/^ready\n\[shell_\d+: running\]$/);
    expect((await call('BashOutput', { id })).content).toBe(`(no new output)\n[${id}: running]`);
    await call('Bash', { command: 'touch go' });
    expect(await waitForOutput(id!, /tick/)).toBe(`tick\n[${id}: running]`);
    const child = readPid(pidFile)!;
    expect((await call('KillShell', { id })).content).toBe(`killed ${id}`);
    await waitFor(() => !alive(child) || undefined, 'the server\'s child to die');
    expect((await call('BashOutput', { id })).content).toMatch(/\[shell_\d+: killed\]$/);
    expect((await call('KillShell', { id: 'shell_99' })).content).toMatch(/no background shell "shell_99"; running or finished: shell_1/);
  }, 30_000);

  async function waitForOutput(id: string, re: RegExp): Promise<string> {
    let seen = '';
    const end = Date.now() + 20_000;
    while (Date.now() < end) {
      const r = await call('BashOutput', { id });
      if (re.test(r.content)) return r.content;
      seen += r.content;
      await new Promise((f) => setTimeout(f, 50));
    }
    throw new Error(`no ${re} in ${seen}`);
  }

  it('KillShell ends a background group whose processes ignore SIGTERM', async () => {
    const pidFile = path.join(root, 'stubborn.pid');
    const start = await call('Bash', { command: `trap '' TERM; sleep 300 & echo $! > ${pidFile}; echo up; wait`, run_in_background: true });
    const id = /started in the background as (shell_\d+)/.exec(start.content)?.[1];
    await waitForOutput(id!, /up/);
    const child = await waitFor(() => readPid(pidFile), 'the child pid');
    expect(alive(child)).toBe(true);
    expect((await call('KillShell', { id })).content).toBe(`killed ${id}`);
    await waitFor(() => !alive(child) || undefined, 'the SIGTERM-ignoring child to die');
  }, 30_000);

  it('Ctrl-C ends a command that ignores SIGTERM within about a second', async () => {
    const ac = new AbortController();
    // A minute of grace for timeouts: Ctrl-C must not wait for it (the test's 15 s deadline would fail).
    const p = call('Bash', { command: "trap '' TERM; sleep 30" }, { signal: ac.signal, limits: { bashKillGraceMs: 60_000 } });
    setTimeout(() => ac.abort(), 200);
    const r = await p;
    expect(r.content).toMatch(/aborted by the user/);
  }, 15_000);
});
