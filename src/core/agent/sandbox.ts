/**
 * Path sandbox: relative paths join the cwd, are normalised, symlinks are resolved (dangling ones to their
 * target; the nearest existing ancestor for paths that do not exist yet) and the result must stay inside the
 * root. Writes under `<root>/.thclaws/` are refused: that directory holds team state and sessions.
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
