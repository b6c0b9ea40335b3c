/**
 * The mutation sampler's own parts (stryker/sample-lib.mjs): a seed draws the same mutants on every run, --since
 * keeps the mutants on lines a real `git diff` says changed, --mutant is read as written, and the command it
 * prints for a mutant applies that same mutant again. Then the script as a real process: --dry-run twice with one
 * seed lists the same sample; bad input is one line and exit 2.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyExplicit, applyMutant, areaOf, buildsFor, changedLines, draw, isMutable, onChangedLine, parseArgs, parseMutant, reproduce, type StrykerMutant } from '../stryker/sample-lib.mjs';
import { tempDir } from './agent/helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const SCRIPT = path.join(ROOT, 'scripts/mutate-sample.mjs');
const mutant = (id: string, line: number, column: number, endColumn: number, replacement: string, fileName = 'src/x.ts'): StrykerMutant =>
  ({ id, fileName, mutatorName: 'Test', replacement, location: { start: { line, column }, end: { line, column: endColumn } } });

describe('mutate:sample, its pure parts', () => {
  it('a seed draws the same mutants every time, without repeats; another seed draws others', () => {
    const items = Array.from({ length: 200 }, (_, i) => i);
    const a = draw(items, 10, 42);
    expect(draw(items, 10, 42)).toEqual(a);
    // The same on every machine and every day: a sample named in a closing note can be drawn again.
    expect(draw(items, 5, 42)).toEqual([120, 89, 168, 131, 34]);
    expect(new Set(a).size).toBe(10);
    expect(draw(items, 10, 43)).not.toEqual(a);
    expect(draw(items, 500, 1).sort((x, y) => x - y)).toEqual(items);
    expect(items).toEqual(Array.from({ length: 200 }, (_, i) => i)); // the input is left as it was
  });

  it("--since: the new side's changed lines of a real git diff, additions and edits, never a deletion's", () => {
    const t = tempDir('thclaws-sample-diff-');
    try {
      const git = (...a: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...a], { cwd: t.dir, encoding: 'utf8' });
      git('init', '-q', '-b', 'main');
      fs.mkdirSync(path.join(t.dir, 'src'));
      fs.writeFileSync(path.join(t.dir, 'src/a.ts'), ['one', 'two', 'three', 'four', 'five', ''].join('\n'));
      fs.writeFileSync(path.join(t.dir, 'src/gone.ts'), 'x\n');
      git('add', '-A');
      git('commit', '-qm', 'base');
      git('checkout', '-qb', 'change');
      fs.writeFileSync(path.join(t.dir, 'src/a.ts'), ['one', 'TWO', 'three', 'five', 'six', 'seven', ''].join('\n'));
      fs.rmSync(path.join(t.dir, 'src/gone.ts'));
      fs.writeFileSync(path.join(t.dir, 'src/new file.ts'), 'a\nb\n');
      fs.writeFileSync(path.join(t.dir, 'src/q"uote.ts'), 'q\n');
      git('add', '-A');
      git('commit', '-qm', 'change');
      const lines = changedLines(git('diff', '-U0', 'main...', '--', 'src'));
      expect([...lines.keys()].sort()).toEqual(['src/a.ts', 'src/new file.ts', 'src/q"uote.ts']);
      expect([...lines.get('src/a.ts')!].sort()).toEqual([2, 5, 6]); // "four" deleted: nothing to mutate there
      expect([...lines.get('src/new file.ts')!]).toEqual([1, 2]);
      // Stryker's lines are 0-based: a mutant starting on line 2 (1-based) is from the change, one on line 3 is not.
      expect(onChangedLine(mutant('1', 1, 0, 3, 'x'), lines.get('src/a.ts'))).toBe(true);
      expect(onChangedLine(mutant('2', 2, 0, 3, 'x'), lines.get('src/a.ts'))).toBe(false);
      expect(onChangedLine(mutant('3', 1, 0, 3, 'x'), undefined)).toBe(false);
    } finally {
      t.cleanup();
    }
    expect(['src/a.ts', 'src/r/B.tsx', 'src/a.test.ts', 'src/a.d.ts', 'test/a.ts', 'src/a.mjs'].filter(isMutable)).toEqual(['src/a.ts', 'src/r/B.tsx']);
  });

  it("--mutant 'file:line:from=>to' is read as written; bad ones are refused in one line", () => {
    expect(parseMutant('src/core/review/integrate.ts:105:code !== 0=>code')).toEqual({ file: 'src/core/review/integrate.ts', line: 105, from: 'code !== 0', to: 'code' });
    expect(parseMutant("src/a.ts:3:${x}:${y}=>")).toEqual({ file: 'src/a.ts', line: 3, from: '${x}:${y}', to: '' });
    expect(parseMutant('src/a.ts:3:a=>b => c')).toMatchObject({ from: 'a', to: 'b => c' });
    for (const bad of ['src/a.ts:3:no arrow', 'src/a.ts:0:a=>b', 'src/a.ts:x:a=>b', 'src/a.ts:3:=>b', 'src/a.ts']) {
      expect(() => parseMutant(bad), bad).toThrow(/^--mutant takes 'file:line:from=>to'/);
    }
    const text = 'const a = 1;\nif (code !== 0) x(code !== 0);\n';
    expect(applyExplicit(text, parseMutant('f.ts:2:code !== 0=>code')).text).toBe('const a = 1;\nif (code) x(code !== 0);\n');
    expect(() => applyExplicit(text, parseMutant('f.ts:1:code=>x'))).toThrow('f.ts:1 does not contain "code"');
    expect(() => applyExplicit(text, parseMutant('f.ts:9:code=>x'))).toThrow('f.ts:9 does not contain');
  });

  it('the command printed for a mutant applies that same mutant again', () => {
    const text = "const a = 'x';\nif (code !== 0 && b) return 'done';\n";
    const m = mutant('7', 1, 4, 14, 'code === 0');
    const applied = applyMutant(text, m);
    expect(applied.original).toBe('code !== 0');
    const cmd = reproduce(text, m, applied.original);
    expect(cmd).toBe("npm run mutate:sample -- --mutant 'src/x.ts:2:code !== 0=>code === 0'");
    // Through the shell, as a person pastes it: the argument the script would receive.
    const argv = JSON.parse(execFileSync('bash', ['-c', `node -e 'console.log(JSON.stringify(process.argv.slice(1)))' -- ${cmd.split(' -- ')[1]}`], { encoding: 'utf8' }));
    const again = parseArgs(argv);
    expect(applyExplicit(text, again.mutants[0]!).text).toBe(applied.text);
    // Quotes survive the shell too.
    const q = mutant('8', 1, 28, 34, '""');
    const qCmd = reproduce(text, q, applyMutant(text, q).original);
    const qArgv = JSON.parse(execFileSync('bash', ['-c', `node -e 'console.log(JSON.stringify(process.argv.slice(1)))' -- ${qCmd.split(' -- ')[1]}`], { encoding: 'utf8' }));
    expect(applyExplicit(text, parseArgs(qArgv).mutants[0]!).text).toBe(applyMutant(text, q).text);
    // Not the line's first occurrence, or over several lines: by the instrumenter's id instead.
    const twice = 'f(a, a);\n';
    expect(reproduce(twice, mutant('9', 0, 5, 6, 'b'), 'a')).toBe("npm run mutate:sample -- --id 'src/x.ts#9'");
  });

  it('a file is judged by its own area row (the longest prefix), and rebuilt as the tests run it', () => {
    expect(areaOf('src/core/review/integrate.ts')).toMatchObject({ tests: expect.arrayContaining(['test/review/']), e2e: ['e2e/review.spec.ts', 'e2e/review-follow.spec.ts'] });
    expect(areaOf('src/main/host/budget-feed.ts').tests).toContain('test/desktop/budget');
    expect(areaOf('src/main/daemon/host-daemon.ts').tests).toContain('test/desktop/host-daemon');
    expect(areaOf('src/core/new-module.ts').prefix).toBe('src/');
    expect(buildsFor('src/core/review/integrate.ts', true)).toEqual(['build:cli']);
    expect(buildsFor('src/renderer/terminals.ts', true)).toEqual(['build:renderer']);
    expect(buildsFor('src/contract/api.ts', true)).toEqual(['build:cli', 'build:renderer']);
    expect(buildsFor('src/preload/index.ts', true)).toEqual(['build:app']);
  });

  it('every src folder has an area row of its own, naming tests that exist', () => {
    const folders = execFileSync('git', ['ls-files', 'src'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').map((f) => path.dirname(f) + '/');
    const tracked = execFileSync('git', ['ls-files', 'src', 'test', 'e2e'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n');
    for (const dir of new Set(folders)) {
      const area = areaOf(`${dir}x.ts`);
      expect(area.prefix, dir).not.toBe('');
      expect(area.tests.some((t) => tracked.some((f) => f.startsWith(t) && f.endsWith('.test.ts'))) || (area.e2e ?? []).length > 0, dir).toBe(true);
    }
  });
});

describe('mutate:sample as a real process', () => {
  const sample = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });

  it('--dry-run with one seed lists the same mutants twice, each with its tests and the command that applies it', () => {
    const a = sample('--files', 'src/core/review/integrate.ts', '--n', '3', '--seed', '11', '--dry-run');
    expect(a.status).toBe(0);
    expect(a.stdout.split('\n')[0]).toBe('mutate:sample: 3 mutant(s), seed 11');
    expect(a.stdout.match(/^\s+again: npm run mutate:sample -- --(mutant|id) /gm)).toHaveLength(3);
    expect(a.stdout).toContain('tests: test/review/ src/core/review/ + related; e2e: e2e/review.spec.ts e2e/review-follow.spec.ts');
    expect(sample('--files', 'src/core/review/integrate.ts', '--n', '3', '--seed', '11', '--dry-run').stdout).toBe(a.stdout);
  }, 60_000);

  it('--files takes a folder: the draw comes from the sources git tracks under it, never its tests', () => {
    const r = sample('--files', 'src/core/review/', '--n', '8', '--seed', '5', '--dry-run');
    expect(r.status, r.stderr).toBe(0);
    const drawn = [...r.stdout.matchAll(/^\s*\d+ {2}(\S+):\d+ /gm)].map((m) => m[1]!);
    expect(drawn).toHaveLength(8);
    for (const f of drawn) expect(f).toMatch(/^src\/core\/review\/(?!.*\.test\.ts$).*\.ts$/);
    expect(new Set(drawn).size).toBeGreaterThan(1);
  }, 60_000);

  it('bad input: one line on stderr, exit 2, nothing run', () => {
    for (const args of [['--n', '3'], ['--files', 'src/core/review/integrate.ts', '--n', '0'], ['--files', 'test/review/core.test.ts', '--dry-run'], ['--mutant', 'src/a.ts:1:nope']]) {
      const r = sample(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.startsWith('mutate:sample: '), r.stderr).toBe(true);
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
      expect(r.stdout).toBe('');
    }
  }, 60_000);
});
