/** A glob the model passes never re-opens what Grep skips (.thclaws/, .git/, node_modules/): ripgrep lets a later glob win. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/agent/helpers.js';
import { SessionPermissionChecker } from '../permissions.js';
import { runToolCall } from '../tool-run.js';
import type { ToolContext } from '../types.js';
import { findRipgrep, useRipgrep } from './grep.js';
import { builtinTools } from './index.js';

const tools = builtinTools();

describe.each([
  ['ripgrep', findRipgrep()],
  ['JS fallback', null],
])('Grep glob against the skipped folders (%s)', (engine, rgPath) => {
  let root: string;
  let cleanup: () => void;
  let ctx: ToolContext;
  beforeEach(() => {
    if (engine === 'ripgrep' && !rgPath) throw new Error('rg is not on PATH: install ripgrep (.ci/run does)');
    useRipgrep(rgPath);
    ({ dir: root, cleanup } = tempDir());
    ctx = { cwd: root, projectRoot: root, role: 'solo', signal: new AbortController().signal, permissions: new SessionPermissionChecker('auto', { decide: async () => 'deny' }) };
    for (const d of ['.thclaws/sessions', '.git', 'node_modules/x', 'src']) mkdirSync(path.join(root, d), { recursive: true });
    writeFileSync(path.join(root, '.thclaws/sessions/s.jsonl'), 'NEEDLE in a session\n');
    writeFileSync(path.join(root, '.git/config'), 'NEEDLE in git\n');
    writeFileSync(path.join(root, 'node_modules/x/i.js'), 'NEEDLE in a dependency\n');
    writeFileSync(path.join(root, 'src/a.ts'), 'NEEDLE in source\n');
  });
  afterEach(() => cleanup());
  afterAll(() => useRipgrep(undefined));

  for (const glob of ['*', '**', '**/*']) {
    it(`glob ${JSON.stringify(glob)} finds the source and nothing skipped`, async () => {
      const r = await runToolCall({ type: 'tool_use', id: 'g', name: 'Grep', input: { pattern: 'NEEDLE', glob } }, tools, ctx);
      expect(r.content).toBe('src/a.ts');
    });
  }
  for (const glob of ['.thclaws/**', '{*,.thclaws/**}', '**/*.jsonl', 'node_modules/**']) {
    it(`glob ${JSON.stringify(glob)} aimed at a skipped folder finds nothing there`, async () => {
      const r = await runToolCall({ type: 'tool_use', id: 'g', name: 'Grep', input: { pattern: 'NEEDLE', glob } }, tools, ctx);
      expect(r.content).not.toMatch(/thclaws|\.git|node_modules/);
    });
  }
});
