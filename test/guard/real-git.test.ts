import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandGuard, type CommandGuard } from '../../src/core/guard/index.js';
import { git, teamRepo, type TeamRepo } from './git-repo.js';

describe('teammate reset rule against a real repository', () => {
  let repo: TeamRepo;
  let alice: CommandGuard;
  const allowed = (cmd: string) => alice.checkCommand(cmd, repo.alice).allowed;

  beforeAll(() => {
    repo = teamRepo();
    alice = createCommandGuard('teammate', { workspaceRoot: repo.ws, cwd: repo.alice, branch: 'team/alice', agentName: 'alice' });
  });
  afterAll(() => repo.cleanup());

  it('allows targets on its own history', () => {
    const sha = git(repo.alice, 'rev-parse', 'HEAD~1');
    for (const cmd of ['git reset --hard', 'git reset --hard HEAD~1', 'git reset --hard @', `git reset --hard ${sha}`, `git reset --hard ${sha.slice(0, 8)}`,
      'git reset --hard v-alice', 'git reset --hard v-base', 'git reset --hard $(git merge-base HEAD main)', 'git reset --hard "$(git merge-base main team/alice)"',
      'git reset --hard team/alice~1', 'git reset --hard HEAD@{1}']) {
      expect(allowed(cmd), cmd).toBe(true);
    }
  });

  it('refuses other branches, remote refs and tags off its history', () => {
    const bobSha = git(repo.bob, 'rev-parse', 'HEAD');
    for (const cmd of ['git reset --hard main', 'git reset main --hard', 'git -C . reset --hard main', 'git reset --hard team/bob', 'git reset --hard v-bob',
      `git reset --hard ${bobSha}`, 'git reset --hard main~1', 'git reset --hard $(git merge-base team/bob v-bob)', 'git reset --hard $(git rev-parse main)']) {
      expect(allowed(cmd), cmd).toBe(false);
    }
  });

  it('allows ORIG_HEAD after undoing its own reset (the commit is in its reflog)', () => {
    git(repo.alice, 'reset', '-q', '--hard', 'HEAD~1');
    expect(allowed('git reset --hard ORIG_HEAD')).toBe(true);
    git(repo.alice, 'reset', '-q', '--hard', 'ORIG_HEAD');
  });

  it('tells a file checkout from a branch switch with git', () => {
    expect(allowed('git checkout alice.txt')).toBe(true);
    expect(allowed('git checkout main -- a.txt')).toBe(true);
    expect(allowed('git checkout main')).toBe(false);
    expect(allowed('git checkout v-alice')).toBe(false);
    expect(allowed('git switch team/alice')).toBe(true);
  });
});

describe('teammate: refs that do not resolve or move under a fetch fail closed (real git, a real remote)', () => {
  let repo: TeamRepo;
  let alice: CommandGuard;
  let tmp: string;
  const allowed = (cmd: string) => alice.checkCommand(cmd, repo.alice).allowed;

  beforeAll(() => {
    repo = teamRepo();
    tmp = mkdtempSync(path.join(os.tmpdir(), 'thclaws-origin-'));
    const origin = path.join(tmp, 'origin.git');
    git(tmp, 'clone', '-q', '--bare', repo.ws, origin);
    git(tmp, '--git-dir', origin, 'branch', 'team/carol', 'team/bob');
    git(repo.ws, 'remote', 'add', 'origin', origin);
    git(repo.ws, 'fetch', '-q', 'origin');
    alice = createCommandGuard('teammate', { workspaceRoot: repo.ws, cwd: repo.alice, branch: 'team/alice', agentName: 'alice' });
  });
  afterAll(() => {
    repo.cleanup();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("refuses a fetch followed by a reset to FETCH_HEAD, and FETCH_HEAD holding bob's commit", () => {
    expect(allowed('git fetch origin team/bob && git reset --hard FETCH_HEAD')).toBe(false);
    git(repo.alice, 'fetch', '-q', 'origin', 'team/bob');
    expect(allowed('git reset --hard FETCH_HEAD')).toBe(false);
    expect(allowed('git reset --hard no-such-ref')).toBe(false);
    expect(allowed('git fetch && git reset --hard HEAD~1')).toBe(true);
  });

  it("refuses a checkout that git would turn into a new branch from origin/<name>", () => {
    expect(git(repo.alice, 'for-each-ref', '--format=%(refname:short)', 'refs/remotes/origin/team/carol')).toBe('origin/team/carol');
    expect(allowed('git checkout team/carol')).toBe(false);
    expect(allowed('git checkout --no-guess team/carol')).toBe(true);
    expect(allowed('git checkout alice.txt')).toBe(true);
    expect(git(repo.alice, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('team/alice');
  });
});

describe('lead Write/Edit: only files git lists as unmerged, only during a merge (D-15)', () => {
  let repo: TeamRepo;
  let lead: CommandGuard;
  beforeAll(() => {
    repo = teamRepo();
    lead = createCommandGuard('lead', { workspaceRoot: repo.ws, cwd: repo.ws, branch: 'main', agentName: 'lead' });
  });
  afterAll(() => repo.cleanup());

  it('refuses writes outside a merge, even with a fake MERGE_HEAD and conflict markers', () => {
    const file = path.join(repo.ws, 'a.txt');
    expect(lead.checkWrite(file).allowed).toBe(false);
    writeFileSync(path.join(repo.ws, '.git/MERGE_HEAD'), `${git(repo.ws, 'rev-parse', 'team/bob')}\n`);
    writeFileSync(file, '<<<<<<< HEAD\nx\n=======\ny\n>>>>>>> b\n');
    const v = lead.checkWrite(file);
    expect(v.allowed).toBe(false);
    expect(!v.allowed && v.reason).toMatch(/team lead may not write or edit/);
    git(repo.ws, 'checkout', '-q', '--', 'a.txt');
    git(repo.ws, 'merge', '--quit');
  });

  it('allows exactly the unmerged files of a real conflict', () => {
    writeFileSync(path.join(repo.bob, 'a.txt'), 'bob\n');
    git(repo.bob, 'commit', '-q', '-am', 'bob edits a');
    writeFileSync(path.join(repo.ws, 'a.txt'), 'main\n');
    git(repo.ws, 'commit', '-q', '-am', 'main edits a');
    expect(() => git(repo.ws, 'merge', 'team/bob')).toThrow();
    expect(lead.checkWrite(path.join(repo.ws, 'a.txt')).allowed).toBe(true);
    expect(lead.checkWrite(path.join(repo.ws, 'main.txt')).allowed).toBe(false);
    expect(lead.checkWrite(path.join(repo.ws, 'new.txt')).allowed).toBe(false);
    git(repo.ws, 'merge', '--abort');
    expect(lead.checkWrite(path.join(repo.ws, 'a.txt')).allowed).toBe(false);
  });
});
