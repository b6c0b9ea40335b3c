import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PathResolveError, canonicalPath, isInside, realpathOr } from './fs-paths.js';

describe('isInside: containment by path segments', () => {
  it('a path is inside itself and below, never beside or above', () => {
    expect(isInside('/ws', '/ws')).toBe(true);
    expect(isInside('/ws/a/b', '/ws')).toBe(true);
    expect(isInside('/ws/', '/ws')).toBe(true);
    expect(isInside('/ws2', '/ws')).toBe(false);
    expect(isInside('/', '/ws')).toBe(false);
    expect(isInside('/other/ws', '/ws')).toBe(false);
    expect(isInside('/ws/../etc', '/ws')).toBe(false);
  });
  it('`..notes` is a name inside the parent; only a `..` segment climbs out', () => {
    expect(isInside('/ws/..notes', '/ws')).toBe(true);
    expect(isInside('/ws/..', '/ws')).toBe(false);
    expect(isInside('/ws/a/../../b', '/ws')).toBe(false);
  });
  it('relative paths are taken from the same cwd', () => {
    expect(isInside('a/b', 'a')).toBe(true);
    expect(isInside('b', 'a')).toBe(false);
  });
});

describe('realpathOr and canonicalPath (real files)', () => {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'thclaws-fspaths-')));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(path.join(root, 'real/sub'), { recursive: true });
  writeFileSync(path.join(root, 'real/f.txt'), 'x');
  symlinkSync(path.join(root, 'real'), path.join(root, 'link'));
  symlinkSync(path.join(root, 'real/missing/deep'), path.join(root, 'dangling'));
  symlinkSync('loop-b', path.join(root, 'loop-a'));
  symlinkSync('loop-a', path.join(root, 'loop-b'));

  it('realpathOr resolves links, or returns the absolute path when nothing exists', () => {
    expect(realpathOr(path.join(root, 'link/f.txt'))).toBe(path.join(root, 'real/f.txt'));
    expect(realpathOr(path.join(root, 'nope/x'))).toBe(path.join(root, 'nope/x'));
  });

  it('follows links and re-appends the missing tail to the nearest existing ancestor', () => {
    expect(canonicalPath(path.join(root, 'link/sub'))).toBe(path.join(root, 'real/sub'));
    expect(canonicalPath(path.join(root, 'link/new/a.txt'))).toBe(path.join(root, 'real/new/a.txt'));
    expect(canonicalPath(path.join(root, 'real/sub/x/y/z'))).toBe(path.join(root, 'real/sub/x/y/z'));
  });

  it('a dangling link is followed to its target, with the tail kept in order', () => {
    expect(canonicalPath(path.join(root, 'dangling'))).toBe(path.join(root, 'real/missing/deep'));
    expect(canonicalPath(path.join(root, 'dangling/a/b'))).toBe(path.join(root, 'real/missing/deep/a/b'));
  });

  it('a chain of dangling links longer than the kernel allows is refused, a shorter one is followed', () => {
    // c0 -> c1/x -> c2/x … : each link dangles, so realpath fails with ENOENT and each hop is followed by hand.
    const chain = (name: string, n: number) => {
      for (let i = 0; i < n; i++) symlinkSync(path.join(root, `${name}${i + 1}`, 'x'), path.join(root, `${name}${i}`));
    };
    chain('c', 41);
    let err: unknown;
    try {
      canonicalPath(path.join(root, 'c0'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PathResolveError);
    expect((err as PathResolveError).code).toBe('ELOOP');
    // The kernel's own limit (40) usually answers first; the hop counter backs it where it does not.
    expect((err as PathResolveError).message).toMatch(/^path not accessible \((ELOOP|too many symbolic links)\)$/);
    chain('d', 30);
    expect(canonicalPath(path.join(root, 'd0'))).toBe(path.join(root, 'd30', ...Array(30).fill('x')));
  });

  it('the hop counter itself: 40 links the kernel sees one at a time are followed, the 41st is refused', () => {
    // e0 -> missing0/../e1: the kernel stops at the missing directory (ENOENT) after one link, while the path,
    // resolved as text, names the next link; so only the counter can stop such a chain.
    const chain = (name: string, n: number) => {
      for (let i = 0; i < n; i++) symlinkSync(`missing${i}/../${name}${i + 1}`, path.join(root, `${name}${i}`));
    };
    chain('e', 40);
    expect(canonicalPath(path.join(root, 'e0'))).toBe(path.join(root, 'e40'));
    chain('f', 41);
    let err: unknown;
    try {
      canonicalPath(path.join(root, 'f0'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PathResolveError);
    expect({ code: (err as PathResolveError).code, message: (err as PathResolveError).message }).toEqual({ code: 'ELOOP', message: 'path not accessible (too many symbolic links)' });
  });

  it('a link loop is an ELOOP error, a file used as a directory is not inside anything', () => {
    let err: unknown;
    try {
      canonicalPath(path.join(root, 'loop-a/x'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PathResolveError);
    expect((err as PathResolveError).code).toBe('ELOOP');
    expect((err as PathResolveError).message).toBe('path not accessible (ELOOP)');
    // ENOTDIR climbs like ENOENT: the file is the nearest existing ancestor.
    expect(canonicalPath(path.join(root, 'real/f.txt/x'))).toBe(path.join(root, 'real/f.txt/x'));
  });
});
