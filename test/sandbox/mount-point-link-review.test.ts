/**
 * Hostile review of the denied directories the sandbox makes on the host (outside any sandbox) before a wrap:
 * an agent that may write the project can make the parent of one (`.thclaws`, `.git`) a symlink to a folder
 * outside it. Following that link, the host would delete an empty file there and make a directory in its place.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureDenyDir } from '../../src/core/sandbox/mount-points.js';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const temp = (prefix: string) => {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(d);
  return d;
};

describe('denied directories are made only in the project tree itself', () => {
  it('a parent that is a symlink out of the project is not followed: the file there stays, no directory appears', () => {
    const root = temp('thclaws-root-');
    const outside = temp('thclaws-outside-');
    fs.writeFileSync(path.join(outside, 'state'), '');
    fs.mkdirSync(path.join(outside, 'other'));
    fs.symlinkSync(outside, path.join(root, '.thclaws'));
    fs.symlinkSync(path.join(outside, 'other'), path.join(root, '.git'));

    ensureDenyDir(path.join(root, '.thclaws', 'state'));
    ensureDenyDir(path.join(root, '.git', 'hooks'));

    expect(fs.lstatSync(path.join(outside, 'state')).isFile()).toBe(true);
    expect(fs.existsSync(path.join(outside, 'other', 'hooks'))).toBe(false);
  });

  it('a real parent still gets its denied directory (and a stale empty mount-point file is replaced)', () => {
    const root = temp('thclaws-root-');
    fs.mkdirSync(path.join(root, '.thclaws'));
    fs.writeFileSync(path.join(root, '.worktrees'), '');
    ensureDenyDir(path.join(root, '.thclaws', 'state'));
    ensureDenyDir(path.join(root, '.worktrees'));
    expect(fs.statSync(path.join(root, '.thclaws', 'state')).isDirectory()).toBe(true);
    expect(fs.statSync(path.join(root, '.worktrees')).isDirectory()).toBe(true);
  });
});
