/**
 * A landing is news, on real git: after the person lands team branches with `thclaws team merge` (a real
 * process) or the dashboard's merge panel (a real TeamHost through the view protocol), the lead and each landed
 * teammate get exactly one message naming the branch, its commits and the target (the lead's next turn reads
 * it), the tasks read landed, sent comments stop counting as open, an open comment stops a landing until the
 * person says go, and a second merge says "nothing to merge".
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TeamStore } from '../../src/core/store/index.js';
import { integrateAndLand } from '../../src/core/review/integrate.js';
import { LeadHandler } from '../../src/core/teams/lead-handler.js';
import { ensureWorktree } from '../../src/core/teams/worktree.js';
import { runCli, scrubbedEnv } from '../agent/helpers.js';
import { cleanupsAfterEach, leadSession, teamWorkspace, type Ws } from '../teams/helpers.js';
import { openHostView } from '../host-view.js';

const cleanups = cleanupsAfterEach();
const git = (cwd: string, ...a: string[]) => execFileSync('git', a, { cwd, encoding: 'utf8', stdio: 'pipe' }).trim();
const cli = (ws: Ws, ...args: string[]) => runCli([...args, '--dir', ws.dir], { cwd: ws.dir, env: scrubbedEnv(ws.home) });

function commitIn(dir: string, file: string, body: string, msg: string): string {
  fs.writeFileSync(path.join(dir, file), body);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', msg);
  return git(dir, 'rev-parse', '--short', 'HEAD');
}

/** alice (two commits, task #1) and bob (one commit, task #2), each task completed at its branch head. */
async function landable() {
  const ws = teamWorkspace();
  cleanups.push(ws.cleanup);
  const store = TeamStore.forWorkspace(ws.dir);
  store.init();
  await store.config.create({ name: 't', members: [{ name: 'alice', isolation: 'worktree' }, { name: 'bob', isolation: 'worktree' }] });
  const wa = ensureWorktree(ws.dir, 'alice');
  const wb = ensureWorktree(ws.dir, 'bob');
  const alice = [commitIn(wa, 'api.js', 'export const api = 1;\n', 'api: handler'), commitIn(wa, 'api.js', 'export const api = 2;\n', 'api: v2')];
  const bob = [commitIn(wb, 'ui.html', '<h1>ui</h1>\n', 'ui: page')];
  for (const [agent, subject, wt] of [['alice', 'API', wa], ['bob', 'UI', wb]] as const) {
    const t = await store.tasks.create({ subject, description: 'x', reservedFor: agent });
    await store.tasks.claim(t.id, agent);
    await store.tasks.complete(t.id, agent, `${subject} committed`, git(wt, 'rev-parse', 'HEAD'));
  }
  // alice's review was sent (the teammate was told); it counts as open until the branch lands.
  const c = await store.reviews.add('alice', { path: 'api.js', line: 1, end_line: null, lines: ['export const api = 2;'], text: 'name it v2' });
  await store.reviews.setState('alice', [c.id], 'sent');
  return { ws, store, alice, bob };
}

describe('landing with thclaws team merge', () => {
  it('an open comment stops it; --despite-comments lands; lead and teammates told once; tasks landed; again says nothing to merge', async () => {
    const { ws, store, alice, bob } = await landable();
    const head = git(ws.dir, 'rev-parse', 'main');
    const refused = await cli(ws, 'team', 'merge');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^thclaws: merge refused: alice has 1 open review comment\(s\) on "api\.js": land anyway \(--despite-comments\)/);
    expect(git(ws.dir, 'rev-parse', 'main')).toBe(head);
    expect(store.inboxes.unread('alice')).toHaveLength(0);

    const r = await cli(ws, 'team', 'merge', '--despite-comments');
    expect(r.stderr).not.toMatch(/^thclaws:/m);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('warning: alice has 1 open review comment(s) on "api.js": landed anyway');
    expect(r.stdout).toMatch(/landed on main: alice \(2 commit\(s\), tasks #1\), bob \(1 commit\(s\), tasks #2\) \([0-9a-f]{12}\); told the lead and alice, bob/);
    const main = git(ws.dir, 'rev-parse', 'main');

    const toAlice = store.inboxes.unread('alice');
    expect(toAlice).toHaveLength(1);
    expect(toAlice[0]!.from).toBe('user');
    expect(toAlice[0]!.text).toContain(`Your branch team/alice landed on main (${main.slice(0, 12)}): 2 commit(s)`);
    expect(toAlice[0]!.text).toContain(`${alice[0]} api: handler`);
    expect(toAlice[0]!.text).toContain(`${alice[1]} api: v2`);
    expect(toAlice[0]!.text).not.toContain('ui: page');
    expect(store.inboxes.unread('bob').map((m) => m.text)).toEqual([expect.stringContaining(`${bob[0]} ui: page`)]);
    const toLead = store.inboxes.unread('lead');
    expect(toLead).toHaveLength(1);
    expect(toLead[0]!.text).toMatch(/landed on main .*team\/alice \(2 commit\(s\); tasks #1\).*api: handler.*team\/bob \(1 commit\(s\); tasks #2\).*ui: page/s);

    // The lead's next turn: the landing is what it reads (not "press Merge").
    const session = leadSession(ws, '/dev/null');
    await session.becomeLead();
    const batch = new LeadHandler(session).drain();
    expect(batch.prompt).toContain('The person landed on main');
    expect(batch.prompt).toContain(`${alice[1]} api: v2`);
    await session.lease?.release();

    for (const id of ['1', '2']) expect((await store.tasks.get(id)).landed).toMatchObject({ into: 'main', commit: main });
    expect((await store.reviews.list('alice')).map((c) => c.state)).toEqual(['resolved']);
    const tasks = await cli(ws, 'team', 'tasks');
    expect(tasks.stdout).toContain(`landed on main (${main.slice(0, 12)})`);

    const again = await cli(ws, 'team', 'merge');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('alice: nothing to merge (team/alice has no commit that main lacks)');
    expect(again.stdout).toContain('nothing to merge into main');
    expect(again.stdout).not.toContain('landed');
    // Nothing merged, nothing to warn about: no stray warning line above "nothing to merge".
    expect(again.stdout).not.toMatch(/^warning:/m);
    expect(git(ws.dir, 'rev-parse', 'main')).toBe(main);
    expect(store.inboxes.unread('alice')).toHaveLength(1);
    expect(store.inboxes.unread('lead')).toHaveLength(1); // still the one landing message (taken, not acked, above)
  }, 90_000);
});

describe('landing from the dashboard merge panel (host API)', () => {
  it('a project with no git identity (none in the repo, none in HOME) still lands: the merge commits are by thclaws lead', async () => {
    const { ws } = await landable();
    git(ws.dir, 'config', '--unset', 'user.email');
    git(ws.dir, 'config', '--unset', 'user.name');
    const r = await cli(ws, 'team', 'merge', '--despite-comments');
    expect(r.stderr).not.toMatch(/^thclaws:/m);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/landed on main: alice \(2 commit\(s\), tasks #1\), bob \(1 commit\(s\), tasks #2\)/);
    expect(fs.readFileSync(path.join(ws.dir, 'api.js'), 'utf8')).toBe('export const api = 2;\n');
    expect(fs.readFileSync(path.join(ws.dir, 'ui.html'), 'utf8')).toBe('<h1>ui</h1>\n');
    expect(git(ws.dir, 'log', '-2', '--format=%an <%ae>|%s', 'main').split('\n')).toEqual(['thclaws lead <lead@thclaws.local>|Merge team/bob (thclaws team)', 'thclaws lead <lead@thclaws.local>|Merge team/alice (thclaws team)']);
  }, 60_000);

  it('merge_run lands and tells once; the overview reads landed with no open comment; a second run has nothing to merge', async () => {
    const { ws, store, alice } = await landable();
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'landing-home-'));
    const { host, call } = await openHostView(ws.dir, { env: { HOME: home, XDG_CONFIG_HOME: path.join(home, 'cfg') } });
    cleanups.push(() => host.close());
    const before = (await call({ type: 'merge_overview' })).result;
    expect(before.branches.find((b: any) => b.agent === 'alice')).toMatchObject({ ahead: 2, open_comments: 1, landed: null });

    const refused = (await call({ type: 'merge_run', agents: ['alice', 'bob'], checks: false })).result;
    expect(refused.landed).toBe(false);
    expect(refused.refusals.map((x: any) => x.reason).join()).toContain('alice has 1 open review comment(s)');
    const r = (await call({ type: 'merge_run', agents: ['alice', 'bob'], checks: false, allow_open_comments: true })).result;
    expect(r).toMatchObject({ landed: true, merged: ['alice', 'bob'], nothing: [] });
    expect(store.inboxes.unread('alice')).toHaveLength(1);
    expect(store.inboxes.unread('alice')[0]!.text).toContain(`${alice[0]} api: handler`);
    expect(store.inboxes.unread('lead')).toHaveLength(1);

    const after = (await call({ type: 'merge_overview' })).result;
    const row = after.branches.find((b: any) => b.agent === 'alice');
    // The panel reads "landed on main", not "0 / n": alice's head is the second parent of a merge on main.
    expect(row).toMatchObject({ ahead: 0, open_comments: 0, landed: { into: 'main' } });
    expect(git(ws.dir, 'rev-parse', `${row.landed.commit}^2`)).toBe(git(ws.dir, 'rev-parse', 'team/alice'));

    const again = (await call({ type: 'merge_run', agents: ['alice', 'bob'], checks: false })).result;
    expect(again).toMatchObject({ landed: false, merged: [], nothing: ['alice', 'bob'], refusals: [] });
    expect(store.inboxes.unread('alice')).toHaveLength(1);
    expect(store.inboxes.unread('lead')).toHaveLength(1);
  }, 90_000);
});

describe('what a landing says landed', () => {
  it('a commit the teammate makes while the checks run is not in the landing: its message and the lead\'s do not list it', async () => {
    const { ws, store, alice } = await landable();
    const wa = path.join(ws.dir, '.worktrees', 'alice');
    // The check is the moment: alice commits on team/alice after the integration merged it (a live teammate).
    const late = `git -C '${wa}' commit -q --allow-empty -m 'late: after the merge'`;
    const r = await integrateAndLand(store, ws.dir, { agents: ['alice'], checks: [late], wrap: null, allowOpenComments: true });
    expect(r.landed).toBe(true);
    expect(git(ws.dir, 'log', '-1', '--format=%s', 'team/alice')).toBe('late: after the merge');
    expect(git(ws.dir, 'log', '--format=%s', 'main')).not.toContain('late: after the merge');
    expect(r.landings).toMatchObject([{ agent: 'alice', count: 2 }]);
    const toAlice = store.inboxes.unread('alice');
    expect(toAlice).toHaveLength(1);
    expect(toAlice[0]!.text).toContain(': 2 commit(s)');
    expect(toAlice[0]!.text).toContain(`${alice[1]} api: v2`);
    expect(toAlice[0]!.text).not.toContain('late: after the merge');
    const toLead = store.inboxes.unread('lead')[0]!.text;
    expect(toLead).not.toContain('late: after the merge');
    expect(toLead).not.toContain('nothing of theirs is left to merge');
    expect(toLead).toContain('Not in this landing (committed after the merge): team/alice 1 commit(s).');
    // What git says: team/alice still has a commit main lacks.
    expect(git(ws.dir, 'rev-list', '--count', 'main..team/alice')).toBe('1');
  }, 90_000);

  it('a red check lands nothing and says nothing: no message, no task landed, the sent comment still open', async () => {
    const { ws, store } = await landable();
    const main = git(ws.dir, 'rev-parse', 'main');
    const r = await integrateAndLand(store, ws.dir, { agents: ['alice', 'bob'], checks: ['exit 3'], wrap: null, allowOpenComments: true });
    expect(r).toMatchObject({ landed: false, failed: { command: 'exit 3', code: 3 }, landings: [] });
    expect(git(ws.dir, 'rev-parse', 'main')).toBe(main);
    for (const agent of ['alice', 'bob', 'lead']) expect(store.inboxes.unread(agent), agent).toHaveLength(0);
    for (const id of ['1', '2']) expect((await store.tasks.get(id)).landed ?? null).toBeNull();
    expect((await store.reviews.list('alice')).map((c) => c.state)).toEqual(['sent']);
  }, 90_000);
  it('a branch of 23 commits: the message lists the oldest 20 and says how many more landed', async () => {
    const { ws, store } = await landable();
    const wa = path.join(ws.dir, '.worktrees', 'alice');
    for (let i = 3; i <= 23; i++) commitIn(wa, 'api.js', `export const api = ${i};\n`, `api: v${i}`);
    const r = await integrateAndLand(store, ws.dir, { agents: ['alice'], checks: [], wrap: null, allowOpenComments: true });
    expect(r.landed).toBe(true);
    expect(r.landings).toMatchObject([{ agent: 'alice', count: 23 }]);
    const toAlice = store.inboxes.unread('alice')[0]!.text;
    expect(toAlice).toContain(': 23 commit(s)');
    expect(toAlice).toContain('api: v20');
    expect(toAlice).not.toContain('api: v21');
    expect(toAlice).toContain('… and 3 more');
    expect(store.inboxes.unread('lead')[0]!.text).toContain('… and 3 more');
  }, 90_000);
});
