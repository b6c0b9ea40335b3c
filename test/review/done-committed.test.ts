/**
 * "Done" means committed, with real teammate processes (scripted provider) in real git worktrees: on a machine
 * without a git identity the teammate's commit fails and its TeamTaskComplete is refused with the reason, which
 * the board's task record and `thclaws team tasks` show; with an identity a forgotten commit is refused until
 * made, and the completed task records the commit that is on its branch.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TeamStore, type Task } from '../../src/core/store/index.js';
import type { TeamSession } from '../../src/core/teams/session.js';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import { runCli, scrubbedEnv } from '../agent/helpers.js';
import { leadTeam } from '../teams/lead-team.js';
import { cleanupsAfterEach, teamWorkspace, waitFor, type Ws } from '../teams/helpers.js';

const cleanups = cleanupsAfterEach();
const git = (cwd: string, ...a: string[]) => execFileSync('git', a, { cwd, encoding: 'utf8', stdio: 'pipe' }).trim();

/** A team with one worktree teammate `alice` running `script`; `noIdentity`: git has no user anywhere. */
async function team(script: unknown, noIdentity: boolean) {
  const ws = teamWorkspace();
  const childEnv: Record<string, string> = { HOME: ws.home, THCLAWS_TEST: '1' };
  if (noIdentity) {
    git(ws.dir, 'config', '--unset', 'user.email');
    git(ws.dir, 'config', '--unset', 'user.name');
    const empty = path.join(ws.home, 'empty.gitconfig');
    fs.writeFileSync(empty, '');
    Object.assign(childEnv, { GIT_CONFIG_GLOBAL: empty, GIT_CONFIG_NOSYSTEM: '1' });
  }
  const { session } = await leadTeam(ws, script, [{ name: 'alice', isolation: 'worktree' }], cleanups, { childEnv });
  return { ws, session };
}

/** Task #1 for alice, alice started: resolves with the task once `until` holds for it. */
async function aliceOnTask1(session: TeamSession, until: (t: Task) => boolean, what: string): Promise<Task> {
  await session.store.tasks.create({ subject: 'API', description: 'write api.js', reservedFor: 'alice' });
  await spawnTeammate(session, { name: 'alice' });
  return waitFor(async () => {
    const t = await session.store.tasks.get('1');
    return until(t) ? t : undefined;
  }, what, 40_000);
}

/** What alice's terminal showed. */
const aliceLog = (ws: Ws) => fs.readFileSync(path.join(ws.dir, '.thclaws', 'state', 'team', 'agents', 'alice', 'output.log'), 'utf8');

const cli = (ws: Ws, ...args: string[]) => runCli([...args, '--dir', ws.dir], { cwd: ws.dir, env: scrubbedEnv(ws.home) });
const complete = { name: 'TeamTaskComplete', input: { task_id: '1', summary: 'api.js committed' } };

describe('TeamTaskComplete in a worktree', () => {
  it('without a git identity the commit fails, the task is not completed and the board and CLI say why', async () => {
    const { ws, session } = await team(
      {
        rules: [{ match: 'Task #1 —', turns: [{ text: 'writing', tool_calls: [{ name: 'Bash', input: { command: 'echo "export const api = 1;" > api.js && git add -A && git commit -qm api' } }, complete] }, { text: 'done' }] }],
        fallback: [{ text: 'ok' }],
      },
      true,
    );
    // The runtime retries the task, then parks it for the lead with the refusal as the reason.
    const parked = await aliceOnTask1(session, (t) => !!t.parked, 'task #1 parked');
    expect(parked.status).not.toBe('completed');
    expect(parked.commit ?? null).toBeNull();
    expect(parked.not_done).toMatch(/git commit failed: no identity \(user\.email\)/);
    expect(parked.not_done).toContain('"api.js"');
    expect(String(parked.parked)).toContain('no identity (user.email)');
    // The pane: git's own error and the refusal, as the teammate's terminal shows them.
    const log = aliceLog(ws);
    expect(log).toMatch(/Author identity unknown|unable to auto-detect email/);
    expect(log).toContain('task #1 not completed: uncommitted changes in your worktree');
    expect(git(ws.dir, 'rev-list', '--count', 'main..team/alice')).toBe('0');
    const tasks = await cli(ws, 'team', 'tasks');
    expect(tasks.code).toBe(0);
    expect(tasks.stdout).toMatch(/not done: uncommitted changes in your worktree: "api\.js": git commit failed: no identity/);
    // Its status reads the failure, not a green idle: `team status --json` (the dashboard's badge reads the same).
    const status = await waitFor(async () => {
      const r = await cli(ws, 'team', 'status', '--json');
      const alice = (JSON.parse(r.stdout) as { members: Array<{ name: string; state: string; error: string | null }> }).members.find((m) => m.name === 'alice');
      return alice?.state === 'error' ? alice : undefined;
    }, 'alice reads error in team status', 20_000);
    expect(status.error).toMatch(/^task #1 not done: uncommitted changes in your worktree: "api\.js": git commit failed: no identity/);
    const text = await cli(ws, 'team', 'status');
    expect(text.stdout).toMatch(/alice .*error: task #1 not done: .*no identity/);
  }, 90_000);

  it('with an identity a forgotten commit is refused, then the completed task records the commit on its branch', async () => {
    const { ws, session } = await team(
      {
        rules: [
          {
            match: 'Task #1 —',
            turns: [
              { text: 'writing', tool_calls: [{ name: 'Bash', input: { command: 'echo "export const api = 1;" > api.js' } }, complete] },
              // The refusal is this call's input: the scripted model commits and completes again.
              { text: 'committing', tool_calls: [{ name: 'Bash', input: { command: 'git add -A && git commit -qm "api: handler"' } }, complete] },
              { text: 'done' },
            ],
          },
        ],
        fallback: [{ text: 'ok' }],
      },
      false,
    );
    const done = await aliceOnTask1(session, (t) => t.status === 'completed', 'task #1 completed');
    const log = aliceLog(ws);
    expect(log).toContain('task #1 not completed: uncommitted changes in your worktree: "api.js": commit them first');
    expect(done.commit).toBe(git(ws.dir, 'rev-parse', 'team/alice'));
    expect(git(ws.dir, 'log', '-1', '--format=%s', done.commit!)).toBe('api: handler');
    expect(done.not_done ?? null).toBeNull();
    const tasks = await cli(ws, 'team', 'tasks');
    expect(tasks.stdout).toContain(`commit ${done.commit!.slice(0, 12)}`);
  }, 90_000);

  it('a commit made on another branch (or a detached HEAD) is not on team/<name>: refused until it is', async () => {
    const { ws, session } = await team(
      {
        rules: [
          {
            match: 'Task #1 —',
            turns: [
              { text: 'writing', tool_calls: [{ name: 'Bash', input: { command: 'git commit -q --allow-empty -m base && (git rebase -x false HEAD~1 || true) && echo "export const api = 1;" > api.js && git add -A && git commit -qm "api: detached"' } }, complete] },
              { text: 'onto my branch', tool_calls: [{ name: 'Bash', input: { command: 'c=$(git rev-parse HEAD) && git checkout -q team/alice && git merge -q --ff-only $c' } }, complete] },
              { text: 'done' },
            ],
          },
        ],
        fallback: [{ text: 'ok' }],
      },
      false,
    );
    const done = await aliceOnTask1(session, (t) => t.status === 'completed', 'task #1 completed');
    const log = aliceLog(ws);
    expect(log).toMatch(/task #1 not completed: your commits are not on your branch team\/alice \(HEAD [0-9a-f]{12} is detached\)/);
    // Completed only once the work is on team/alice: what a landing merges.
    expect(done.commit).toBe(git(ws.dir, 'rev-parse', 'team/alice'));
    expect(git(ws.dir, 'log', '-1', '--format=%s', 'team/alice')).toBe('api: detached');
  }, 90_000);
});

describe('a refused completion (not_done) belongs to the teammate it was refused to', () => {
  it('reassigned to bob, or claimed by him, the task no longer reads "not done" with alice\'s reason', async () => {
    const ws = teamWorkspace();
    cleanups.push(ws.cleanup);
    const store = TeamStore.forWorkspace(ws.dir);
    store.init();
    await store.config.create({ name: 't', members: [{ name: 'alice', isolation: 'worktree' }, { name: 'bob', isolation: 'worktree' }] });
    const reason = 'uncommitted changes in your worktree: "api.js": git commit failed: no identity (user.email)';
    const refused = async (subject: string) => {
      const t = await store.tasks.create({ subject, description: 'x', reservedFor: 'alice' });
      await store.tasks.claim(t.id, 'alice');
      // What TeamTaskComplete records when it refuses alice (see the tests above).
      await store.tasks.update(t.id, { extra: { not_done: reason, not_done_by: 'alice' } });
      expect((await cli(ws, 'team', 'tasks')).stdout).toContain(`not done: ${reason}`);
    };
    // #1: the lead hands it to bob. #2: back to pending (its reservation cleared), then bob claims it.
    await refused('API');
    await store.tasks.update('1', { reservedFor: 'bob' });
    await refused('UI');
    await store.tasks.update('2', { reservedFor: null });
    await store.tasks.claim('2', 'bob');
    const tasks = await cli(ws, 'team', 'tasks');
    expect(tasks.code).toBe(0);
    expect(tasks.stdout).not.toContain('not done');
    for (const id of ['1', '2']) expect((await store.tasks.get(id)).not_done_by ?? null).toBeNull();
  }, 60_000);
});
