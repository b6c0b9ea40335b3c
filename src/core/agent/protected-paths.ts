/**
 * Protected paths: files whose contents later run code outside the OS sandbox, or change what the agent is
 * allowed to do, when a person or a tool reads them. git runs `core.fsmonitor`, hooks and filters from
 * `.git/`; `.mcp.json` and `.claude/`/`.thclaws/` settings start servers and hooks; editors run tasks from
 * `.vscode/` and `.idea/`; direnv runs `.envrc`; shells run their rc files. A Write or Edit of one asks
 * every time, whatever the mode (acceptEdits, bypassPermissions/auto), the allow rules or an earlier
 * "always" say: the approver decides each call, and with nobody to ask it is refused.
 */
import path from 'node:path';
import { canonicalPath } from '../fs-paths.js';
import { filePathOf } from './tool-input.js';
import type { PermissionRequest } from './types.js';

/** Directories protected wherever they appear in a path (a nested repo's `.git/` too). */
export const PROTECTED_DIRS = ['.git', '.thclaws', '.claude', '.vscode', '.idea', '.husky'] as const;
/** File names protected in any directory. */
export const PROTECTED_FILES = [
  '.mcp.json',
  '.claude.json',
  '.gitconfig',
  '.gitmodules',
  '.envrc',
  '.bashrc',
  '.bash_profile',
  '.zshrc',
  '.zprofile',
  '.profile',
  '.ripgreprc',
] as const;

/** Tools that write the file their `file_path` names. */
export const FILE_WRITE_TOOLS = new Set(['Write', 'Edit']);

/** The protected name a path runs into, or undefined; case-insensitive (a case-insensitive disk opens `.GIT/` as `.git/`). */
export function protectedName(p: string): string | undefined {
  const parts = p.split(/[\\/]+/).filter(Boolean).map((s) => s.toLowerCase());
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const dir = PROTECTED_DIRS.find((d) => d === part);
    // `.git` as the last part is a worktree's gitdir pointer file: protected as well.
    if (dir) return `${dir}/`;
    if (i === parts.length - 1 && (PROTECTED_FILES as readonly string[]).includes(part)) return part;
  }
  return undefined;
}

/**
 * The ask rule a Write/Edit of a protected path falls under (`Write(.git/**)`), or undefined. Both the path as
 * written and where it really lands count: a link `notes -> .git/config` is a write to `.git/`.
 */
export function protectedWriteRule(req: PermissionRequest, cwd: string): string | undefined {
  if (!FILE_WRITE_TOOLS.has(req.tool)) return undefined;
  const p = filePathOf(req.input);
  if (p === undefined) return undefined;
  const abs = path.resolve(cwd, p);
  let real: string | undefined;
  try {
    real = canonicalPath(abs);
  } catch {
    real = undefined;
  }
  // Only the part below the working directory's root names a protected place: a checkout under
  // `~/.vscode/extensions/x` is not itself protected, its own `.git/` is.
  const name = protectedName(relativeTail(abs, cwd)) ?? (real !== undefined ? protectedName(relativeTail(real, canonicalOr(cwd))) : undefined);
  if (!name) return undefined;
  return `${req.tool}(${name.endsWith('/') ? `${name}**` : name})`;
}

function canonicalOr(p: string): string {
  try {
    return canonicalPath(p);
  } catch {
    return p;
  }
}

/** `abs` relative to `base` when inside it; else the whole path (outside the project every part counts). */
function relativeTail(abs: string, base: string): string {
  const rel = path.relative(base, abs);
  return rel.startsWith('..') || path.isAbsolute(rel) ? abs : rel;
}
