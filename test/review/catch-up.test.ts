/**
 * After a landing, on real git and the real `thclaws team` CLI: the other teammates read "N behind" the lead's
 * branch, `team update` brings one to 0, a conflicting update is left in progress in the teammate's worktree
 * with a message to it naming the files, `team.updateAfterLanding` updates every idle teammate by itself;
 * `team cleanup` removes the worktree and branch of landed work only (unlanded, uncommitted or live work is
 * refused unless forced by name) and records it in the team log. A working teammate (a real process) is
 * neither updated nor archived without force.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deriveState, TeamStore } from '../../src/core/store/index.js';
import { LeadHandler } from '../../src/core/teams/lead-handler.js';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import { ensureWorktree } from '../../src/core/teams/worktree.js';
import { runCli, scrubbedEnv } from '../agent/helpers.js';
import { cleanupsAfterEach, leadSession, stopLeadAndTeam, teamWorkspace, waitFor, writeScript, type Ws } from '../teams/helpers.js';

const cleanups = cleanupsAfterEach();
const git = (cwd: string, ...a: string[]) => execFileSync('git', a, { cwd, encoding: 'utf8', stdio: 'pipe' }).trim();
const gitOk = (cwd: string, ...a: string[]) => {
  try {
    git(cwd, ...a);
    return true;
  } catch {
    return false;
  }
};
// Run from elsewhere: `--dir` names the workspace.
const cli = (ws: Ws, ...args: string[]) => runCli([...args, '--dir', ws.dir], { cwd: ws.home, env: scrubbedEnv(ws.home) });

function commitIn(dir: string, file: string, body: string, msg: string): void {
  fs.writeFileSync(path.join(dir, file), body);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', msg);
}

async function behindOf(ws: Ws): Promise<Record<string, number | null>> {
  const r = await cli(ws, 'team', 'status', '--json');
  expect(r.stderr).toBe('');
  return Object.fromEntries((JSON.parse(r.stdout) as { members: { name: string; behind: number | null }[] }).members.map((m) => [m.name, m.behind]));
}

/** alice changed README.md's first line and the API; bob did nothing yet; carol changed the same line otherwise. */
async function threeTeammates(settings: Record<string, unknown> = {}) {
  const ws = teamWorkspace(settings);
  cleanups.push(ws.cleanup);
  const store = TeamStore.forWorkspace(ws.dir);
  store.init();
  await store.config.create({ name: 't', members: ['alice', 'bob', 'carol'].map((name) => ({ name, isolation: 'worktree' as const })) });
  const [wa, wb, wc] = ['alice', 'bob', 'carol'].map((n) => ensureWorktree(ws.dir, n)) as [string, string, string];
  commitIn(wa, 'README.md', '# the project, by alice\n', 'readme: title');
  commitIn(wa, 'api.js', 'export const api = 1;\n', 'api: handler');
  commitIn(wc, 'README.md', '# the project, by carol\n', 'readme: carol title');
  commitIn(wc, 'api.js', 'export const api = 2;\n', 'api: carol');
  return { ws, store, wa, wb, wc };
}

describe('after a landing', () => {
  it('the others are N behind; update brings one to 0; a conflicting update reaches the teammate with the files', async () => {
    const { ws, store, wb, wc } = await threeTeammates();
    commitIn(wb, 'ui.js', 'export const ui = 1;\n', 'ui: bob');
    expect(await behindOf(ws)).toMatchObject({ lead: null, alice: 0, bob: 0, carol: 0 });
    const merged = await cli(ws, 'team', 'merge', 'alice');
    expect(merged.code, merged.stderr).toBe(0);
    const behind = await behindOf(ws);
    // alice's two commits and the merge commit: what bob's and carol's branches lack of main.
    expect(behind).toMatchObject({ bob: 3, carol: 3 });

    // An untracked file main would overwrite: git refuses to start, nothing changes.
    fs.writeFileSync(path.join(wb, 'api.js'), 'mine\n');
    const blocked = await cli(ws, 'team', 'update', 'bob');
    expect([blocked.code, blocked.stderr.trim().split('\n')[0]]).toEqual([2, "thclaws: cannot merge main into bob's worktree: The following untracked working tree files would be overwritten by merge:"]);
    expect((await behindOf(ws)).bob).toBe(3);
    fs.rmSync(path.join(wb, 'api.js'));
    // No git identity anywhere (bob's merge makes a commit): the update's own identity makes it.
    git(ws.dir, 'config', '--unset', 'user.email');
    git(ws.dir, 'config', '--unset', 'user.name');
    const up = await cli(ws, 'team', 'update', 'bob');
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout.trim()).toBe('updated bob: merged 3 commit(s) of main; 0 behind');
    expect((await behindOf(ws)).bob).toBe(0);
    expect(fs.readFileSync(path.join(wb, 'api.js'), 'utf8')).toBe('export const api = 1;\n');
    expect(git(wb, 'log', '-1', '--format=%an %s')).toBe('thclaws Merge main into team/bob (thclaws team update)');
    expect((await cli(ws, 'team', 'update', 'bob')).stdout.trim()).toBe('bob is up to date with main');

    const conflict = await cli(ws, 'team', 'update', 'carol');
    expect(conflict.code, conflict.stderr).toBe(0);
    expect(conflict.stdout.trim()).toBe('carol: merging main stopped on conflicts in README.md, api.js; the merge is left in progress in its worktree and carol was told');
    expect(gitOk(wc, 'rev-parse', '-q', '--verify', 'MERGE_HEAD')).toBe(true);
    expect(fs.readFileSync(path.join(wc, 'README.md'), 'utf8')).toMatch(/^<<<<<<< HEAD\n# the project, by carol\n=======\n# the project, by alice\n>>>>>>> /);
    const told = store.inboxes.unread('carol').filter((m) => m.from === 'user');
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toMatch(/^Merging main into your branch team\/carol stopped on conflicts in: README\.md, api\.js\. The merge is in progress in your worktree/);
    // A second update while the merge waits for carol changes nothing.
    const again = await cli(ws, 'team', 'update', 'carol');
    expect(again.code).toBe(2);
    expect(again.stderr.trim()).toBe("thclaws: carol's worktree already has a merge in progress: it must finish or abort it first");
    expect(store.inboxes.unread('carol').filter((m) => m.from === 'user')).toHaveLength(1);
    // Backed out, the same update for scripts: --json.
    git(wc, 'merge', '--abort');
    const json = await cli(ws, 'team', 'update', 'carol', '--json');
    expect(JSON.parse(json.stdout)).toEqual({ agent: 'carol', result: 'conflict', into: 'main', files: ['README.md', 'api.js'] });
  }, 60_000);

  it('a conflicting update reaches the idle teammate itself: its next turn sees the conflicted files in its worktree', async () => {
    const ws = teamWorkspace();
    // What carol does when told: lists the files git left unmerged, from her worktree.
    const script = { rules: [{ match: 'stopped on conflicts in: README.md', turns: [{ text: 'resolving', tool_calls: [{ name: 'Bash', input: { command: 'git diff --name-only --diff-filter=U > conflicts-seen.txt' } }] }, { text: 'done' }] }], fallback: [{ text: 'ok' }] };
    const session = leadSession(ws, writeScript(ws, script));
    session.store.init();
    await session.store.config.create({ name: 't', members: [{ name: 'carol', isolation: 'worktree' }] });
    await session.becomeLead();
    const handler = new LeadHandler(session, { watchdogMs: 500 });
    handler.onWake(() => void handler.drain());
    handler.start();
    cleanups.push(() => stopLeadAndTeam(session, handler, ws));
    const wc = ensureWorktree(ws.dir, 'carol');
    commitIn(wc, 'README.md', '# the project, by carol\n', 'readme: carol title');
    commitIn(ws.dir, 'README.md', '# the project, landed\n', 'readme: landed title');
    await spawnTeammate(session, { name: 'carol' });
    await waitFor(async () => deriveState(await session.store.statuses.read('carol')) === 'idle', 'carol to be idle', 60_000);
    const up = await cli(ws, 'team', 'update', 'carol');
    expect(up.stdout.trim()).toBe('carol: merging main stopped on conflicts in README.md; the merge is left in progress in its worktree and carol was told');
    const seen = path.join(wc, 'conflicts-seen.txt');
    expect(await waitFor(() => fs.existsSync(seen) && fs.readFileSync(seen, 'utf8'), "carol's turn on the message", 60_000)).toBe('README.md\n');
  }, 120_000);

  it('team.updateAfterLanding: every idle teammate is updated by the landing itself', async () => {
    const { ws, wb } = await threeTeammates({ team: { updateAfterLanding: true } });
    const merged = await cli(ws, 'team', 'merge', 'alice');
    expect(merged.code, merged.stderr).toBe(0);
    const behind = await behindOf(ws);
    expect(behind.bob).toBe(0);
    expect(fs.existsSync(path.join(wb, 'api.js'))).toBe(true);
    // carol conflicts: her merge is left in progress for her (so her branch still lacks main's commits).
    expect(behind.carol).toBe(3);
    expect(gitOk(path.join(ws.dir, '.worktrees', 'carol'), 'rev-parse', '-q', '--verify', 'MERGE_HEAD')).toBe(true);
  }, 60_000);

  it('cleanup removes only landed work: unlanded and uncommitted are refused, forced by name works, recorded in the log', async () => {
    const { ws, store, wa, wb, wc } = await threeTeammates();
    expect((await cli(ws, 'team', 'merge', 'alice')).code).toBe(0);
    fs.writeFileSync(path.join(wb, 'notes.txt'), 'uncommitted\n');
    const aliceHead = git(ws.dir, 'rev-parse', 'team/alice');

    const all = await cli(ws, 'team', 'cleanup');
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain('archived alice: removed its worktree and team/alice');
    expect(all.stdout).toContain("kept bob: bob's work has not landed (1 uncommitted file(s)): merge it first, or throw it away with `thclaws team cleanup --force bob`");
    expect(all.stdout).toContain("kept carol: carol's work has not landed (2 commit(s) main lacks)");
    expect(fs.existsSync(wa)).toBe(false);
    expect(gitOk(ws.dir, 'rev-parse', '-q', '--verify', 'refs/heads/team/alice')).toBe(false);
    expect(fs.existsSync(path.join(wb, 'notes.txt')) && fs.existsSync(path.join(wc, 'README.md'))).toBe(true);
    expect(gitOk(ws.dir, 'rev-parse', '-q', '--verify', 'refs/heads/team/carol')).toBe(true);
    // The lead's checkout and its branch are as they were.
    expect(fs.readFileSync(path.join(ws.dir, 'api.js'), 'utf8')).toBe('export const api = 1;\n');
    expect(git(ws.dir, 'status', '--porcelain')).toBe('');

    const refused = await cli(ws, 'team', 'cleanup', 'carol');
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe("thclaws: carol's work has not landed (2 commit(s) main lacks): merge it first, or throw it away with `thclaws team cleanup --force carol`");
    expect(fs.existsSync(wc)).toBe(true);
    const carolHead = git(ws.dir, 'rev-parse', 'team/carol');
    const forced = await cli(ws, 'team', 'cleanup', '--force', 'carol');
    expect(forced.code, forced.stderr).toBe(0);
    expect(fs.existsSync(wc)).toBe(false);
    expect(gitOk(ws.dir, 'rev-parse', '-q', '--verify', 'refs/heads/team/carol')).toBe(false);

    const log = fs.readFileSync(path.join(ws.dir, '.thclaws', 'state', 'team', 'team.log'), 'utf8');
    expect(log).toContain(`archived alice: worktree .worktrees/alice and branch team/alice at ${aliceHead} (restore: git branch team/alice ${aliceHead}) removed; its work had landed`);
    expect(log).toContain(`archived carol: worktree .worktrees/carol and branch team/carol at ${carolHead}`);
    expect(log).toContain('forced: 2 unlanded commit(s) and 0 uncommitted file(s) thrown away');
    expect((await cli(ws, 'team', 'cleanup', 'dan')).stderr.trim()).toBe('thclaws: dan is not a member of team "t"');
    // A folder at a teammate's worktree path that git did not register as its worktree is never removed.
    await store.config.addMember({ name: 'zed', role: '', prompt: '' });
    const zed = path.join(ws.dir, '.worktrees', 'zed');
    fs.mkdirSync(zed, { recursive: true });
    git(zed, 'init', '-q');
    fs.writeFileSync(path.join(zed, 'keep.txt'), 'mine\n');
    const stranger = await cli(ws, 'team', 'cleanup', 'zed');
    expect([stranger.code, stranger.stderr.trim()]).toEqual([2, 'thclaws: zed has no worktree and no branch team/zed: nothing to archive']);
    expect(fs.readFileSync(path.join(zed, 'keep.txt'), 'utf8')).toBe('mine\n');
  }, 60_000);

  it('a working teammate is neither updated nor archived; forced by name it is stopped, then archived', async () => {
    const ws = teamWorkspace();
    const script = { rules: [{ match: 'Task #1 —', turns: [{ text: 'waiting', tool_calls: [{ name: 'Bash', input: { command: 'while [ ! -e release ]; do sleep 0.05; done', timeout: 600000 } }] }, { text: 'end' }] }], fallback: [{ text: 'ok' }] };
    const session = leadSession(ws, writeScript(ws, script));
    session.store.init();
    await session.store.config.create({ name: 't', members: [{ name: 'dave', isolation: 'worktree' }] });
    await session.becomeLead();
    const handler = new LeadHandler(session, { watchdogMs: 500 });
    handler.onWake(() => void handler.drain());
    handler.start();
    cleanups.push(() => stopLeadAndTeam(session, handler, ws));
    await session.store.tasks.create({ subject: 'Wait', description: 'x', reservedFor: 'dave' });
    await spawnTeammate(session, { name: 'dave' });
    await waitFor(async () => (await session.store.statuses.read('dave'))?.command_groups?.length, 'dave to be working', 60_000);
    commitIn(ws.dir, 'lead.txt', 'lead\n', 'lead: a commit dave lacks');

    const up = await cli(ws, 'team', 'update', 'dave');
    expect(up.code).toBe(2);
    expect(up.stderr.trim()).toBe('thclaws: dave is working: update it once it is idle (a merge under a working agent mixes with its edits)');
    const wt = path.join(ws.dir, '.worktrees', 'dave');
    expect(fs.existsSync(path.join(wt, 'lead.txt'))).toBe(false);
    const live = await cli(ws, 'team', 'cleanup', 'dave');
    expect(live.code).toBe(2);
    expect(live.stderr.trim()).toBe('thclaws: dave is working: stop it first, or force with `thclaws team cleanup --force dave`');
    expect(fs.existsSync(wt)).toBe(true);

    const pid = (await session.store.statuses.read('dave'))!.pid!;
    const forced = await cli(ws, 'team', 'cleanup', '--force', 'dave');
    expect(forced.code, forced.stderr).toBe(0);
    expect(fs.existsSync(wt)).toBe(false);
    expect(gitOk(ws.dir, 'rev-parse', '-q', '--verify', 'refs/heads/team/dave')).toBe(false);
    await waitFor(() => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    }, 'dave to have ended');
    expect((await cli(ws, 'team', 'cleanup')).stdout.trim()).toBe('no teammate worktree to clean up');
    const two = await cli(ws, 'team', 'cleanup', '--force', 'dave', 'bob');
    expect([two.code, two.stderr.trim()]).toEqual([2, 'thclaws: --force names dave but the teammate given is bob: name one']);
  }, 120_000);
});
