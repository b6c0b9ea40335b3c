/** TeamMerge against real git: dry run without touching the tree, conflicts reported while others merge. */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { teamMerge } from '../../src/core/teams/merge.js';
import { ensureWorktree } from '../../src/core/teams/worktree.js';
import { leadSession, teamWorkspace, type Ws } from './helpers.js';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const git = (cwd: string, ...a: string[]) => execFileSync('git', a, { cwd, encoding: 'utf8', stdio: 'pipe' });

function commitIn(dir: string, file: string, body: string, msg: string) {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), body);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', msg);
}

async function setup(): Promise<{ ws: Ws; session: ReturnType<typeof leadSession> }> {
  const ws = teamWorkspace();
  cleanups.push(ws.cleanup);
  const session = leadSession(ws, '/dev/null');
  session.store.init();
  await session.store.config.create({ name: 't', members: [{ name: 'a', isolation: 'worktree' }, { name: 'b', isolation: 'worktree' }, { name: 'c', isolation: 'worktree' }] });
  // a and b both change README.md (conflict); c adds its own file.
  commitIn(ensureWorktree(ws.dir, 'a'), 'README.md', 'from a\n', 'a: readme');
  commitIn(ensureWorktree(ws.dir, 'b'), 'README.md', 'from b\n', 'b: readme');
  commitIn(ensureWorktree(ws.dir, 'c'), 'c.txt', 'c\n', 'c: file');
  return { ws, session };
}

describe('TeamMerge', () => {
  it('worktrees are excluded, so the lead tree stays clean', async () => {
    const { ws } = await setup();
    expect(git(ws.dir, 'status', '--porcelain')).toBe('');
    expect(fs.readFileSync(path.join(ws.dir, '.git/info/exclude'), 'utf8')).toMatch(/^\.worktrees\/$/m);
  });

  it('dry run predicts the conflict and touches nothing', async () => {
    const { ws, session } = await setup();
    const head = git(ws.dir, 'rev-parse', 'HEAD');
    commitIn(ws.dir, 'README.md', 'from main\n', 'main: readme');
    const out = await teamMerge(session, { dry_run: true });
    expect(out).toMatch(/a \(team\/a\): 1 commit\(s\) ahead — would CONFLICT in: README\.md/);
    expect(out).toMatch(/c \(team\/c\): 1 commit\(s\) ahead — would merge cleanly/);
    expect(git(ws.dir, 'status', '--porcelain')).toBe('');
    expect(git(ws.dir, 'rev-parse', 'HEAD')).not.toBe(head);
    expect(git(ws.dir, 'log', '-1', '--format=%s')).toBe('main: readme\n');
  });

  it('one conflict does not stop the other branches; every result is reported', async () => {
    const { ws, session } = await setup();
    const out = await teamMerge(session, {});
    expect(out).toMatch(/a \(team\/a\): merged 1 commit\(s\)/);
    expect(out).toMatch(/b \(team\/b\): CONFLICT in: README\.md — aborted/);
    expect(out).toMatch(/c \(team\/c\): merged 1 commit\(s\)/);
    expect(fs.readFileSync(path.join(ws.dir, 'c.txt'), 'utf8')).toBe('c\n');
    expect(git(ws.dir, 'status', '--porcelain')).toBe('');
    const again = await teamMerge(session, {});
    expect(again).toMatch(/a \(team\/a\): nothing to merge/);
  });

  it('leave_conflicted leaves the merge in progress for the lead, with only the unmerged files', async () => {
    const { ws, session } = await setup();
    const out = await teamMerge(session, { leave_conflicted: true });
    expect(out).toMatch(/b: merge left in progress — conflicted files: README\.md/);
    expect(git(ws.dir, 'diff', '--name-only', '--diff-filter=U')).toBe('README.md\n');
    await expect(teamMerge(session, {})).rejects.toThrow(/merge is already in progress/);
    expect(await teamMerge(session, { abort: true })).toMatch(/Merge aborted/);
    expect(git(ws.dir, 'status', '--porcelain')).toBe('');
    expect(await teamMerge(session, { abort: true })).toMatch(/No merge in progress/);
  });

  it("the lead backs out of its own merge after editing in it: aborted, not mistaken for the person's, its edit kept in a patch", async () => {
    const { ws, session } = await setup();
    await teamMerge(session, { leave_conflicted: true });
    fs.writeFileSync(path.join(ws.dir, 'README.md'), 'resolved by the lead\n');
    const out = await teamMerge(session, { abort: true });
    expect(out).toMatch(/^Merge aborted: .* What was changed in it \(README\.md\) is saved in (\.thclaws\/merge-aborts\/\S+\.patch)\.$/);
    expect(fs.existsSync(path.join(ws.dir, '.git', 'MERGE_HEAD'))).toBe(false);
    const saved = /saved in (\S+\.patch)\./.exec(out)![1]!;
    expect(fs.readFileSync(path.join(ws.dir, saved), 'utf8')).toContain('+resolved by the lead');
  });

  it("a merge the person started by hand is theirs: the lead's abort is refused and their resolution stays", async () => {
    const { ws, session } = await setup();
    git(ws.dir, 'merge', '-q', '--no-ff', '--no-edit', 'team/a');
    expect(() => git(ws.dir, 'merge', '-q', '--no-edit', 'team/b')).toThrow();
    fs.writeFileSync(path.join(ws.dir, 'README.md'), 'resolved by the person\n');
    await expect(teamMerge(session, { abort: true })).rejects.toThrow(/abort refused: the person is resolving the merge in progress .*"README\.md"/);
    await expect(teamMerge(session, {})).rejects.toThrow(/a merge is in progress: the person is resolving/);
    expect(fs.existsSync(path.join(ws.dir, '.git', 'MERGE_HEAD'))).toBe(true);
    expect(fs.readFileSync(path.join(ws.dir, 'README.md'), 'utf8')).toBe('resolved by the person\n');
  });

  it('a dirty lead tree is a clear refusal; cleanup refuses for a live teammate', async () => {
    const { ws, session } = await setup();
    fs.writeFileSync(path.join(ws.dir, 'README.md'), 'dirty\n');
    await expect(teamMerge(session, {})).rejects.toThrow(/not clean — commit or stash/);
    git(ws.dir, 'checkout', 'README.md');
    await session.store.statuses.write('c', { status: 'idle', pid: process.pid });
    const out = await teamMerge(session, { only: ['c'], cleanup: true });
    expect(out).toMatch(/cleanup refused: teammate 'c' is idle/);
    expect(fs.existsSync(path.join(ws.dir, '.worktrees/c'))).toBe(true);
    await session.store.statuses.write('c', { status: 'stopped', pid: null });
    const out2 = await teamMerge(session, { only: ['c'], cleanup: true });
    expect(out2).toMatch(/cleanup: worktree removed, branch deleted/);
    expect(fs.existsSync(path.join(ws.dir, '.worktrees/c'))).toBe(false);
  });

  it('a respawn reuses the worktree; a project without git gets one', async () => {
    const { ws } = await setup();
    const first = ensureWorktree(ws.dir, 'a');
    fs.writeFileSync(path.join(first, 'scratch.txt'), 'kept');
    expect(ensureWorktree(ws.dir, 'a')).toBe(first);
    expect(fs.readFileSync(path.join(first, 'scratch.txt'), 'utf8')).toBe('kept');
    const bare = path.join(path.dirname(ws.dir), 'nogit');
    fs.mkdirSync(bare);
    const wt = ensureWorktree(bare, 'x');
    expect(git(wt, 'rev-parse', '--show-toplevel').trim()).toBe(wt);
  });
});
