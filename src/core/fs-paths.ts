/** Path containment and canonical paths: the one definition the sandbox and the role guards share. */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** Whether `child` is `parent` or below it. `..notes` is a name inside the parent; only a `..` segment climbs out. */
export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** realpath, or the absolute path itself when it cannot be resolved (it does not exist yet). */
export function realpathOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

export class PathResolveError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** Symlink hops before a path counts as a loop (the kernel's own limit is 40). */
const MAX_LINKS = 40;

/**
 * Where writing or reading `abs` would really land: realpath of the path, or of its nearest existing
 * ancestor with the missing tail re-appended. A dangling symlink on the way is followed to its target
 * (writing through it would create the target), so the result is never a link.
 */
export function canonicalPath(abs: string, hops = 0): string {
  const tail: string[] = [];
  let cur = abs;
  for (;;) {
    try {
      return path.join(realpathSync(cur), ...tail.reverse());
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new PathResolveError(`path not accessible (${code})`, code);
      let link: string | undefined;
      try {
        if (lstatSync(cur).isSymbolicLink()) link = readlinkSync(cur);
      } catch {
        // Does not exist at all: climb to the parent.
      }
      if (link !== undefined) {
        if (hops >= MAX_LINKS) throw new PathResolveError('path not accessible (too many symbolic links)', 'ELOOP');
        const target = path.resolve(path.dirname(cur), link);
        return canonicalPath(path.join(target, ...tail.reverse()), hops + 1);
      }
      const parent = path.dirname(cur);
      if (parent === cur) throw new PathResolveError('path not accessible', code);
      tail.push(path.basename(cur));
      cur = parent;
    }
  }
}
