/** Hostile-review cases of the review core: symlinks out of a worktree, two senders at once, two merges at once. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePatch, newSideText, teammateChanges } from '../../src/core/review/changes.js';
import { integrateAndLand } from '../../src/core/review/integrate.js';
import { markOutdated, resolveComment, sendReview } from '../../src/core/review/review.js';
import { TeamStore } from '../../src/core/store/index.js';
import { ensureWorktree } from '../../src/core/teams/worktree.js';
import { teamWorkspace, type Ws } from '../teams/helpers.js';

const git = (cwd: string, ...a: string[]) => execFileSync('git', a, { cwd, encoding: 'utf8', stdio: 'pipe' });

let ws: Ws;
let store: TeamStore;
let wt: Record<string, string>;

beforeAll(async () => {
  ws = teamWorkspace();
  store = TeamStore.forWorkspace(ws.dir);
  store.init();
  await store.config.create({ name: 't', members: ['a', 'b', 'c'].map((name) => ({ name, isolation: 'worktree' })) });
  wt = {};
  for (const m of ['a', 'b', 'c']) wt[m] = ensureWorktree(ws.dir, m);
});
afterAll(() => ws.cleanup());

describe('a symlink in a teammate worktree', () => {
  it('is reviewed as the link git records, never read through: a secret outside the worktree stays out of the diff and the review', async () => {
    const secret = path.join(ws.home, 'secret.txt');
    fs.writeFileSync(secret, 'TOP-SECRET-LINE\n');
    fs.symlinkSync(secret, path.join(wt.a!, 'leak.txt'));
    const ch = await teammateChanges(ws.dir, 'a');
    const f = ch.files.find((x) => x.path === 'leak.txt')!;
    expect(f).toMatchObject({ source: 'untracked', added: 1 });
    expect(await newSideText(ws.dir, ch, f)).toBe(secret);
    expect(await filePatch(ws.dir, ch, f)).not.toContain('TOP-SECRET');
    const c = await resolveComment(ws.dir, ch, { path: 'leak.txt', line: 1, text: 'why?' });
    expect(c.lines.join('\n')).not.toContain('TOP-SECRET');
  });

  it('pointing at an endless device does not stall the host', async () => {
    fs.symlinkSync('/dev/zero', path.join(wt.c!, 'zero'));
    const ch = await teammateChanges(ws.dir, 'c');
    expect(ch.files.find((x) => x.path === 'zero')).toMatchObject({ source: 'untracked', binary: false, added: 1 });
  }, 10_000);
});

describe('two senders at once', () => {
  it('a pending review is delivered exactly once', async () => {
    await store.reviews.add('b', { path: 'x.txt', line: 1, lines: ['x'], text: 'fix' });
    const rs = await Promise.all([sendReview(store, 'b'), sendReview(store, 'b'), sendReview(store, 'b')]);
    expect(rs.reduce((n, r) => n + r.sent.length, 0)).toBe(1);
    expect(store.inboxes.unread('b')).toHaveLength(1);
  });
});

describe('two merges at once', () => {
  it('the second is refused while the first integrates; the first lands what it checked', async () => {
    fs.writeFileSync(path.join(wt.b!, 'b.txt'), 'b\n');
    git(wt.b!, 'add', 'b.txt');
    git(wt.b!, 'commit', '-qm', 'b');
    const gate = path.join(ws.home, 'gate');
    const started = path.join(ws.home, 'started');
    // b's review (sent above) is still open: landing past it is the person's explicit choice.
    const first = integrateAndLand(store, ws.dir, { agents: ['b'], allowOpenComments: true, checks: [`touch ${started}; while [ ! -e ${gate} ]; do sleep 0.02; done; test -f b.txt`] });
    while (!fs.existsSync(started)) await new Promise((r) => setTimeout(r, 20));
    const second = await integrateAndLand(store, ws.dir, { agents: ['b'], allowOpenComments: true, checks: ['true'] }).catch((e: Error) => e);
    fs.writeFileSync(gate, '');
    const r1 = await first;
    expect(second).toBeInstanceOf(Error);
    expect(String(second)).toMatch(/already running/);
    expect(r1).toMatchObject({ landed: true, merged: ['b'] });
    expect(fs.readFileSync(path.join(ws.dir, 'b.txt'), 'utf8')).toBe('b\n');
  }, 20_000);
});

describe('comment ranges', () => {
  it('a range whose end leaves the changed lines is refused, nothing written', async () => {
    fs.writeFileSync(path.join(wt.c!, 'r.txt'), 'one\ntwo\n');
    git(wt.c!, 'add', 'r.txt');
    git(wt.c!, 'commit', '-qm', 'r');
    const ch = await teammateChanges(ws.dir, 'c');
    await expect(resolveComment(ws.dir, ch, { path: 'r.txt', line: 1, end_line: 99_999_999, text: 'x' })).rejects.toThrow(/not in the lines c changed/);
  });

  it('a comment on a very long line (minified code) or a long range is kept, its quoted lines cut to what the store holds', async () => {
    const long = `${'x'.repeat(5000)}\n`;
    fs.writeFileSync(path.join(wt.c!, 'min.js'), long + Array.from({ length: 300 }, (_, i) => `l${i}`).join('\n'));
    git(wt.c!, 'add', 'min.js');
    git(wt.c!, 'commit', '-qm', 'min');
    const ch = await teammateChanges(ws.dir, 'c');
    const c = await resolveComment(ws.dir, ch, { path: 'min.js', line: 1, end_line: 301, text: 'unminify' });
    const stored = await store.reviews.add('c', c);
    expect(stored.lines[0]!.startsWith('xxx')).toBe(true);
    expect(stored.end_line).toBe(301);
    expect(await markOutdated(store, ws.dir, ch)).toEqual([]);
  });
});

describe('outdated marking against the person', () => {
  it('a comment the person resolves while the host re-reads the diff stays resolved', async () => {
    fs.writeFileSync(path.join(wt.b!, 'o.txt'), 'first\n');
    const ch0 = await teammateChanges(ws.dir, 'b');
    const c = await store.reviews.add('b', await resolveComment(ws.dir, ch0, { path: 'o.txt', line: 1, text: 'rename' }));
    fs.writeFileSync(path.join(wt.b!, 'o.txt'), 'changed\n');
    const ch = await teammateChanges(ws.dir, 'b');
    // The person's "resolve" lands after the host read the comments and before it writes "outdated".
    const reviews = store.reviews;
    const list = reviews.list.bind(reviews);
    reviews.list = async (agent: string) => {
      const read = await list(agent);
      await reviews.setState(agent, [c.id], 'resolved');
      return read;
    };
    try {
      await markOutdated(store, ws.dir, ch);
    } finally {
      reviews.list = list;
    }
    expect((await store.reviews.list('b')).find((x) => x.id === c.id)!.state).toBe('resolved');
  });
});
