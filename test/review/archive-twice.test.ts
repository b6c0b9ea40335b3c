/**
 * Archive asked several times at once (a double click on the card, `team cleanup` runs): the landed teammate's
 * worktree and branch go once, one line in the team log; the other is refused plainly (the archive running, or
 * nothing left), never 'removed … but cannot delete' from git racing the first.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdExclusive, TeamStore } from '../../src/core/store/index.js';
import { ensureWorktree } from '../../src/core/teams/worktree.js';
import { runCli, scrubbedEnv } from '../agent/helpers.js';
import { cleanupsAfterEach, teamWorkspace, type Ws } from '../teams/helpers.js';

const cleanups = cleanupsAfterEach();
const git = (cwd: string, ...a: string[]) => execFileSync('git', a, { cwd, encoding: 'utf8', stdio: 'pipe' }).trim();
const cli = (ws: Ws, ...args: string[]) => runCli([...args, '--dir', ws.dir], { cwd: ws.home, env: scrubbedEnv(ws.home) });

/** A worktree of `name` with one commit (landed by the caller's merge). */
function landed(ws: Ws, name: string): string {
  const wt = ensureWorktree(ws.dir, name);
  fs.writeFileSync(path.join(wt, `${name}.txt`), `${name}\n`);
  git(wt, 'add', '-A');
  git(wt, 'commit', '-qm', name);
  return wt;
}

describe('archive twice at once', () => {
  it('four at once: the landed worktree goes once; the others are refused in one line naming the first', async () => {
    const ws = teamWorkspace();
    cleanups.push(ws.cleanup);
    const store = TeamStore.forWorkspace(ws.dir);
    store.init();
    await store.config.create({ name: 't', members: [{ name: 'alice', isolation: 'worktree' as const }] });
    const wa = landed(ws, 'alice');
    expect((await cli(ws, 'team', 'merge', 'alice')).code).toBe(0);
    const runs = await Promise.all([1, 2, 3, 4].map(() => cli(ws, 'team', 'cleanup', 'alice')));
    expect(fs.existsSync(wa)).toBe(false);
    const log = fs.readFileSync(path.join(ws.dir, '.thclaws', 'state', 'team', 'team.log'), 'utf8');
    expect(log.match(/archived alice/g)).toHaveLength(1);
    expect(runs.map((r) => r.code).sort()).toEqual([0, 2, 2, 2]);
    // Refused while the first runs, or after it ended: either way nothing half-done is claimed.
    for (const r of runs.filter((x) => x.code === 2)) expect(r.stderr.trim()).toMatch(/^thclaws: (an archive of alice is already running \(.*\): wait for it to finish|alice has no worktree and no branch team\/alice: nothing to archive)$/);
    expect(runs.find((r) => r.code === 0)!.stdout.trim()).toMatch(/^archived alice: removed \.worktrees\/alice and team\/alice/);
  }, 60_000);

  it("while one archive of alice runs, another of alice is refused and keeps her worktree; bob's goes meanwhile", async () => {
    const ws = teamWorkspace();
    cleanups.push(ws.cleanup);
    const store = TeamStore.forWorkspace(ws.dir);
    store.init();
    await store.config.create({ name: 't', members: ['alice', 'bob'].map((name) => ({ name, isolation: 'worktree' as const })) });
    const [wa, wb] = ['alice', 'bob'].map((n) => landed(ws, n)) as [string, string];
    expect((await cli(ws, 'team', 'merge', 'alice', 'bob')).code).toBe(0);
    // This process holds alice's archive, as a first click's request does while git removes her worktree.
    const held = holdExclusive(store.paths, 'archive-alice', 'an archive of alice');
    try {
      const again = await cli(ws, 'team', 'cleanup', 'alice');
      expect([again.code, again.stderr.trim()]).toEqual([2, `thclaws: an archive of alice is already running (pid ${process.pid} on ${os.hostname()}): wait for it to finish`]);
      expect(fs.existsSync(wa)).toBe(true);
      const bob = await cli(ws, 'team', 'cleanup', 'bob');
      expect([bob.code, bob.stderr.trim(), fs.existsSync(wb)]).toEqual([0, '', false]);
    } finally {
      held.release();
    }
  }, 60_000);
});
