/**
 * A check ends when its shell exits: a child it left holding the output (even one in a session of its own,
 * `setsid`, out of the group's reach) keeps neither `team merge --checks` nor its lock past a bounded drain;
 * and a check killed (by its timeout, or a signal) has no exit code and counts as failed: nothing lands.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { userSettingsPath } from '../../src/core/agent/settings.js';
import { processStart, TeamStore } from '../../src/core/store/index.js';
import { ensureWorktree } from '../../src/core/teams/worktree.js';
import { BIN, ensureBuilt, scrubbedEnv } from '../agent/helpers.js';
import { teamWorkspace, waitFor, type Ws } from '../teams/helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const git = (cwd: string, ...a: string[]) => execFileSync('git', a, { cwd, encoding: 'utf8', stdio: 'pipe' }).trim();

/** A workspace (checks run without the OS sandbox) with teammates' branches, each one commit ahead of main. */
async function setup(checks: string[], members: string[]): Promise<{ ws: Ws; store: TeamStore }> {
  const ws = teamWorkspace({ checks });
  cleanups.push(ws.cleanup);
  const user = userSettingsPath({ HOME: ws.home });
  fs.mkdirSync(path.dirname(user), { recursive: true });
  fs.writeFileSync(user, JSON.stringify({ sandbox: 'off' }));
  const store = TeamStore.forWorkspace(ws.dir);
  store.init();
  await store.config.create({ name: 't', members: members.map((name) => ({ name, isolation: 'worktree' })) });
  for (const m of members) {
    const wt = ensureWorktree(ws.dir, m);
    fs.writeFileSync(path.join(wt, `${m}.txt`), `${m}\n`);
    git(wt, 'add', '-A');
    git(wt, 'commit', '-qm', m);
  }
  return { ws, store };
}

const onMain = (ws: Ws, agent: string) => {
  try {
    execFileSync('git', ['merge-base', '--is-ancestor', `team/${agent}`, 'main'], { cwd: ws.dir, stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
};

/** The process with this pid and start time is gone (or a zombie, or the pid reused). */
function gone(pid: number, start: string): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || processStart(pid) !== start;
  } catch {
    return true;
  }
}

function merge(ws: Ws, agent: string): Promise<{ code: number | null; out: string; ms: number }> {
  const t0 = Date.now();
  const cli = spawn(process.execPath, [BIN, 'team', 'merge', agent, '--checks', '--dir', ws.dir], { cwd: ws.dir, env: scrubbedEnv(ws.home, { PID_FILE: path.join(ws.home, 'held.pid') }) });
  let out = '';
  cli.stdout.on('data', (d) => (out += d));
  cli.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) => cli.on('close', (code) => resolve({ code, out, ms: Date.now() - t0 })));
}

describe('a check that leaves a child holding its output', () => {
  it('team merge --checks ends within the drain bound after the check exits 0, lands, kills the setsid child, and frees the lock', async () => {
    await ensureBuilt();
    // The setsid'd child is in a session of its own (no kill of the check's group reaches it) and holds stdout.
    const { ws } = await setup(["setsid sh -c 'echo $$ > \"$PID_FILE\"; exec sleep 60' & sleep 0.3; echo checked"], ['a', 'b']);
    const first = await merge(ws, 'a');
    const pid = Number(fs.readFileSync(path.join(ws.home, 'held.pid'), 'utf8').trim());
    const start = processStart(pid);
    cleanups.push(() => {
      if (start && processStart(pid) === start) process.kill(pid, 'SIGKILL');
    });
    expect(first.out).toContain('checked');
    expect(first.code).toBe(0);
    // 60 s while the child holds the pipe on the old code; the drain is 2 s (plus the CLI's start and git).
    expect(first.ms).toBeLessThan(20_000);
    expect(onMain(ws, 'a')).toBe(true);
    await waitFor(() => !start || gone(pid, start), 'the setsid child to be killed', 10_000);
    // The integration lock is free: the next merge runs and lands.
    const second = await merge(ws, 'b');
    expect(second.out).not.toContain('another merge');
    expect(second.code).toBe(0);
    expect(onMain(ws, 'b')).toBe(true);
  }, 90_000);
});
// A check killed by its timeout or a signal (exit code null) failing the merge: test/review/merge-checks.test.ts.
