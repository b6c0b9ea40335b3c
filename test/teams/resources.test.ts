/**
 * What an agent costs the machine, as `thclaws team status --json` reads it: a real teammate process whose
 * Bash command starts `node` holding 200 MB. The memory of its card grows by that while the command runs
 * (the command runs in a process group of its own, inside the OS sandbox) and drops when it ends; its
 * worktree's disk use is there. A spawn on a machine with less free memory than the floor is refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LeadHandler } from '../../src/core/teams/lead-handler.js';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import { runCli, scrubbedEnv } from '../agent/helpers.js';
import { cleanupsAfterEach, leadSession, stopLeadAndTeam, teamWorkspace, waitFor, writeScript, type Ws } from './helpers.js';

const cleanups = cleanupsAfterEach();
const MB = 1024 * 1024;

interface Costs {
  name: string;
  state: string;
  resources: { cpu_percent: number | null; rss_bytes: number | null; disk_bytes: number | null };
  behind: number | null;
}

async function statusOf(ws: Ws, name: string): Promise<Costs> {
  const r = await runCli(['team', 'status', '--json', '--dir', ws.dir], { cwd: ws.dir, env: scrubbedEnv(ws.home) });
  expect(r.stderr).toBe('');
  return (JSON.parse(r.stdout) as { members: Costs[] }).members.find((m) => m.name === name)!;
}

async function team(ws: Ws, script: unknown) {
  const session = leadSession(ws, writeScript(ws, script));
  session.store.init();
  await session.store.config.create({ name: 't', members: [{ name: 'alice', isolation: 'worktree' }] });
  await session.becomeLead();
  const handler = new LeadHandler(session, { watchdogMs: 500 });
  handler.onWake(() => void handler.drain());
  handler.start();
  cleanups.push(() => stopLeadAndTeam(session, handler, ws));
  return session;
}

describe('what a teammate costs the machine', () => {
  it("its card's memory grows by a child process it started and drops when that ends", async () => {
    const ws = teamWorkspace();
    // Waits for `go`, then holds 200 MB (every page written) until `stop` appears.
    const hold = `const fs=require('fs');const nap=()=>Atomics.wait(new Int32Array(new SharedArrayBuffer(4)),0,0,50);while(!fs.existsSync('go'))nap();const b=Buffer.alloc(200*1024*1024,1);while(!fs.existsSync('stop'))nap();console.log(b[5])`;
    const session = await team(ws, { rules: [{ match: 'Task #1 —', turns: [{ text: 'holding', tool_calls: [{ name: 'Bash', input: { command: `node -e "${hold}"`, timeout: 600000 } }] }, { text: 'end' }] }], fallback: [{ text: 'ok' }] });
    await session.store.tasks.create({ subject: 'Hold memory', description: 'x', reservedFor: 'alice' });
    await spawnTeammate(session, { name: 'alice' });
    const wt = path.join(ws.dir, '.worktrees', 'alice');
    await waitFor(async () => (await session.store.statuses.read('alice'))?.command_groups?.length, 'the Bash command to start', 60_000);

    const before = await statusOf(ws, 'alice');
    expect(before.state).toBe('working');
    expect(before.resources.rss_bytes).toBeGreaterThan(10 * MB); // the agent itself
    expect(before.resources.cpu_percent).toEqual(expect.any(Number));
    expect(before.resources.disk_bytes).toBeGreaterThan(0);
    expect(before.behind).toBe(0);

    fs.writeFileSync(path.join(wt, 'go'), '');
    const holding = await waitFor(async () => {
      const s = await statusOf(ws, 'alice');
      return s.resources.rss_bytes! - before.resources.rss_bytes! >= 150 * MB && s;
    }, 'the 200 MB child to show in the memory', 60_000);
    fs.writeFileSync(path.join(wt, 'stop'), '');
    await waitFor(async () => {
      const s = await statusOf(ws, 'alice');
      return s.resources.rss_bytes !== null && s.resources.rss_bytes < holding.resources.rss_bytes! - 150 * MB;
    }, 'the memory to drop once the child ended', 60_000);
  }, 180_000);

  it('a spawn is refused with the reason when free memory is under the floor, and leaves no worktree', async () => {
    const ws = teamWorkspace({ team: { minFreeMemoryMb: 1_048_576 } });
    const session = await team(ws, { rules: [], fallback: [{ text: 'ok' }] });
    await expect(spawnTeammate(session, { name: 'alice' })).rejects.toThrow(/refusing to spawn alice: \d+ MB of memory free, under the 1048576 MB floor \(setting team.minFreeMemoryMb\)/);
    expect(fs.existsSync(path.join(ws.dir, '.worktrees', 'alice'))).toBe(false);
    expect((await session.store.statuses.read('alice'))?.pid ?? null).toBeNull();
  }, 60_000);
});
