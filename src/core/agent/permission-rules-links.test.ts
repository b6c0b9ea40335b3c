/** Path rules decide on where a write really lands: a symlink inside an allowed folder does not widen it. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ruleFor, ruleMatches } from './permission-rules.js';
import type { PermissionRequest } from './types.js';

describe('path rules and symlinks (real files)', () => {
  let root: string;
  beforeEach(() => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'thclaws-rules-')));
    mkdirSync(path.join(root, 'src/real'), { recursive: true });
    mkdirSync(path.join(root, '.git/hooks'), { recursive: true });
    // A cloned repository may commit links like these.
    symlinkSync('../.git/hooks', path.join(root, 'src/hooks'));
    symlinkSync('../ci/deploy.sh', path.join(root, 'src/dangling'));
    symlinkSync('real', path.join(root, 'src/alias'));
    symlinkSync('loop', path.join(root, 'src/loop'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const scope = () => ({ cwd: root, projectRoot: root });
  const write = (p: string): PermissionRequest => ({ tool: 'Write', input: { path: p, content: 'x' }, summary: '' });

  it('Write(src/) does not allow a path under src/ that a link sends elsewhere (existing or dangling target)', () => {
    expect(ruleMatches('Write(src/)', write('src/real/a.ts'), scope())).toBe(true);
    // A link to another folder under src/ stays under src/.
    expect(ruleMatches('Write(src/)', write('src/alias/a.ts'), scope())).toBe(true);
    expect(ruleMatches('Write(src/)', write('src/hooks/pre-commit'), scope())).toBe(false);
    expect(ruleMatches('Write(src/)', write('src/dangling'), scope())).toBe(false);
    expect(ruleMatches('Write(src/)', write('src/../package.json'), scope())).toBe(false);
    expect(ruleMatches('Write(src/)', write('src/loop/x'), scope())).toBe(false);
  });

  it('an exact path rule matches the real file, not a link to another', () => {
    expect(ruleMatches('Write(src/dangling)', write('src/dangling'), scope())).toBe(false);
    expect(ruleMatches('Write(ci/deploy.sh)', write('src/dangling'), scope())).toBe(true);
  });

  it('"always" stores the folder the write really lands in', () => {
    expect(ruleFor(write('src/hooks/pre-commit'), scope())).toBe('Write(.git/hooks/)');
    expect(ruleFor(write('src/alias/a.ts'), scope())).toBe('Write(src/real/)');
    // A path that cannot be resolved (a link loop) is never widened to the whole tool.
    expect(ruleFor(write('src/loop/x'), scope())).toBe('Write(src/loop/x)');
  });

  it('a project root reached through a link: rules are relative to its real path', () => {
    const link = `${root}-link`;
    symlinkSync(root, link);
    try {
      const viaLink = { cwd: link, projectRoot: link };
      expect(ruleMatches('Write(src/)', write('src/real/a.ts'), viaLink)).toBe(true);
      expect(ruleFor(write('src/real/a.ts'), viaLink)).toBe('Write(src/real/)');
    } finally {
      rmSync(link, { force: true });
    }
  });
});
