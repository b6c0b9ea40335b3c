/**
 * `thclaws team merge --checks` interrupted (Ctrl-C, SIGTERM) while a check runs: the check runs in a process
 * group of its own (so a hung one can be killed whole), which a terminal's Ctrl-C does not reach; the CLI must
 * take it down with it, or it runs on orphaned in an integration worktree the next merge removes.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { userSettingsPath } from '../../src/core/agent/settings.js';
import { BIN, ensureBuilt, scrubbedEnv } from '../agent/helpers.js';
import { teamWorkspace, type Ws } from '../teams/helpers.js';

let ws: Ws;
const git = (cwd: string, ...a: string[]) => execFileSync('git', a, { cwd, encoding: 'utf8', stdio: 'pipe' });

beforeAll(async () => {
  await ensureBuilt();
  ws = teamWorkspace({ checks: ['echo $$ > "$CHECK_PID_FILE"; exec sleep 60'] });
  // Where the OS sandbox cannot run the checks run without it (the person turned it off here).
  const user = userSettingsPath({ HOME: ws.home });
  fs.mkdirSync(path.dirname(user), { recursive: true });
  fs.writeFileSync(user, JSON.stringify({ sandbox: 'off' }));
  git(ws.dir, 'branch', 'team/a');
  git(ws.dir, 'worktree', 'add', '-q', path.join(ws.dir, '.worktrees', 'a'), 'team/a');
  fs.writeFileSync(path.join(ws.dir, '.worktrees', 'a', 'a.txt'), 'a\n');
  git(path.join(ws.dir, '.worktrees', 'a'), 'add', 'a.txt');
  git(path.join(ws.dir, '.worktrees', 'a'), 'commit', '-qm', 'a');
}, 120_000);
afterAll(() => ws.cleanup());

/** State and start time (clock ticks since boot) of a pid, or null when there is no such process. */
function procStat(pid: number): { state: string; start: string } | null {
  try {
    const rest = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { state: rest[0]!, start: rest[19]! };
  } catch {
    return null;
  }
}

/**
 * Whether the check that had this pid and start time is gone: no such pid, a zombie, or the pid reused by
 * another process (a machine busy with tests can wrap pid_max, 32768 here, within the wait).
 */
function gone(pid: number, start: string): boolean {
  const st = procStat(pid);
  return !st || st.state === 'Z' || st.start !== start;
}

it('SIGTERM to the CLI during a check ends the check too', async () => {
  const pidFile = path.join(ws.home, 'check.pid');
  const cli = spawn(process.execPath, [BIN, 'team', 'merge', 'a', '--checks', '--dir', ws.dir], { cwd: ws.dir, env: scrubbedEnv(ws.home, { CHECK_PID_FILE: pidFile }), stdio: 'ignore' });
  const exited = new Promise((r) => cli.once('exit', r));
  let pid = 0;
  for (let i = 0; i < 300 && !pid; i++) {
    await new Promise((r) => setTimeout(r, 50));
    pid = Number(fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8').trim() || 0 : 0);
  }
  expect(pid).toBeGreaterThan(0);
  const start = procStat(pid)?.start ?? '';
  expect(start).not.toBe('');
  cli.kill('SIGTERM');
  await exited;
  let ok = false;
  // No 2 s clock of its own (a loaded CI machine missed it): the check must be gone within 20 s of the CLI's exit.
  for (let i = 0; i < 400 && !ok; i++) {
    ok = gone(pid, start);
    if (!ok) await new Promise((r) => setTimeout(r, 50));
  }
  if (!ok) process.kill(pid, 'SIGKILL'); // still the check (same start time), never another process
  expect(ok).toBe(true);
}, 60_000);
