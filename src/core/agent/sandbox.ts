/**
 * Path sandbox (reference §7.6): relative paths join the cwd, are normalised, symlinks are resolved
 * (the nearest existing ancestor for paths that do not exist yet) and the result must stay inside the
 * root. Writes under `<root>/.thclaws/` are refused: that directory holds team state and sessions.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';

export class SandboxError extends Error {
  override name = 'SandboxError';
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  // `..notes` is a name inside the parent; only a `..` segment climbs out.
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** realpath of the path, or of its nearest existing ancestor with the missing tail re-appended. */
function canonicalise(abs: string): string {
  const tail: string[] = [];
  let cur = abs;
  for (;;) {
    try {
      return path.join(realpathSync(cur), ...tail.reverse());
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new SandboxError(`access denied: ${abs}: path not accessible (${code})`);
      const parent = path.dirname(cur);
      if (parent === cur) throw new SandboxError(`access denied: ${abs}: path not accessible`);
      tail.push(path.basename(cur));
      cur = parent;
    }
  }
}

export interface Sandbox {
  readonly root: string;
  /** Absolute, canonical path inside the root, or throws SandboxError. */
  resolve(p: string, cwd: string, mode: 'read' | 'write'): string;
}

export function createSandbox(root: string): Sandbox {
  const realRoot = canonicalise(path.resolve(root));
  const reserved = path.join(realRoot, '.thclaws');
  return {
    root: realRoot,
    resolve(p, cwd, mode) {
      if (typeof p !== 'string' || p.length === 0) throw new SandboxError('access denied: empty path');
      if (p.includes('\0')) throw new SandboxError('access denied: path contains a NUL byte');
      const lexical = path.resolve(cwd, p);
      const real = canonicalise(lexical);
      if (!isInside(real, realRoot)) {
        const via = real !== lexical ? ` (resolves to ${real})` : '';
        throw new SandboxError(
          `access denied: ${p}${via} is outside the workspace root ${realRoot} — this is a sandbox rule, NOT a permission/approval issue; work inside the workspace`,
        );
      }
      if (mode === 'write' && isInside(real, reserved)) {
        throw new SandboxError(
          `access denied: ${p} is inside .thclaws/ — that directory is reserved for team state, settings and sessions; write elsewhere`,
        );
      }
      return real;
    },
  };
}
