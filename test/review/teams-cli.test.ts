/**
 * The review loop with real teammate processes (scripted provider) and the `thclaws team` CLI as a real
 * process: warnings while teammates write, a review that reaches the teammate's next model request, bad input.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LeadHandler } from '../../src/core/teams/lead-handler.js';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import { scanConflicts } from '../../src/core/review/conflicts.js';
import { runCli, scrubbedEnv } from '../agent/helpers.js';
import { cleanupsAfterEach, leadSession, stopLeadAndTeam, teamWorkspace, waitFor, writeScript } from '../teams/helpers.js';

const cleanups = cleanupsAfterEach();
const git = (cwd: string, ...a: string[]) => execFileSync('git', a, { cwd, encoding: 'utf8', stdio: 'pipe' });
const CALC = 'function total(items) {\n  let sum = 0;\n  for (const i of items) sum += i.price;\n  return sum;\n}\n';

async function team(script: unknown, members: string[]) {
  const ws = teamWorkspace();
  fs.writeFileSync(path.join(ws.dir, 'calc.js'), CALC);
  git(ws.dir, 'add', '-A');
  git(ws.dir, 'commit', '-qm', 'calc');
  const session = leadSession(ws, writeScript(ws, script));
  session.store.init();
  await session.store.config.create({ name: 't', members: members.map((name) => ({ name, isolation: 'worktree' })) });
  await session.becomeLead();
  const handler = new LeadHandler(session, { watchdogMs: 500 });
  handler.onWake(() => void handler.drain());
  handler.start();
  cleanups.push(() => stopLeadAndTeam(session, handler, ws));
  return { ws, session };
}

const cli = (ws: { dir: string; home: string }, ...args: string[]) => runCli([...args, '--dir', ws.dir], { cwd: ws.dir, env: scrubbedEnv(ws.home) });

describe('review with teammate processes', () => {
  it('two teammates editing one function are a conflict; the review reaches the next model request with path:line', async () => {
    // Committed before TeamTaskComplete: a worktree teammate's task completes only with its work committed.
    const edit = (to: string) => `sed -i 's/  return sum;/  return ${to};/' calc.js && git commit -qam edit && echo edited`;
    const { ws, session } = await team(
      {
        rules: [
          { match: 'Task #1 —', turns: [{ text: 'editing', tool_calls: [{ name: 'Bash', input: { command: edit('Math.round(sum)') } }, { name: 'TeamTaskComplete', input: { task_id: '1', summary: 'rounded' } }] }, { text: 'done' }] },
          { match: 'Task #2 —', turns: [{ text: 'editing', tool_calls: [{ name: 'Bash', input: { command: edit('sum.toFixed(2)') } }, { name: 'TeamTaskComplete', input: { task_id: '2', summary: 'fixed' } }] }, { text: 'done' }] },
          // The review message is the prompt of alice's next model call: this rule only matches its text.
          { match: '/calc\\.js:4\\n\\s+>\\s+return Math\\.round\\(sum\\);\\n\\s+use floor/', turns: [{ text: 'review', tool_calls: [{ name: 'Bash', input: { command: 'echo got-review > review-seen.txt' } }] }, { text: 'addressed' }] },
        ],
        fallback: [{ text: 'ok' }],
      },
      ['alice', 'bob'],
    );
    await session.store.tasks.create({ subject: 'Round', description: 'x', reservedFor: 'alice' });
    await session.store.tasks.create({ subject: 'Fix', description: 'x', reservedFor: 'bob' });
    await spawnTeammate(session, { name: 'alice' });
    await spawnTeammate(session, { name: 'bob' });
    await waitFor(async () => (await session.store.tasks.list({ status: 'completed' })).length === 2, 'both tasks completed');
    const warnings = await scanConflicts(ws.dir, ['alice', 'bob']);
    expect(warnings).toMatchObject([{ kind: 'conflict', agents: ['alice', 'bob'], files: [{ path: 'calc.js', conflict: true, lines: [{ start: 4, end: 4 }] }] }]);
    const conflicts = await cli(ws, 'team', 'conflicts', '--json');
    expect(conflicts.code).toBe(0);
    expect(JSON.parse(conflicts.stdout)[0]).toMatchObject({ kind: 'conflict', agents: ['alice', 'bob'] });

    const r = await cli(ws, 'team', 'review', 'alice', '--comment', 'calc.js:4', 'use floor, not round');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    await waitFor(() => fs.existsSync(path.join(ws.dir, '.worktrees', 'alice', 'review-seen.txt')), 'alice handled the review', 30_000);
    expect((await session.store.reviews.list('alice'))[0]).toMatchObject({ state: 'sent', path: 'calc.js', line: 4 });
  }, 90_000);
});

describe('thclaws team diff / review / merge as a real process', () => {
  it('bad input is one line on stderr, exit 2, nothing written; odd paths survive --json', async () => {
    const ws = teamWorkspace();
    cleanups.push(ws.cleanup);
    const { TeamStore } = await import('../../src/core/store/index.js');
    const { ensureWorktree } = await import('../../src/core/teams/worktree.js');
    const store = TeamStore.forWorkspace(ws.dir);
    store.init();
    await store.config.create({ name: 't', members: [{ name: 'a', isolation: 'worktree' }] });
    const wt = ensureWorktree(ws.dir, 'a');
    const odd = 'sp ace/new\nline.txt';
    fs.mkdirSync(path.join(wt, 'sp ace'));
    fs.writeFileSync(path.join(wt, odd), 'one\ntwo\n');
    const diff = await cli(ws, 'team', 'diff', 'a', '--json');
    expect(diff.code).toBe(0);
    const parsed = JSON.parse(diff.stdout);
    expect(parsed.files).toMatchObject([{ path: odd, source: 'untracked', added: 2 }]);
    expect(parsed.patches[0].patch).toContain('+two');
    const stat = await cli(ws, 'team', 'diff', 'a', '--stat');
    expect(stat.stdout).toContain('"sp ace/new\\nline.txt"  [untracked]');

    const bad: string[][] = [
      ['team', 'diff', 'nobody'],
      ['team', 'diff', '../x'],
      ['team', 'review', 'a', '--comment', 'missing.txt:1', 'x'],
      ['team', 'review', 'a', '--comment', `${odd}:9`, 'past the end'],
      ['team', 'review', 'a', '--comment', 'nolinenumber', 'x'],
      ['team', 'review', 'a', '--comment', `${odd}:1`],
      ['team', 'merge', 'nobody'],
    ];
    for (const args of bad) {
      const r = await cli(ws, ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).toMatch(/^thclaws: /);
    }
    expect(fs.existsSync(store.reviews.file('a'))).toBe(false);
    expect(store.inboxes.unread('a')).toHaveLength(0);
    git(wt, 'add', '-A');
    git(wt, 'commit', '-qm', 'odd');
    fs.writeFileSync(path.join(ws.dir, 'lead dirty.txt'), 'x');
    const head = git(ws.dir, 'rev-parse', 'HEAD');
    const m = await cli(ws, 'team', 'merge', 'a');
    expect(m.code).toBe(2);
    expect(m.stderr).toMatch(/^thclaws: merge refused: the lead's checkout has uncommitted changes.*"lead dirty\.txt"\n$/);
    expect(git(ws.dir, 'rev-parse', 'HEAD')).toBe(head);
    fs.rmSync(path.join(ws.dir, 'lead dirty.txt'));
    const ok = await cli(ws, 'team', 'merge', 'a');
    expect(ok.stdout).toContain('landed on main: a');
    expect(fs.readFileSync(path.join(ws.dir, odd), 'utf8')).toBe('one\ntwo\n');
  }, 90_000);
});
