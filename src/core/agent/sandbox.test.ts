import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/agent/helpers.js';
import { createSandbox, type Sandbox } from './sandbox.js';

describe('sandbox', () => {
  let root: string;
  let outside: string;
  let cleanups: Array<() => void>;
  let sb: Sandbox;

  beforeEach(() => {
    const a = tempDir();
    const b = tempDir();
    cleanups = [a.cleanup, b.cleanup];
    root = a.dir;
    outside = b.dir;
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src/a.txt'), 'a');
    writeFileSync(path.join(outside, 'secret.txt'), 's');
    sb = createSandbox(root);
  });
  afterEach(() => cleanups.forEach((c) => c()));

  it('resolves relative paths against the cwd', () => {
    expect(sb.resolve('a.txt', path.join(root, 'src'), 'read')).toBe(path.join(root, 'src/a.txt'));
    expect(sb.resolve('../src/a.txt', path.join(root, 'src'), 'write')).toBe(path.join(root, 'src/a.txt'));
  });

  it('refuses .. that climbs out of the root', () => {
    expect(() => sb.resolve('../../etc/passwd', path.join(root, 'src'), 'read')).toThrow(/^access denied: .*outside the workspace root/);
  });

  it('refuses absolute paths outside the root', () => {
    expect(() => sb.resolve(path.join(outside, 'secret.txt'), root, 'read')).toThrow(/^access denied:/);
    expect(() => sb.resolve('/etc/passwd', root, 'read')).toThrow(/^access denied:/);
  });

  it('refuses a symlinked file that points outside', () => {
    symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
    expect(() => sb.resolve('link.txt', root, 'read')).toThrow(/access denied: link.txt \(resolves to .*secret.txt\)/);
    expect(() => sb.resolve('link.txt', root, 'write')).toThrow(/^access denied:/);
  });

  it('refuses a new file under a symlinked directory that points outside', () => {
    symlinkSync(outside, path.join(root, 'out'));
    expect(() => sb.resolve('out/new/deep.txt', root, 'write')).toThrow(/^access denied:/);
    expect(() => sb.resolve('out/secret.txt', root, 'read')).toThrow(/^access denied:/);
  });

  it('allows symlinks that stay inside', () => {
    symlinkSync(path.join(root, 'src'), path.join(root, 'alias'));
    expect(sb.resolve('alias/a.txt', root, 'read')).toBe(path.join(root, 'src/a.txt'));
  });

  it('a name that starts with two dots is inside the root, not a climb', () => {
    expect(sb.resolve('..notes.md', root, 'write')).toBe(path.join(root, '..notes.md'));
    expect(sb.resolve('src/..a/b.txt', root, 'write')).toBe(path.join(root, 'src/..a/b.txt'));
  });

  it('allows new files under directories that do not exist yet', () => {
    expect(sb.resolve('x/y/z.txt', root, 'write')).toBe(path.join(root, 'x/y/z.txt'));
  });

  it('refuses writes under .thclaws/ but allows reads', () => {
    mkdirSync(path.join(root, '.thclaws'));
    writeFileSync(path.join(root, '.thclaws/settings.json'), '{}');
    expect(() => sb.resolve('.thclaws/settings.json', root, 'write')).toThrow(/access denied: .*inside \.thclaws\//);
    expect(() => sb.resolve('.thclaws/new/file', root, 'write')).toThrow(/inside \.thclaws\//);
    expect(() => sb.resolve('src/../.thclaws', root, 'write')).toThrow(/inside \.thclaws\//);
    expect(sb.resolve('.thclaws/settings.json', root, 'read')).toBe(path.join(root, '.thclaws/settings.json'));
    // A name that merely starts with .thclaws is not the reserved directory.
    expect(sb.resolve('.thclaws-notes.md', root, 'write')).toBe(path.join(root, '.thclaws-notes.md'));
  });

  it('refuses .thclaws reached through a symlink', () => {
    mkdirSync(path.join(root, '.thclaws'));
    symlinkSync(path.join(root, '.thclaws'), path.join(root, 'state'));
    expect(() => sb.resolve('state/x.json', root, 'write')).toThrow(/inside \.thclaws\//);
  });
});
