/**
 * The sandbox leaves no mount point in the project tree: a teammate without a worktree, SIGKILLed while its
 * sandboxed command runs, leaves no `.worktrees` file behind, and a later worktree spawn works. A stale one
 * (an empty regular file, as an older run left) is removed; a spawn that fails leaves no branch.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, scrubbedEnv } from '../agent/helpers.js';
import { probeSandbox } from '../../src/core/sandbox/index.js';
import { TeamStore } from '../../src/core/store/index.js';
import { ensureWorktree } from '../../src/core/teams/worktree.js';
import { cleanupsAfterEach, teamWorkspace, waitFor, writeScript } from '../teams/helpers.js';

const cleanups = cleanupsAfterEach();
const sandboxState = (await probeSandbox()).state;
const branchExists = (dir: string, b: string) => execFileSync('git', ['branch', '--list', b], { cwd: dir, encoding: 'utf8' }).trim() !== '';

describe('sandbox mount points', () => {
  it.skipIf(sandboxState !== 'os')('a SIGKILLed teammate without a worktree leaves no .worktrees file; a worktree spawn then works', async () => {
    const ws = teamWorkspace();
    cleanups.push(() => ws.cleanup());
    const store = new TeamStore(path.join(ws.dir, '.thclaws', 'state', 'team'));
    store.init();
    await store.config.create({ name: 't', members: [{ name: 'carol', role: '', prompt: '' }, { name: 'dave', role: '', prompt: '', isolation: 'worktree' }] });
    const script = writeScript(ws, { rules: [{ turns: [{ text: 'working', tool_calls: [{ name: 'Bash', input: { command: 'touch started-marker && sleep 60' } }] }, { text: 'done' }] }] });
    const carol: ChildProcess = spawn(process.execPath, [BIN, '-p', 'go', '--team-agent', 'carol', '--script', script, '--accept-all'], { cwd: ws.dir, env: scrubbedEnv(ws.home), stdio: 'ignore', detached: true });
    const closed = new Promise((r) => carol.once('close', r));
    cleanups.push(() => void (carol.exitCode === null && carol.signalCode === null && process.kill(-carol.pid!, 'SIGKILL')));
    // The Bash tool's shell has a process group of its own and outlives carol: found by its working directory
    // (this test's own workspace), killed by pid.
    cleanups.push(() => {
      for (const pid of fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
        try {
          if (fs.readlinkSync(`/proc/${pid}/cwd`) === ws.dir) process.kill(Number(pid), 'SIGKILL');
        } catch {
          // gone, or not ours to read
        }
      }
    });
    await waitFor(() => fs.existsSync(path.join(ws.dir, 'started-marker')), "carol's sandboxed command", 30_000);
    const wt = path.join(ws.dir, '.worktrees');
    // While it runs: nothing the sandbox made for itself is a file in the project tree.
    expect(fs.existsSync(wt) && !fs.statSync(wt).isDirectory()).toBe(false);
    process.kill(-carol.pid!, 'SIGKILL');
    await closed;
    expect(fs.existsSync(wt) && !fs.statSync(wt).isDirectory()).toBe(false);
    // A later worktree spawn works.
    const dir = ensureWorktree(ws.dir, 'dave');
    expect(fs.statSync(dir).isDirectory()).toBe(true);
    expect(branchExists(ws.dir, 'team/dave')).toBe(true);
  }, 60_000);

  it('a stale mount point (an empty regular .worktrees file) is removed at spawn; anything else there is refused and kept', () => {
    const ws = teamWorkspace();
    cleanups.push(() => ws.cleanup());
    const wt = path.join(ws.dir, '.worktrees');
    fs.writeFileSync(wt, '');
    fs.chmodSync(wt, 0o444);
    const dir = ensureWorktree(ws.dir, 'dave');
    expect(fs.statSync(wt).isDirectory()).toBe(true);
    expect(fs.existsSync(path.join(dir, 'README.md'))).toBe(true);

    const ws2 = teamWorkspace();
    cleanups.push(() => ws2.cleanup());
    const wt2 = path.join(ws2.dir, '.worktrees');
    fs.writeFileSync(wt2, 'a person wrote this\n');
    expect(() => ensureWorktree(ws2.dir, 'dave')).toThrow(/\.worktrees.*not a directory/);
    expect(fs.readFileSync(wt2, 'utf8')).toBe('a person wrote this\n');
    expect(branchExists(ws2.dir, 'team/dave')).toBe(false);
  });

  it('a worktree spawn that fails leaves no team/<name> branch behind', () => {
    const ws = teamWorkspace();
    cleanups.push(() => ws.cleanup());
    // Something not a worktree already sits where erin's worktree would go: git worktree add refuses.
    fs.mkdirSync(path.join(ws.dir, '.worktrees', 'erin'), { recursive: true });
    fs.writeFileSync(path.join(ws.dir, '.worktrees', 'erin', 'notes.txt'), 'mine\n');
    expect(() => ensureWorktree(ws.dir, 'erin')).toThrow(/cannot create worktree/);
    expect(branchExists(ws.dir, 'team/erin')).toBe(false);
    expect(fs.readFileSync(path.join(ws.dir, '.worktrees', 'erin', 'notes.txt'), 'utf8')).toBe('mine\n');
  });
});
