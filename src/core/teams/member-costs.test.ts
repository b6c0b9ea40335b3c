/**
 * A teammate's Bash commands run in process groups of their own: a process of such a group that left the
 * agent's tree (its shell exited; it was reparented away) still costs the machine on the agent's behalf, and
 * is counted through the group the agent recorded.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processStart, TeamStore } from '../store/index.js';
import { TeamCosts } from './member-costs.js';

const MB = 1024 * 1024;
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

const until = async (cond: () => boolean, what: string) => {
  const end = Date.now() + 20_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe("an agent's recorded command groups", () => {
  it('count a process of the group that is no longer below the agent', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'costs-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const store = new TeamStore(path.join(dir, '.thclaws', 'state', 'team'));
    store.init();
    await store.config.create({ name: 't', members: [{ name: 'alice' }] });
    const agent = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    cleanups.push(() => agent.kill('SIGKILL'));
    // The command: a group of its own whose shell leaves a 120 MB holder behind and exits.
    const hold = `const b = Buffer.alloc(120 * 1024 * 1024, 1); require('fs').writeFileSync(process.argv[1], 'held'); setInterval(() => b[0]++, 1000)`;
    const marker = path.join(dir, 'held');
    const shell = spawn('sh', ['-c', `"$0" -e "$1" "$2" </dev/null >/dev/null 2>&1 &`, process.execPath, hold, marker], { detached: true, stdio: 'ignore' });
    const pgid = shell.pid!;
    cleanups.push(() => {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // gone
      }
    });
    await until(() => fs.existsSync(marker), 'the holder to have its memory');
    await until(() => shell.exitCode !== null, 'the shell to exit');
    await store.statuses.write('alice', { status: 'working', pid: agent.pid, pid_start: processStart(agent.pid!), host: os.hostname(), command_groups: [{ pgid, start: '' }] } as never);

    const costs = new TeamCosts(store, dir, () => null);
    const alice = (await costs.sample(['alice'])).get('alice')!;
    expect(alice.resources.rss_bytes).toBeGreaterThan(100 * MB);
    await store.statuses.write('alice', { command_groups: [] } as never);
    expect((await costs.sample(['alice'])).get('alice')!.resources.rss_bytes).toBeLessThan(100 * MB);
  }, 60_000);
});
