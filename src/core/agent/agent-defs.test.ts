import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/agent/helpers.js';
import { agentsDir, findAgentDef, loadAgentDefs, parseAgentDef } from './agent-defs.js';

describe('agent definitions', () => {
  let root: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir: root, cleanup } = tempDir()));
  afterEach(() => cleanup());

  it('parses front-matter and body', () => {
    const def = parseAgentDef(
      '---\nname: reviewer\ndescription: Reviews diffs\nmodel: claude-haiku-4-5\ntools: Read, Grep\nisolation: worktree\nextra: kept\n---\nYou review code.\n',
      '/x/reviewer.md',
    );
    expect(def).toEqual({
      name: 'reviewer',
      description: 'Reviews diffs',
      model: 'claude-haiku-4-5',
      tools: ['Read', 'Grep'],
      isolation: 'worktree',
      instructions: 'You review code.',
      file: '/x/reviewer.md',
    });
  });

  it('defaults the name to the file name; no front-matter = all body', () => {
    const def = parseAgentDef('Just instructions.', '/x/helper.md');
    expect(def).toMatchObject({ name: 'helper', isolation: 'none', instructions: 'Just instructions.' });
    expect(def.tools).toBeUndefined();
  });

  it('loads a directory, reporting broken files without losing the others', () => {
    const dir = agentsDir(root);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'a.md'), '---\ntools: [Read, Bash]\n---\nA');
    writeFileSync(path.join(dir, 'b.md'), '---\nisolation: sideways\n---\nB');
    writeFileSync(path.join(dir, 'c.md'), '---\nname: [unclosed\n---\nC');
    writeFileSync(path.join(dir, 'notes.txt'), 'ignored');
    const { defs, errors } = loadAgentDefs(dir);
    expect(defs.map((d) => d.name)).toEqual(['a']);
    expect(defs[0]!.tools).toEqual(['Read', 'Bash']);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/b\.md: key "isolation"/);
    expect(errors[1]).toMatch(/c\.md: invalid front-matter/);
    expect(findAgentDef(root, 'a')?.instructions).toBe('A');
    expect(findAgentDef(root, 'zzz')).toBeUndefined();
  });
});
