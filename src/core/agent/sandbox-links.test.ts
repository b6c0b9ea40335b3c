import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/agent/helpers.js';
import { SessionPermissionChecker } from './permissions.js';
import { createSandbox, type Sandbox } from './sandbox.js';
import { runToolCall } from './tool-run.js';
import { builtinTools } from './tools/index.js';

/** Every shape of symlink, for read and write: the sandbox decides on where the path really lands. */
describe('sandbox: symlink shapes', () => {
  let root: string;
  let outside: string;
  let cleanups: Array<() => void>;
  let sb: Sandbox;
  const link = (target: string, name: string) => symlinkSync(target, path.join(root, name));
  const denied = (p: string, mode: 'read' | 'write' = 'write') => expect(() => sb.resolve(p, root, mode), p).toThrow(/^access denied: .*(outside the workspace root|not accessible)/);

  beforeEach(() => {
    const a = tempDir();
    const b = tempDir();
    cleanups = [a.cleanup, b.cleanup];
    root = a.dir;
    outside = b.dir;
    mkdirSync(path.join(root, 'in'));
    writeFileSync(path.join(root, 'in/file.txt'), 'x');
    writeFileSync(path.join(outside, 'secret.txt'), 's');
    sb = createSandbox(root);
  });
  afterEach(() => cleanups.forEach((c) => c()));

  it('dangling link to a missing file outside: refused for write and read', () => {
    link(path.join(outside, 'new.txt'), 'dang');
    denied('dang');
    denied('dang', 'read');
  });

  it('dangling relative link climbing out: refused', () => {
    link(path.join(path.relative(root, outside), 'new.txt'), 'rel-dang');
    denied('rel-dang');
  });

  it('dangling link to a missing directory outside, with a new file under it: refused', () => {
    link(path.join(outside, 'nodir'), 'dangdir');
    denied('dangdir/file.txt');
  });

  it('chain: inside link → dangling link → outside: refused', () => {
    link(path.join(outside, 'new.txt'), 'hop2');
    link(path.join(root, 'hop2'), 'hop1');
    denied('hop1');
  });

  it('link loop: refused with a clear reason', () => {
    link(path.join(root, 'loopB'), 'loopA');
    link(path.join(root, 'loopA'), 'loopB');
    expect(() => sb.resolve('loopA', root, 'write')).toThrow(/^access denied: .*not accessible \((ELOOP|too many symbolic links)\)/);
  });

  it('existing links: to a file outside and to a directory outside are refused; links that stay inside are allowed', () => {
    link(path.join(outside, 'secret.txt'), 'out-file');
    link(outside, 'out-dir');
    denied('out-file', 'read');
    denied('out-dir/secret.txt', 'read');
    denied('out-dir/new.txt');
    link(path.join(root, 'in/file.txt'), 'in-file');
    link(path.join(root, 'in'), 'in-dir');
    expect(sb.resolve('in-file', root, 'read')).toBe(path.join(root, 'in/file.txt'));
    expect(sb.resolve('in-dir/new.txt', root, 'write')).toBe(path.join(root, 'in/new.txt'));
  });

  it('dangling link to a missing file inside: allowed, resolved to its target', () => {
    link(path.join(root, 'in/later.txt'), 'dang-in');
    expect(sb.resolve('dang-in', root, 'write')).toBe(path.join(root, 'in/later.txt'));
  });

  it('dangling link into .thclaws/: refused for write', () => {
    link(path.join(root, '.thclaws/settings.json'), 'dang-state');
    expect(() => sb.resolve('dang-state', root, 'write')).toThrow(/inside \.thclaws\//);
  });

  it('Write through a dangling link creates nothing outside (the reported escape)', async () => {
    link(path.join(outside, 'escaped.txt'), 'dang');
    const r = await runToolCall({ type: 'tool_use', id: 't', name: 'Write', input: { path: 'dang', content: 'pwned' } }, builtinTools(), {
      cwd: root, projectRoot: root, role: 'solo', signal: new AbortController().signal,
      permissions: new SessionPermissionChecker('auto', { decide: async () => 'deny' }),
    });
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/^access denied: dang \(resolves to .*escaped\.txt\) is outside the workspace root/);
    expect(existsSync(path.join(outside, 'escaped.txt'))).toBe(false);
  });
});
