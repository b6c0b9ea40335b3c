/** The host's review feed on real worktrees: warnings follow writes, the lead is told once per new conflict. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TeamStore } from '../../src/core/store/index.js';
import { ensureWorktree } from '../../src/core/teams/worktree.js';
import { ReviewFeed } from '../../src/main/host/review-feed.js';
import type { HostEvent } from '../../src/contract/api.js';
import { teamWorkspace, waitFor, worktreeTeam } from '../teams/helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
const git = (cwd: string, ...a: string[]) => execFileSync('git', a, { cwd, encoding: 'utf8', stdio: 'pipe' });
const CALC = 'function total(items) {\n  let sum = 0;\n  for (const i of items) sum += i.price;\n  return sum;\n}\n\n// a\n// b\n// c\n// d\n// e\n// f\n\nfunction tax(x) {\n  return x * 0.2;\n}\n';

describe('review feed', () => {
  it('a conflict appears after the writes that cause it, clears when it goes away, and reaches the lead once', async () => {
    const ws = teamWorkspace();
    cleanups.push(ws.cleanup);
    fs.writeFileSync(path.join(ws.dir, 'calc.js'), CALC);
    git(ws.dir, 'add', '-A');
    git(ws.dir, 'commit', '-qm', 'calc');
    const store = TeamStore.forWorkspace(ws.dir);
    store.init();
    await store.config.create({ name: 't', members: [{ name: 'a', isolation: 'worktree' }, { name: 'b', isolation: 'worktree' }] });
    const wa = ensureWorktree(ws.dir, 'a');
    const wb = ensureWorktree(ws.dir, 'b');
    const events: HostEvent[] = [];
    const feed = new ReviewFeed(store, ws.dir, (ev) => events.push(ev));
    await feed.start();
    cleanups.push(() => feed.close());
    const warnings = () => [...events].reverse().find((e) => e.type === 'conflict_warnings') as Extract<HostEvent, { type: 'conflict_warnings' }> | undefined;
    await waitFor(() => warnings(), 'the first scan');
    expect(warnings()!.warnings).toEqual([]);

    // Disjoint hunks in one file: overlap, never conflict.
    fs.writeFileSync(path.join(wa, 'calc.js'), CALC.replace('return sum;', 'return Math.round(sum);'));
    fs.writeFileSync(path.join(wb, 'calc.js'), CALC.replace('x * 0.2', 'x * 0.25'));
    await waitFor(() => warnings()?.warnings.length === 1 && warnings(), 'the overlap');
    expect(warnings()!.warnings[0]).toMatchObject({ kind: 'overlap', agents: ['a', 'b'] });
    // b now edits the same line as a: a conflict; more writes to it are not new conflicts.
    let computed = 0;
    feed.onComputed = () => computed++;
    for (const v of ['1', '2', '3']) {
      const before = computed;
      fs.writeFileSync(path.join(wb, 'calc.js'), CALC.replace('return sum;', `return sum.toFixed(${v});`));
      await waitFor(() => computed > before && warnings()?.warnings[0]?.kind === 'conflict', 'the conflict after this write');
    }
    expect(warnings()!.warnings[0]).toMatchObject({ kind: 'conflict', files: [{ path: 'calc.js', conflict: true, lines: [{ start: 4, end: 4 }] }] });
    // The change lists follow the warnings (they never hold a warning up).
    await waitFor(() => events.some((e) => e.type === 'review_changes' && e.agent === 'b'), "b's change list");
    await waitFor(() => store.inboxes.unread('lead').length > 0, 'the lead told');
    await new Promise((r) => setTimeout(r, 300));
    await feed.idle();
    const told = store.inboxes.unread('lead').filter((m) => m.type === 'conflict_warning');
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain('calc.js (lines 4)');
    // b reverts: the warning clears.
    git(wb, 'checkout', '--', 'calc.js');
    await waitFor(() => warnings()?.warnings.length === 0, 'the warning cleared');
  }, 60_000);

  it('git alone moving a branch is seen: a commit of work already written, then the lead\'s branch moving, each updates the change list', async () => {
    const { ws, store, worktrees } = await worktreeTeam(['a']);
    const wa = worktrees[0]!;
    cleanups.push(ws.cleanup);
    const events: HostEvent[] = [];
    const feed = new ReviewFeed(store, ws.dir, (ev) => events.push(ev));
    await feed.start();
    cleanups.push(() => feed.close());
    const changes = () => ([...events].reverse().find((e) => e.type === 'review_changes' && e.agent === 'a') as Extract<HostEvent, { type: 'review_changes' }> | undefined)?.changes;
    fs.writeFileSync(path.join(wa, 'api.js'), 'export const api = 1;\n');
    await waitFor(() => changes()?.files.find((f) => f.path === 'api.js' && f.source === 'untracked'), 'api.js listed as untracked');
    // No file of the worktree changes from here on: only the index and the branch ref.
    git(wa, 'add', 'api.js');
    git(wa, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'api');
    await waitFor(() => changes()?.ahead === 1 && changes()?.files.find((f) => f.path === 'api.js' && f.source === 'committed'), 'api.js listed as committed, one commit ahead');
    // The lead's branch moves (a commit in the lead's checkout): a's base is behind it now.
    fs.writeFileSync(path.join(ws.dir, 'lead.txt'), 'lead\n');
    git(ws.dir, 'add', 'lead.txt');
    git(ws.dir, 'commit', '-qm', 'lead');
    await waitFor(() => changes()?.behind === 1, 'a one commit behind the lead');
    // Folders made after the watch started are watched too, files in them written at once included.
    fs.mkdirSync(path.join(wa, 'src', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(wa, 'src', 'deep', 'one.js'), '1\n');
    await waitFor(() => changes()?.files.some((f) => f.path === 'src/deep/one.js'), 'a file in a new folder listed');
    fs.writeFileSync(path.join(wa, 'src', 'deep', 'two.js'), '2\n');
    await waitFor(() => changes()?.files.some((f) => f.path === 'src/deep/two.js'), 'a later file in that folder listed');
  }, 60_000);
});
