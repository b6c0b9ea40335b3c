import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/agent/helpers.js';
import { includedFiles, reuseDependencies } from './worktree-copy.js';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A lead's checkout and a worktree beside it, each with `files`. */
function pair(lead: Record<string, string>, wt: Record<string, string>) {
  const t = tempDir('thclaws-wtcopy-');
  cleanups.push(t.cleanup);
  const dirs = { root: path.join(t.dir, 'lead'), wt: path.join(t.dir, 'wt') };
  for (const [dir, files] of [[dirs.root, lead], [dirs.wt, wt]] as const) {
    for (const [f, body] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      fs.writeFileSync(path.join(dir, f), body);
    }
  }
  fs.mkdirSync(dirs.wt, { recursive: true });
  return dirs;
}

describe('reuseDependencies', () => {
  it("each folder is cloned on its own ecosystem's lockfile: .venv on poetry.lock, vendor/bundle on Gemfile.lock, target on Cargo.lock", async () => {
    const locks = { 'poetry.lock': 'p1', 'Gemfile.lock': 'g1', 'Cargo.lock': 'c1' };
    const { root, wt } = pair({ ...locks, '.venv/lib/x.py': 'x', 'vendor/bundle/gems/a.rb': 'a', 'target/debug/app': 'bin' }, locks);
    const res = await reuseDependencies(root, wt, ['.venv', 'vendor/bundle', 'target', 'node_modules']);
    expect(res.map((r) => [r.dir, r.how ?? r.skipped])).toEqual([
      ['.venv', expect.stringMatching(/^(reflink|hard links)$/)],
      ['vendor/bundle', expect.stringMatching(/^(reflink|hard links)$/)],
      ['target', expect.stringMatching(/^(reflink|hard links)$/)],
    ]);
    expect(fs.readFileSync(path.join(wt, 'vendor/bundle/gems/a.rb'), 'utf8')).toBe('a');
    expect(fs.lstatSync(path.join(wt, '.venv')).isSymbolicLink()).toBe(false);
  });

  it('a lockfile that differs, is missing from the worktree, or none at all: not reused, and why', async () => {
    const { root, wt } = pair({ 'poetry.lock': 'p1', 'Gemfile.lock': 'g1', '.venv/x': 'x', 'vendor/bundle/a': 'a', 'target/b': 'b' }, { 'poetry.lock': 'p2' });
    const res = await reuseDependencies(root, wt, ['.venv', 'vendor/bundle', 'target']);
    expect(res.map((r) => [r.dir, r.skipped])).toEqual([
      ['.venv', "poetry.lock differs from the lead's"],
      ['vendor/bundle', 'Gemfile.lock is not in the worktree (not committed?)'],
      ['target', 'no lockfile to compare'],
    ]);
    expect(fs.existsSync(path.join(wt, '.venv'))).toBe(false);
  });
});

describe('reuseDependencies across filesystems', () => {
  it('neither a clone nor a hard link can cross devices: not reused, said why, nothing half-made left', async (ctx) => {
    const t = tempDir('thclaws-wtcopy-x-');
    cleanups.push(t.cleanup);
    const shm = fs.mkdtempSync('/dev/shm/thclaws-wtcopy-');
    cleanups.push(() => fs.rmSync(shm, { recursive: true, force: true }));
    if (fs.statSync(shm).dev === fs.statSync(t.dir).dev) ctx.skip();
    const root = shm;
    for (const [f, body] of Object.entries({ 'package-lock.json': '{}', 'node_modules/a/index.js': 'a', 'node_modules/b/index.js': 'b' })) {
      fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
      fs.writeFileSync(path.join(root, f), body);
    }
    fs.writeFileSync(path.join(t.dir, 'package-lock.json'), '{}');
    const [r] = await reuseDependencies(root, t.dir, ['node_modules']);
    expect(r?.skipped).toMatch(/^could not clone: cp: cannot create hard link/);
    expect(fs.existsSync(path.join(t.dir, 'node_modules'))).toBe(false);
  });
});

describe('includedFiles', () => {
  it('no .worktreeinclude: nothing; with one: the untracked files git matches, never the team\'s own paths', async () => {
    const { root } = pair({ '.env': 'a', '.thclaws/x.env': 'b', 'src/app.env': 'c' }, {});
    execFileSync('git', ['init', '-q'], { cwd: root });
    expect(await includedFiles(root)).toEqual([]);
    fs.writeFileSync(path.join(root, '.worktreeinclude'), '*.env\n.env\n');
    expect((await includedFiles(root)).sort()).toEqual(['.env', 'src/app.env']);
  });
});
