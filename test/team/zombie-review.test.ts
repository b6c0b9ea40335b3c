/**
 * Hostile review of pid liveness: a process that exited but was not reaped (its parent never waits: a
 * script's Popen without wait(), a stopped parent) is a zombie. Its pid answers kill(0) and keeps its start
 * time, yet it will never refresh a lease, finish a spawn or exit further: it must read as dead, or a lock,
 * a lease or a `spawning` status it held blocks everyone until its parent goes.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { holderDead, pidIsSame, processStart } from '../../src/core/store/holder.js';
import { deriveState, spawnerDead } from '../../src/core/store/status.js';
import { newHolder } from '../../src/core/store/holder.js';

function state(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return '';
  }
}

const parents: number[] = [];
afterEach(() => {
  for (const p of parents.splice(0)) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

/** A child that exited and that its parent (a `sleep` that never waits) leaves unreaped. */
async function zombie(): Promise<{ pid: number; start: string }> {
  // The child outlives the `exec` by a second: one that exits while `sh` is still running is reaped by `sh`.
  const parent = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 600'], { stdio: ['ignore', 'pipe', 'ignore'] });
  parents.push(parent.pid!);
  const pid = await new Promise<number>((resolve) => parent.stdout.once('data', (b) => resolve(Number(String(b).trim()))));
  // Its start time, read while it exists (a zombie keeps it).
  const start = processStart(pid);
  for (let i = 0; i < 5000 && state(pid) !== 'Z'; i++) await new Promise((r) => setTimeout(r, 10));
  expect(state(pid)).toBe('Z');
  return { pid, start };
}

describe.runIf(process.platform === 'linux')('a zombie pid is a dead process', () => {
  it('a lock or lease holder that is a zombie is dead; a status pid that is a zombie is not the same live process', async () => {
    const z = await zombie();
    const me = newHolder();
    expect(holderDead({ ...me, pid: z.pid, start: z.start })).toBe(true);
    expect(pidIsSame(z.pid, z.start)).toBe(false);
  });

  it('a working status whose process is a zombie derives dead; a spawning status whose spawner is a zombie is void', async () => {
    const z = await zombie();
    const now = Date.now();
    const base = { agent: 'alice', host: os.hostname(), last_heartbeat: now } as const;
    expect(deriveState({ ...base, status: 'working', pid: z.pid, pid_start: z.start } as never, now)).toBe('dead');
    const me = newHolder();
    const spawning = { ...base, status: 'spawning', pid: null, spawner: { host: me.host, pid: z.pid, boot: me.boot, start: z.start, ns: me.ns } };
    expect(spawnerDead(spawning as never)).toBe(true);
    expect(deriveState(spawning as never, now)).toBe('dead');
  });
});
