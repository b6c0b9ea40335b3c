/** A real team repository in a temp dir: main, team/alice and team/bob worktrees, tags. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e.x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e.x', GIT_CONFIG_NOSYSTEM: '1' };

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], { cwd, env: ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

export interface TeamRepo {
  ws: string;
  alice: string;
  bob: string;
  cleanup(): void;
}

export function teamRepo(): TeamRepo {
  const ws = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'thclaws-guard-')));
  git(ws, 'init', '-q');
  const commit = (dir: string, file: string, text: string, msg: string) => {
    writeFileSync(path.join(dir, file), text);
    git(dir, 'add', file);
    git(dir, 'commit', '-q', '-m', msg);
  };
  commit(ws, 'a.txt', 'one\n', 'base');
  git(ws, 'tag', 'v-base');
  git(ws, 'worktree', 'add', '-q', '-b', 'team/alice', '.worktrees/alice');
  git(ws, 'worktree', 'add', '-q', '-b', 'team/bob', '.worktrees/bob');
  const alice = path.join(ws, '.worktrees/alice');
  const bob = path.join(ws, '.worktrees/bob');
  commit(alice, 'alice.txt', 'a1\n', 'alice 1');
  git(alice, 'tag', 'v-alice');
  commit(alice, 'alice.txt', 'a2\n', 'alice 2');
  commit(bob, 'bob.txt', 'b1\n', 'bob 1');
  git(bob, 'tag', 'v-bob');
  commit(ws, 'main.txt', 'm1\n', 'main moves on');
  return { ws, alice, bob, cleanup: () => rmSync(ws, { recursive: true, force: true }) };
}
