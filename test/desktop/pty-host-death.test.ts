/**
 * When the process that holds a pty's master dies (a SIGKILLed host), the agent in the pty must end too: a
 * child left running has no pane (nothing reads its output or types to it) and blocks "Resume team", which
 * refuses while a member is still running. The kernel hangs the terminal up and signals the session leader
 * (the wrapper); the wrapper must not ignore that hangup, so that its exit passes SIGHUP on to the child.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const holder = `
import { PtyProcess } from ${JSON.stringify(path.join(root, 'src/core/teams/launchers/pty-process.ts'))};
const p = new PtyProcess(['bash', '-c', 'echo child=$$; exec sleep 600'], { cwd: ${JSON.stringify(os.tmpdir())}, env: { PATH: process.env.PATH } });
p.onData((d) => process.stdout.write(d));
`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.runIf(process.platform === 'linux')('a pty whose holder is SIGKILLed', () => {
  it('ends its child: no agent outlives the host that owned its terminal', async () => {
    const host = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', holder], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    const child = await new Promise<number>((resolve, reject) => {
      let out = '';
      host.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /child=(\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      host.on('exit', () => reject(new Error(`holder exited before its child started: ${out}`)));
    });
    try {
      expect(alive(child)).toBe(true);
      host.kill('SIGKILL');
      // No deadline of its own: the child ends on the hangup, or the test's timeout reports it outliving the host.
      while (alive(child)) await new Promise((r) => setTimeout(r, 50));
      expect(alive(child)).toBe(false);
    } finally {
      if (alive(child)) process.kill(child, 'SIGKILL');
    }
  }, 60_000);
});
