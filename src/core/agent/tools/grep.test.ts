import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/agent/helpers.js';
import { SessionPermissionChecker } from '../permissions.js';
import { runToolCall } from '../tool-run.js';
import type { ToolContext } from '../types.js';
import { findRipgrep, useRipgrep } from './grep.js';
import { builtinTools } from './index.js';

const tools = builtinTools();
const rg = findRipgrep();

describe.each([
  ['ripgrep', rg],
  ['JS fallback', null],
])('Grep (%s)', (engine, rgPath) => {
  let root: string;
  let cleanup: () => void;
  let ctx: ToolContext;
  const grep = (input: Record<string, unknown>, over: Partial<ToolContext> = {}) =>
    runToolCall({ type: 'tool_use', id: 'g', name: 'Grep', input }, tools, { ...ctx, ...over });

  beforeEach(() => {
    if (engine === 'ripgrep' && !rgPath) throw new Error('rg is not on PATH: install ripgrep (.ci/run does)');
    useRipgrep(rgPath);
    ({ dir: root, cleanup } = tempDir());
    ctx = { cwd: root, projectRoot: root, role: 'solo', signal: new AbortController().signal, permissions: new SessionPermissionChecker('auto', { decide: async () => 'deny' }) };
    mkdirSync(path.join(root, 'src/deep'), { recursive: true });
    writeFileSync(path.join(root, 'src/a.ts'), 'one\nTODO first\nthree\nfour\nTODO second\n');
    writeFileSync(path.join(root, 'src/deep/b.ts'), 'todo lower\n');
    writeFileSync(path.join(root, 'notes.md'), 'TODO in markdown\n');
  });
  afterEach(() => cleanup());
  afterAll(() => useRipgrep(undefined));

  it('output modes: files_with_matches (default), content, count; sorted by path', async () => {
    expect((await grep({ pattern: 'TODO' })).content).toBe('notes.md\nsrc/a.ts');
    expect((await grep({ pattern: 'TODO', output_mode: 'content' })).content).toBe('notes.md:1:TODO in markdown\nsrc/a.ts:2:TODO first\nsrc/a.ts:5:TODO second');
    expect((await grep({ pattern: 'TODO', output_mode: 'count' })).content).toBe('notes.md:1\nsrc/a.ts:2');
    expect((await grep({ pattern: 'todo', '-i': true, glob: '*.ts' })).content).toBe('src/a.ts\nsrc/deep/b.ts');
    expect((await grep({ pattern: 'nothing-like-this' })).content).toBe('no matches');
  });

  it('context lines and head_limit', async () => {
    expect((await grep({ pattern: 'first', path: 'src', output_mode: 'content', '-A': 1, '-B': 1 })).content).toBe('a.ts-1-one\na.ts:2:TODO first\na.ts-3-three');
    expect((await grep({ pattern: 'second', path: 'src/a.ts', output_mode: 'content', '-C': 1 })).content).toBe('a.ts-4-four\na.ts:5:TODO second');
    expect((await grep({ pattern: 'TODO', output_mode: 'content', head_limit: 2 })).content).toBe(
      'notes.md:1:TODO in markdown\nsrc/a.ts:2:TODO first\n[1 more lines not shown; narrow the pattern or path, or raise head_limit]',
    );
  });

  it('multiline patterns span lines', async () => {
    expect((await grep({ pattern: 'first.three', multiline: true, output_mode: 'content' })).content).toBe('src/a.ts:2:TODO first\nsrc/a.ts:3:three');
    expect((await grep({ pattern: 'first.three' })).content).toBe('no matches');
  });

  it('honours .gitignore (rg), never searches .thclaws/, skips node_modules and files linked from outside', async () => {
    mkdirSync(path.join(root, '.thclaws/sessions'), { recursive: true });
    writeFileSync(path.join(root, '.thclaws/sessions/s.jsonl'), '{"TODO":1}\n');
    mkdirSync(path.join(root, 'node_modules/x'), { recursive: true });
    writeFileSync(path.join(root, 'node_modules/x/i.js'), 'TODO\n');
    const out = tempDir();
    try {
      writeFileSync(path.join(out.dir, 'secret.txt'), 'TODO secret\n');
      symlinkSync(path.join(out.dir, 'secret.txt'), path.join(root, 'link.txt'));
      expect((await grep({ pattern: 'TODO' })).content).toBe('notes.md\nsrc/a.ts');
      expect((await grep({ pattern: 'TODO', path: '.thclaws' })).content).toMatch(/does not search \.thclaws/);
      if (engine === 'ripgrep') {
        writeFileSync(path.join(root, '.gitignore'), 'notes.md\n');
        expect((await grep({ pattern: 'TODO' })).content).toBe('src/a.ts');
      }
    } finally {
      out.cleanup();
    }
  });

  it('a bad pattern is one readable error', async () => {
    const r = await grep({ pattern: '(' });
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/^invalid (regular expression|search)/);
  });

  it('Ctrl-C ends a search at once: rg blocked on a FIFO is killed; the JS walk skips what is not a regular file', async () => {
    execFileSync('mkfifo', [path.join(root, 'src/fifo')]);
    const ac = new AbortController();
    const p = grep({ pattern: 'x', path: 'src/fifo' }, { signal: ac.signal });
    // Only rg is aborted: the JS search must finish on its own (it would hang if it read the FIFO); an abort
    // racing it on a loaded machine made the answer "search aborted" instead of its result.
    if (engine === 'ripgrep') setTimeout(() => ac.abort(), 300);
    const r = await p;
    expect(r.content).toBe(engine === 'ripgrep' ? 'search aborted' : 'no matches');
  });


  it('Ctrl-C ends a catastrophic pattern (the JS fallback terminates its worker; rg has no backtracking)', async () => {
    writeFileSync(path.join(root, 'evil.txt'), `${'a'.repeat(40)}!\n`);
    const ac = new AbortController();
    const p = grep({ pattern: '^(a+)+$', path: 'evil.txt', output_mode: 'content' }, { signal: ac.signal });
    setTimeout(() => ac.abort(), 300);
    const r = await p;
    expect(r.content).toMatch(engine === 'ripgrep' ? /^(no matches|search aborted)$/ : /^search aborted$/);
  }, 15_000);

});
