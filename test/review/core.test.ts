/** The review core against real git repositories: changes, snapshots, warnings, comments, dry run, integration. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { teammateChanges, filePatch, HUGE_FILE_BYTES } from '../../src/core/review/changes.js';
import { ConflictScanner, scanConflicts } from '../../src/core/review/conflicts.js';
import { snapshotWorktree } from '../../src/core/review/snapshot.js';
import { predictMerges, mergeRefusals } from '../../src/core/review/merge-plan.js';
import { integrateAndLand } from '../../src/core/review/integrate.js';
import { abortMerge, conflictSides, leaveConflicted } from '../../src/core/review/leave-conflicted.js';
import { markOutdated, reviewAndSend } from '../../src/core/review/review.js';
import { TeamStore } from '../../src/core/store/index.js';
import { ensureWorktree } from '../../src/core/teams/worktree.js';
import { teamWorkspace, type Ws } from '../teams/helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const git = (cwd: string, ...a: string[]) => execFileSync('git', a, { cwd, encoding: 'utf8', stdio: 'pipe' });
const FN = ['function total(items) {', '  let sum = 0;', '  for (const i of items) sum += i.price;', '  return sum;', '}', '', ...Array.from({ length: 20 }, (_, i) => `// filler ${i}`), '', 'function tax(x) {', '  return x * 0.2;', '}', ''].join('\n');

async function setup(members = ['a', 'b']): Promise<{ ws: Ws; store: TeamStore; wt: Record<string, string> }> {
  const ws = teamWorkspace();
  cleanups.push(ws.cleanup);
  fs.writeFileSync(path.join(ws.dir, 'calc.js'), FN);
  git(ws.dir, 'add', '-A');
  git(ws.dir, 'commit', '-qm', 'calc');
  const store = TeamStore.forWorkspace(ws.dir);
  store.init();
  await store.config.create({ name: 't', members: members.map((name) => ({ name, isolation: 'worktree' })) });
  const wt: Record<string, string> = {};
  for (const m of members) wt[m] = ensureWorktree(ws.dir, m);
  return { ws, store, wt };
}

function edit(dir: string, file: string, from: string, to: string): void {
  const p = path.join(dir, file);
  fs.writeFileSync(p, fs.readFileSync(p, 'utf8').replace(from, to));
}

function commitAll(dir: string, msg: string): void {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', msg);
}

describe('teammate changes', () => {
  it('lists committed, staged, unstaged and untracked files with status and counts; odd paths stay whole', async () => {
    const { ws, wt } = await setup(['a']);
    const odd = 'dir with space/quo"te\nnew line é.txt';
    fs.mkdirSync(path.join(wt.a!, 'dir with space'));
    fs.writeFileSync(path.join(wt.a!, 'committed.txt'), 'one\ntwo\n');
    commitAll(wt.a!, 'a: committed');
    fs.writeFileSync(path.join(wt.a!, 'staged.txt'), 's\n');
    git(wt.a!, 'add', 'staged.txt');
    edit(wt.a!, 'calc.js', 'return sum;', 'return sum + 1;');
    fs.writeFileSync(path.join(wt.a!, odd), 'x\ny\nz\n');
    fs.writeFileSync(path.join(wt.a!, 'blob.bin'), Buffer.from([0, 1, 2, 3, 0, 255]));
    fs.writeFileSync(path.join(wt.a!, 'ignored.log'), 'no');
    fs.writeFileSync(path.join(wt.a!, '.gitignore'), '*.log\n');
    const ch = await teammateChanges(ws.dir, 'a');
    const by = (p: string) => ch.files.find((f) => f.path === p);
    expect(ch.ahead).toBe(1);
    expect(by('committed.txt')).toMatchObject({ source: 'committed', status: 'added', added: 2, deleted: 0 });
    expect(by('staged.txt')).toMatchObject({ source: 'staged', status: 'added', added: 1 });
    expect(by('calc.js')).toMatchObject({ source: 'unstaged', status: 'modified', added: 1, deleted: 1 });
    expect(by(odd)).toMatchObject({ source: 'untracked', added: 3 });
    expect(by('blob.bin')).toMatchObject({ source: 'untracked', binary: true });
    expect(by('ignored.log')).toBeUndefined();
    const patch = await filePatch(ws.dir, ch, by(odd)!);
    expect(patch).toContain('+z');
  });

  it('a huge file is listed as huge and never diffed, committed or not', async () => {
    const { ws, wt } = await setup(['a']);
    const big = Buffer.alloc(HUGE_FILE_BYTES + 1024, 'abcdefgh\n');
    fs.writeFileSync(path.join(wt.a!, 'big.txt'), big);
    commitAll(wt.a!, 'big');
    fs.writeFileSync(path.join(wt.a!, 'big2.txt'), big);
    const ch = await teammateChanges(ws.dir, 'a');
    expect(ch.files.find((f) => f.path === 'big.txt')).toMatchObject({ huge: true, source: 'committed', size: big.length });
    expect(ch.files.find((f) => f.path === 'big2.txt')).toMatchObject({ huge: true, source: 'untracked' });
    expect(await filePatch(ws.dir, ch, ch.files.find((f) => f.path === 'big.txt')!)).toBeNull();
    const snap = await snapshotWorktree(wt.a!);
    expect(git(ws.dir, 'ls-tree', '--name-only', snap.commit)).not.toContain('big2.txt');
  });
});

describe('snapshots and warnings', () => {
  it('snapshots uncommitted work without touching the worktree index', async () => {
    const { wt } = await setup(['a']);
    edit(wt.a!, 'calc.js', 'return sum;', 'return sum * 2;');
    const indexFile = path.join(git(wt.a!, 'rev-parse', '--absolute-git-dir').trim(), 'index');
    const before = fs.readFileSync(indexFile);
    const s1 = await snapshotWorktree(wt.a!);
    expect(s1.dirty).toBe(true);
    expect(git(wt.a!, 'show', `${s1.commit}:calc.js`)).toContain('return sum * 2;');
    expect(fs.readFileSync(indexFile).equals(before)).toBe(true);
    expect(git(wt.a!, 'status', '--porcelain')).toBe(' M calc.js\n');
    expect((await snapshotWorktree(wt.a!)).commit).toBe(s1.commit);
  });

  it('two teammates editing one function: conflict with its lines; disjoint hunks in one file: overlap only', async () => {
    const { ws, wt } = await setup(['a', 'b', 'c']);
    edit(wt.a!, 'calc.js', '  return sum;', '  return Math.round(sum);');
    edit(wt.b!, 'calc.js', '  return sum;', '  return sum.toFixed(2);');
    edit(wt.c!, 'calc.js', '  return x * 0.2;', '  return x * 0.25;');
    const scanner = new ConflictScanner(ws.dir);
    cleanups.push(() => scanner.dispose());
    const warnings = await scanner.scan(['a', 'b', 'c']);
    const ab = warnings.find((w) => w.agents.join() === 'a,b');
    expect(ab).toMatchObject({ kind: 'conflict', files: [{ path: 'calc.js', conflict: true, lines: [{ start: 4, end: 4 }] }] });
    expect(warnings.find((w) => w.agents.join() === 'a,c')).toMatchObject({ kind: 'overlap', files: [{ path: 'calc.js', conflict: false }] });
    expect(warnings.find((w) => w.agents.join() === 'b,c')?.kind).toBe('overlap');
    expect(warnings.filter((w) => w.kind === 'conflict')).toHaveLength(1);
    // b reverts: the conflict goes away on the next scan of b alone, which reads b's worktree and no other.
    git(wt.b!, 'checkout', '--', 'calc.js');
    const read = scanner.stats.snapshots;
    expect((await scanner.scan(['a', 'b', 'c'], ['b'])).map((w) => `${w.kind}:${w.agents.join()}`)).toEqual(['overlap:a,c']);
    expect(scanner.stats.snapshots - read).toBe(1);
  });
});

describe('warnings after one write', () => {
  it('merged file by file from the last result, they match a whole merge: conflict, disjoint hunks overlap, revert, new file', async () => {
    const { ws, wt } = await setup(['a', 'b']);
    edit(wt.a!, 'calc.js', '  return sum;', '  return Math.round(sum);');
    const scanner = new ConflictScanner(ws.dir);
    cleanups.push(() => scanner.dispose());
    const summary = (w: Awaited<ReturnType<ConflictScanner['scan']>>) => w.map((x) => `${x.kind}:${x.files.map((f) => `${f.path}${f.conflict ? '!' : ''}${f.lines.map((l) => `@${l.start}-${l.end}`).join('')}`).join(',')}`);
    const step = async (hinted: string[]) => {
      const got = summary(await scanner.scan(['a', 'b'], ['b'], { hints: new Map([['b', hinted]]) }));
      const fresh = new ConflictScanner(ws.dir);
      try {
        expect(got).toEqual(summary(await fresh.scan(['a', 'b'])));
      } finally {
        fresh.dispose();
      }
      return got;
    };
    expect(summary(await scanner.scan(['a', 'b']))).toEqual([]);
    edit(wt.b!, 'calc.js', '  return x * 0.2;', '  return x * 0.25;');
    expect(await step(['calc.js'])).toEqual(['overlap:calc.js']);
    edit(wt.b!, 'calc.js', '  return sum;', '  return sum.toFixed(2);');
    expect(await step(['calc.js'])).toEqual(['conflict:calc.js!@4-4']);
    fs.writeFileSync(path.join(wt.b!, 'new.js'), 'export const n = 1;\n');
    expect(await step(['new.js'])).toEqual(['conflict:calc.js!@4-4']);
    git(wt.b!, 'checkout', '--', 'calc.js');
    expect(await step(['calc.js'])).toEqual([]);
    expect(scanner.stats.delta_merges).toBeGreaterThanOrEqual(2);
    expect(scanner.stats.merges).toBe(1);
  });
});

describe('odd paths in warnings', () => {
  it('a conflict in a file whose name holds spaces, quotes, a newline and unicode keeps its name and lines', async () => {
    const { ws, wt } = await setup(['a', 'b']);
    const odd = 'sp ace/q"uote\nnew é.js';
    for (const [who, v] of [['a', 'A'], ['b', 'B']] as const) {
      fs.mkdirSync(path.join(wt[who]!, 'sp ace'), { recursive: true });
      fs.writeFileSync(path.join(wt[who]!, odd), `one\ntwo ${v}\nthree\n`);
    }
    const [w] = await scanConflicts(ws.dir, ['a', 'b']);
    expect(w).toMatchObject({ kind: 'conflict', files: [{ path: odd, conflict: true, lines: [{ start: 1, end: 1 }] }] });
  });
});

describe('review comments', () => {
  it('a comment is checked against the diff, stored, sent as one message, and outdated when its lines change', async () => {
    const { ws, store, wt } = await setup(['a']);
    edit(wt.a!, 'calc.js', '  return sum;', '  return sum + 1;');
    await expect(reviewAndSend(store, ws.dir, 'a', [{ path: 'calc.js', line: 4, text: 'why +1?' }, { path: 'nope.js', line: 1, text: 'x' }])).rejects.toThrow(/"nope.js" is not in a's changes/);
    await expect(reviewAndSend(store, ws.dir, 'a', [{ path: 'calc.js', line: 25, text: 'far away' }])).rejects.toThrow(/calc.js":25 is not in the lines a changed/);
    await expect(reviewAndSend(store, ws.dir, 'zed', [{ path: 'calc.js', line: 4, text: 'x' }])).rejects.toThrow(/unknown teammate "zed"/);
    expect(await store.reviews.list('a')).toEqual([]);
    expect(store.inboxes.unread('a')).toHaveLength(0);
    const r = await reviewAndSend(store, ws.dir, 'a', [{ path: 'calc.js', line: 4, text: 'why +1?' }]);
    expect(r.message).toContain('calc.js:4\n    >   return sum + 1;\n  why +1?');
    const inbox = store.inboxes.unread('a');
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({ from: 'user', text: r.message });
    expect((await store.reviews.list('a'))[0]).toMatchObject({ state: 'sent', path: 'calc.js', line: 4 });
    edit(wt.a!, 'calc.js', '  return sum + 1;', '  return sum + 2;');
    expect(await markOutdated(store, ws.dir, await teammateChanges(ws.dir, 'a'))).toHaveLength(1);
    expect((await store.reviews.list('a'))[0]!.state).toBe('outdated');
  });

  it("a comment on a staged change quotes the teammate's staged line, not the lead's version of the file", async () => {
    const { ws, store, wt } = await setup(['a']);
    edit(wt.a!, 'calc.js', '  return sum;', '  return sum * 3;');
    git(wt.a!, 'add', 'calc.js');
    const r = await reviewAndSend(store, ws.dir, 'a', [{ path: 'calc.js', line: 4, text: 'why * 3?' }]);
    expect(r.message).toContain('calc.js:4\n    >   return sum * 3;\n  why * 3?');
    expect((await store.reviews.list('a'))[0]).toMatchObject({ path: 'calc.js', line: 4, lines: ['  return sum * 3;'] });
  });

  it('"request changes" sends the review and reopens the teammate\'s last completed task with it as the description', async () => {
    const { ws, store, wt } = await setup(['a']);
    const task = await store.tasks.create({ subject: 'sum the prices', description: 'write total()', reservedFor: 'a' });
    await store.tasks.claim(task.id, 'a');
    await store.tasks.complete(task.id, 'a', 'done');
    edit(wt.a!, 'calc.js', '  return sum;', '  return sum + 1;');
    const r = await reviewAndSend(store, ws.dir, 'a', [{ path: 'calc.js', line: 4, text: 'no +1 please' }], { requestChanges: true });
    expect(r.reopened).toBe(task.id);
    const t = await store.tasks.get(task.id);
    expect(t).toMatchObject({ status: 'pending', owner: null, reserved_for: 'a', completed_at: null });
    expect(t.description).toContain('calc.js:4\n    >   return sum + 1;\n  no +1 please');
    expect(t.description).toContain('write total()');
    expect(store.inboxes.unread('a')[0]!.text).toBe(r.message);
    // A plain "Send review" reopens nothing.
    await store.tasks.claim(task.id, 'a');
    await store.tasks.complete(task.id, 'a', 'again');
    const plain = await reviewAndSend(store, ws.dir, 'a', [{ path: 'calc.js', line: 4, text: 'fine now' }]);
    expect(plain.reopened).toBeNull();
    expect((await store.tasks.get(task.id)).status).toBe('completed');
  });

  it('a corrupt review file is quarantined, not overwritten', async () => {
    const { store } = await setup(['a']);
    fs.mkdirSync(store.paths.agentDir('a'), { recursive: true });
    fs.writeFileSync(store.reviews.file('a'), '{not json');
    expect(await store.reviews.list('a')).toEqual([]);
    expect(fs.readdirSync(store.paths.agentDir('a')).some((n) => n.startsWith('review.json.corrupt-'))).toBe(true);
  });
});

describe('merge panel', () => {
  it('the dry run predicts, in order, the conflict the real merge then hits', async () => {
    const { ws, store, wt } = await setup(['a', 'b', 'c']);
    edit(wt.a!, 'calc.js', '  return sum;', '  return Math.round(sum);');
    commitAll(wt.a!, 'a');
    edit(wt.b!, 'calc.js', '  return sum;', '  return sum.toFixed(2);');
    commitAll(wt.b!, 'b');
    fs.writeFileSync(path.join(wt.c!, 'c file.txt'), 'c\n');
    commitAll(wt.c!, 'c');
    const head = git(ws.dir, 'rev-parse', 'HEAD');
    const p = await predictMerges(ws.dir, ['a', 'b', 'c']);
    expect(p.results.map((r) => `${r.agent}:${r.result}`)).toEqual(['a:clean', 'b:conflict', 'c:clean']);
    expect(p.results[1]!.conflicts).toEqual(['calc.js']);
    expect(git(ws.dir, 'rev-parse', 'HEAD')).toBe(head);
    const r = await integrateAndLand(store, ws.dir, { agents: ['a', 'b', 'c'], checks: [] });
    expect(r.conflicted).toEqual([{ agent: 'b', files: ['calc.js'] }]);
    expect(r.merged).toEqual(['a', 'c']);
    expect(r.landed).toBe(true);
    expect(fs.readFileSync(path.join(ws.dir, 'c file.txt'), 'utf8')).toBe('c\n');
    expect(git(ws.dir, 'status', '--porcelain')).toBe('');
  });

  it('a failing check lands nothing and says which check and where; a passing one lands', async () => {
    const { ws, store, wt } = await setup(['a']);
    fs.writeFileSync(path.join(wt.a!, 'ok.txt'), 'ok\n');
    commitAll(wt.a!, 'a');
    const head = git(ws.dir, 'rev-parse', 'HEAD');
    let out = '';
    const red = await integrateAndLand(store, ws.dir, { agents: ['a'], checks: ['test -f ok.txt && echo first-ok', 'echo boom >&2; exit 3'], onOutput: (s) => (out += s) });
    expect(red.landed).toBe(false);
    expect(red.failed).toMatchObject({ command: 'echo boom >&2; exit 3', code: 3 });
    expect(out).toContain('first-ok');
    expect(out).toContain('boom');
    expect(git(ws.dir, 'rev-parse', 'HEAD')).toBe(head);
    expect(fs.existsSync(path.join(ws.dir, 'ok.txt'))).toBe(false);
    // What the wrapper says (sandboxed or not) is printed before the first command's line, not after it.
    let said = '';
    const wrap = async (command: string) => {
      said += 'SANDBOX-NOTE\n';
      return command;
    };
    const green = await integrateAndLand(store, ws.dir, { agents: ['a'], checks: ['test -f ok.txt'], onOutput: (s) => (said += s), wrap });
    expect(said).toMatch(/^SANDBOX-NOTE\n\$ test -f ok\.txt\n/);
    expect(green.landed).toBe(true);
    expect(fs.existsSync(path.join(ws.dir, 'ok.txt'))).toBe(true);
  });

  it('refuses, changing nothing: a dirty lead checkout (listed), uncommitted teammate work, a working teammate', async () => {
    const { ws, store, wt } = await setup(['a']);
    fs.writeFileSync(path.join(wt.a!, 'x.txt'), 'x\n');
    commitAll(wt.a!, 'a');
    fs.writeFileSync(path.join(wt.a!, 'left out.txt'), 'y\n');
    fs.writeFileSync(path.join(ws.dir, 'dirty lead.txt'), 'd\n');
    await store.statuses.write('a', { status: 'working', pid: process.pid });
    const head = git(ws.dir, 'rev-parse', 'HEAD');
    const r = await integrateAndLand(store, ws.dir, { agents: ['a'], checks: [] });
    expect(r.landed).toBe(false);
    const reasons = r.refusals.map((x) => x.reason).join('\n');
    expect(reasons).toContain('uncommitted changes (commit or stash them first): "dirty lead.txt"');
    expect(reasons).toContain('a is working on team/a right now');
    expect(reasons).toContain('"left out.txt"');
    expect(git(ws.dir, 'rev-parse', 'HEAD')).toBe(head);
    expect(fs.existsSync(path.join(ws.dir, '.worktrees', '.integration'))).toBe(false);
    fs.rmSync(path.join(ws.dir, 'dirty lead.txt'));
    const w = await mergeRefusals(store, ws.dir, ['a'], { allowLive: true, allowUncommitted: true });
    expect(w.refusals).toEqual([]);
    expect(w.warnings[0]!.reason).toContain('"left out.txt"');
  });

  it('leave_conflicted: the conflicted file with both sides in the lead\'s checkout; abort restores it', async () => {
    const { ws, wt } = await setup(['a', 'b']);
    fs.renameSync(path.join(ws.dir, 'calc.js'), path.join(ws.dir, 'my calc.js'));
    commitAll(ws.dir, 'rename');
    git(wt.a!, 'merge', '-q', '--ff-only', git(ws.dir, 'rev-parse', 'HEAD').trim()); // a starts from the renamed file
    edit(wt.a!, 'my calc.js', '  return sum;', '  return Math.round(sum);');
    commitAll(wt.a!, 'a rounds');
    fs.writeFileSync(path.join(wt.b!, 'b.txt'), 'b\n');
    commitAll(wt.b!, 'b clean');
    edit(ws.dir, 'my calc.js', '  return sum;', '  return sum.toFixed(2);');
    commitAll(ws.dir, 'lead fixes');
    const head = git(ws.dir, 'rev-parse', 'HEAD');
    await expect(leaveConflicted(ws.dir, 'b')).rejects.toThrow('merges cleanly');
    fs.writeFileSync(path.join(ws.dir, 'stray.txt'), 's\n');
    await expect(leaveConflicted(ws.dir, 'a')).rejects.toThrow('"stray.txt"');
    expect(await conflictSides(ws.dir)).toBeNull();
    fs.rmSync(path.join(ws.dir, 'stray.txt'));
    const left = await leaveConflicted(ws.dir, 'a');
    expect(left.agent).toBe('a');
    expect(left.files.map((f) => f.path)).toEqual(['my calc.js']);
    const f = left.files[0]!;
    expect(f.patch).toContain('-  return sum.toFixed(2);');
    expect(f.patch).toContain('+  return Math.round(sum);');
    expect(f.marked).toMatch(/<<<<<<< HEAD\n  return sum\.toFixed\(2\);\n=======\n  return Math\.round\(sum\);\n>>>>>>> /);
    expect((await conflictSides(ws.dir))?.files.map((x) => x.path)).toEqual(['my calc.js']);
    await expect(leaveConflicted(ws.dir, 'a')).rejects.toThrow('already in progress');
    expect(await abortMerge(ws.dir)).toEqual({ aborted: true, saved: null, kept: [] });
    expect(git(ws.dir, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(ws.dir, 'status', '--porcelain')).toBe('');
    expect(fs.readFileSync(path.join(ws.dir, 'my calc.js'), 'utf8')).toContain('return sum.toFixed(2);');
    expect(await abortMerge(ws.dir)).toEqual({ aborted: false, saved: null, kept: [] });
  });
});
