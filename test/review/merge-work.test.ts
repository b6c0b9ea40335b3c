/**
 * The person's work in a merge left conflicted, through the host's view protocol and a real `-p` lead: abort is
 * refused while they resolved or edited anything, and confirmed it keeps that work in a patch; the lead's
 * TeamMerge cannot abort a merge the person is resolving; an unstaged edit over a staged file is explained.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TeamStore } from '../../src/core/store/index.js';
import { ensureWorktree } from '../../src/core/teams/worktree.js';
import { ensureBuilt, runCli, scrubbedEnv } from '../agent/helpers.js';
import { teamWorkspace, writeScript, type Ws } from '../teams/helpers.js';
import { openHostView } from '../host-view.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
beforeAll(() => ensureBuilt(), 120_000);

const git = (cwd: string, ...a: string[]) => execFileSync('git', a, { cwd, encoding: 'utf8', stdio: 'pipe' });
const read = (ws: Ws, f: string) => fs.readFileSync(path.join(ws.dir, f), 'utf8');
const merging = (ws: Ws) => fs.existsSync(path.join(ws.dir, '.git', 'MERGE_HEAD'));

/** main and team/a both change a.txt (conflict); team/a also changes b.txt (merged clean, staged by the merge). */
async function setup() {
  const ws = teamWorkspace({ teamEnabled: true });
  cleanups.push(ws.cleanup);
  fs.writeFileSync(path.join(ws.dir, 'a.txt'), 'one\n');
  fs.writeFileSync(path.join(ws.dir, 'b.txt'), 'b\n');
  git(ws.dir, 'add', '-A');
  git(ws.dir, 'commit', '-qm', 'base');
  const store = TeamStore.forWorkspace(ws.dir);
  store.init();
  await store.config.create({ name: 't', members: [{ name: 'a', isolation: 'worktree' }] });
  const wt = ensureWorktree(ws.dir, 'a');
  fs.writeFileSync(path.join(wt, 'a.txt'), 'from a\n');
  fs.writeFileSync(path.join(wt, 'b.txt'), 'b from a\n');
  git(wt, 'commit', '-qam', 'a: both');
  fs.writeFileSync(path.join(ws.dir, 'a.txt'), 'from main\n');
  git(ws.dir, 'commit', '-qam', 'main: a');
  const view = await openHostView(ws.dir);
  cleanups.push(() => view.close());
  const call = view.call;
  return { ws, call };
}

describe('abort of a merge the person is resolving', () => {
  it('is refused while they resolved and edited files ("commit it"); confirmed, their work is kept in a patch', async () => {
    const { ws, call } = await setup();
    expect(await call({ type: 'merge_leave_conflicted', agent: 'a' })).toMatchObject({ ok: true });
    fs.writeFileSync(path.join(ws.dir, 'a.txt'), 'resolved by the person\n');
    fs.writeFileSync(path.join(ws.dir, 'b.txt'), 'b edited by the person\n');
    git(ws.dir, 'add', 'a.txt', 'b.txt');
    const left = await call({ type: 'merge_conflicts' });
    expect(left.result).toMatchObject({ files: [], touched: ['a.txt', 'b.txt'] });

    const refused = await call({ type: 'merge_abort' });
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(/^abort refused: .*"a\.txt", "b\.txt".*nothing is left conflicted: commit it/);
    expect(merging(ws)).toBe(true);
    expect(read(ws, 'a.txt')).toBe('resolved by the person\n');
    expect(git(ws.dir, 'diff', '--cached', '--name-only')).toBe('a.txt\nb.txt\n');

    const done = await call({ type: 'merge_abort', confirm: true });
    expect(done).toMatchObject({ ok: true, result: { aborted: true, kept: ['a.txt', 'b.txt'] } });
    const saved = (done.result as { saved: string }).saved;
    expect(saved).toMatch(/^\.thclaws\/merge-aborts\/merge-abort-.*\.patch$/);
    expect(merging(ws)).toBe(false);
    expect(read(ws, 'a.txt')).toBe('from main\n');
    // The saved patch puts the person's resolution and edit back.
    git(ws.dir, 'apply', saved);
    expect(read(ws, 'a.txt')).toBe('resolved by the person\n');
    expect(read(ws, 'b.txt')).toBe('b edited by the person\n');
  }, 60_000);

  it('a merge nobody touched aborts at once, nothing saved', async () => {
    const { ws, call } = await setup();
    await call({ type: 'merge_leave_conflicted', agent: 'a' });
    expect(await call({ type: 'merge_abort' })).toMatchObject({ ok: true, result: { aborted: true, saved: null } });
    expect(merging(ws)).toBe(false);
    expect(git(ws.dir, 'status', '--porcelain', '--untracked-files=no')).toBe('');
  }, 60_000);

  it("the team's own files changing (the dashboard writes a tracked .thclaws/settings.json) are not the person's work: abort needs no confirmation, nothing saved", async () => {
    const { ws, call } = await setup();
    expect(git(ws.dir, 'ls-files', '.thclaws/settings.json')).toBe('.thclaws/settings.json\n');
    await call({ type: 'merge_leave_conflicted', agent: 'a' });
    expect(await call({ type: 'settings_set', patch: { maxLiveTeammates: 3 } })).toMatchObject({ ok: true });
    expect(git(ws.dir, 'status', '--porcelain', '--', '.thclaws/settings.json')).toMatch(/^ M \.thclaws\/settings\.json/);
    // A real edit beside it still asks, and names only that edit.
    fs.writeFileSync(path.join(ws.dir, 'c.txt'), 'c\n');
    git(ws.dir, 'add', 'c.txt');
    const refused = await call({ type: 'merge_abort' });
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(/\(resolved or edited: "c\.txt"\)/);
    git(ws.dir, 'rm', '-q', '--cached', 'c.txt');
    fs.rmSync(path.join(ws.dir, 'c.txt'));

    expect(await call({ type: 'merge_abort' })).toMatchObject({ ok: true, result: { aborted: true, saved: null, kept: [] } });
    expect(merging(ws)).toBe(false);
    expect(fs.existsSync(path.join(ws.dir, '.thclaws/merge-aborts'))).toBe(false);
    // The setting the dashboard wrote is still there.
    expect(JSON.parse(read(ws, '.thclaws/settings.json'))).toMatchObject({ maxLiveTeammates: 3 });
  }, 60_000);

  it('an unstaged edit of a file the merge staged: told why and what to do, not git\'s "Cannot merge"; confirmed, the edit is kept', async () => {
    const { ws, call } = await setup();
    await call({ type: 'merge_leave_conflicted', agent: 'a' });
    fs.writeFileSync(path.join(ws.dir, 'b.txt'), 'unstaged edit\n');
    const refused = await call({ type: 'merge_abort' });
    expect(refused.ok).toBe(false);
    expect(refused.error).not.toMatch(/not uptodate|Cannot merge/);
    expect(refused.error).toMatch(/"b\.txt" has unstaged edits over what the merge staged/);
    expect(refused.error).toMatch(/resolve "a\.txt", git add, then git commit; or abort again and confirm/);
    expect(read(ws, 'b.txt')).toBe('unstaged edit\n');
    const done = await call({ type: 'merge_abort', confirm: true });
    expect(done).toMatchObject({ ok: true, result: { aborted: true } });
    expect(merging(ws)).toBe(false);
    expect(fs.readFileSync(path.join(ws.dir, (done.result as { saved: string }).saved), 'utf8')).toContain('+unstaged edit');
  }, 60_000);

  it("the lead's TeamMerge cannot abort it: the refusal says the person is resolving, their resolution stays", async () => {
    const { ws, call } = await setup();
    await call({ type: 'merge_leave_conflicted', agent: 'a' });
    fs.writeFileSync(path.join(ws.dir, 'a.txt'), 'resolved by the person\n');
    git(ws.dir, 'add', 'a.txt');
    const script = writeScript(ws, { rules: [{ turns: [{ text: 'merging', tool_calls: [{ name: 'TeamMerge', input: {} }] }, { text: 'backing out', tool_calls: [{ name: 'TeamMerge', input: { abort: true } }] }, { text: 'ok' }] }] });
    const r = await runCli(['-p', 'merge the team', '--script', script, '--accept-all', '--output-format', 'stream-json'], { cwd: ws.dir, env: scrubbedEnv(ws.home) });
    expect(r.code, r.stderr).toBe(0);
    const results = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.type === 'user').flatMap((e) => e.message.content);
    expect(results).toHaveLength(2);
    for (const res of results) {
      expect(res.is_error).toBe(true);
      expect(String(res.content)).toMatch(/the person is resolving the merge in progress/);
      expect(String(res.content)).not.toMatch(/TeamMerge \{ abort: true \}/);
    }
    expect(merging(ws)).toBe(true);
    expect(read(ws, 'a.txt')).toBe('resolved by the person\n');
  }, 60_000);
});
