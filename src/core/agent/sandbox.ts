/**
 * Path sandbox: relative paths join the cwd, are normalised, symlinks are resolved (dangling ones to their
 * target; the nearest existing ancestor for paths that do not exist yet) and the result must stay inside the
 * root or one of the added directories (`--add-dir`), which count as the workspace. Writes under the root's
 * `.thclaws/` are refused: that directory holds team state and sessions.
 */
import path from 'node:path';
import { PathResolveError, canonicalPath, isInside } from '../fs-paths.js';

export class SandboxError extends Error {
  override name = 'SandboxError';
}

function canonicalise(abs: string): string {
  try {
    return canonicalPath(abs);
  } catch (err) {
    if (err instanceof PathResolveError) throw new SandboxError(`access denied: ${abs}: ${err.message}`);
    throw err;
  }
}

export interface Sandbox {
  readonly root: string;
  /** The added directories, canonical. */
  readonly extraRoots: readonly string[];
  /** Absolute, canonical path inside the root, or throws SandboxError. */
  resolve(p: string, cwd: string, mode: 'read' | 'write'): string;
}

export function createSandbox(root: string, extra: readonly string[] = []): Sandbox {
  const realRoot = canonicalise(path.resolve(root));
  const extraRoots = extra.map((d) => canonicalise(path.resolve(d)));
  const roots = [realRoot, ...extraRoots];
  const reserved = path.join(realRoot, '.thclaws');
  const where = extraRoots.length ? `the workspace root ${realRoot} and the added directories ${extraRoots.join(', ')}` : `the workspace root ${realRoot}`;
  return {
    root: realRoot,
    extraRoots,
    resolve(p, cwd, mode) {
      if (typeof p !== 'string' || p.length === 0) throw new SandboxError('access denied: empty path');
      if (p.includes('\0')) throw new SandboxError('access denied: path contains a NUL byte');
      const lexical = path.resolve(cwd, p);
      const real = canonicalise(lexical);
      if (!roots.some((r) => isInside(real, r))) {
        const via = real !== lexical ? ` (resolves to ${real})` : '';
        throw new SandboxError(`access denied: ${p}${via} is outside ${where} — this is a sandbox rule, NOT a permission/approval issue; work inside the workspace`);
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
