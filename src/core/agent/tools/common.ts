/** Helpers shared by the built-in tools. */
import { stat } from 'node:fs/promises';
import type { ToolContext, ToolLimits, ToolResult } from '../types.js';
import { createSandbox, SandboxError, type Sandbox } from '../sandbox.js';
import { defaultSettings } from '../settings.js';

/** The settings defaults (settings.ts holds each value and its reason), so a tool without limits obeys the same. */
export const DEFAULT_LIMITS: ToolLimits = (() => {
  const s = defaultSettings();
  return {
    bashTimeoutMs: s.bashTimeoutMs,
    bashMaxTimeoutMs: s.bashMaxTimeoutMs,
    bashKillGraceMs: s.bashKillGraceMs,
    readDefaultLines: s.readDefaultLines,
    searchMaxResults: s.searchMaxResults,
    grepMaxFileBytes: s.grepMaxFileBytes,
    toolOutputMaxChars: s.toolOutputMaxChars,
  };
})();

export function limitsOf(ctx: ToolContext): ToolLimits {
  return { ...DEFAULT_LIMITS, ...ctx.limits };
}

const sandboxes = new Map<string, Sandbox>();

/** Sandboxes are cached per root and added directories: their realpaths are computed once. */
export function sandboxFor(ctx: ToolContext): Sandbox {
  const extra = ctx.additionalDirs ?? [];
  const key = [ctx.projectRoot, ...extra].join('\0');
  let sb = sandboxes.get(key);
  if (!sb) {
    sb = createSandbox(ctx.projectRoot, extra);
    sandboxes.set(key, sb);
  }
  return sb;
}

export function toolError(message: string): ToolResult {
  return { content: message, isError: true };
}

/** Resolves a path in the sandbox; a refusal becomes the tool error text. */
export function resolvePath(ctx: ToolContext, p: string, mode: 'read' | 'write'): { path: string } | { error: ToolResult } {
  try {
    return { path: sandboxFor(ctx).resolve(p, ctx.cwd, mode) };
  } catch (err) {
    if (err instanceof SandboxError) return { error: toolError(err.message) };
    throw err;
  }
}

/** A path Write/Edit may write: the sandbox first, then the role guard; a refusal is the tool error. */
export function resolveWritable(ctx: ToolContext, p: string): { path: string } | { error: ToolResult } {
  const r = resolvePath(ctx, p, 'write');
  if ('error' in r) return r;
  const refused = checkWriteGuard(ctx, r.path);
  return refused ? { error: refused } : r;
}

/** Where preflight found each call's path to land; run writes only there. Keyed by the parsed input object. */
const checkedLanding = new WeakMap<object, string>();

/** Preflight of Write/Edit: sandbox and role guard, remembering where the write would land. */
export function preflightWritable(ctx: ToolContext, input: { file_path: string }): ToolResult | undefined {
  const r = resolveWritable(ctx, input.file_path);
  if ('error' in r) return r.error;
  checkedLanding.set(input, r.path);
  return undefined;
}

/**
 * At run time, after a person may have been asked for minutes: sandbox and guard again, and the same target
 * as the one checked and approved — a symlink on the way may have been swapped meanwhile.
 */
export function runWritable(ctx: ToolContext, input: { file_path: string }): { path: string } | { error: ToolResult } {
  const r = resolveWritable(ctx, input.file_path);
  if ('error' in r) return r;
  const checked = checkedLanding.get(input);
  if (checked !== undefined && checked !== r.path) {
    return { error: toolError(`${input.file_path} now resolves to ${r.path}, not the ${checked} that was checked; nothing written — a symlink on the way changed, check it and try again`) };
  }
  return r;
}

/** The one wording of a role-guard refusal: `refused: <reason> — <advice>`. */
export function guardRefusal(verdict: { allowed: boolean; reason?: string; advice?: string } | undefined): ToolResult | undefined {
  if (!verdict || verdict.allowed) return undefined;
  return toolError(`refused: ${verdict.reason} — ${verdict.advice}`);
}

/** The role's write guard (lead, teammate), after the sandbox. */
export function checkWriteGuard(ctx: ToolContext, absPath: string): ToolResult | undefined {
  return guardRefusal(ctx.guard?.checkWrite(absPath));
}

export function fsErrorText(err: unknown, p: string): string {
  const e = err as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ENOENT':
      return `file not found: ${p}`;
    case 'EISDIR':
      return `${p} is a directory`;
    case 'EACCES':
    case 'EPERM':
      return `no permission to access ${p}`;
    default:
      return `${p}: ${e.message}`;
  }
}

/** Heuristic used by Read and Grep: a NUL byte in the first 8 KB means binary. */
export function looksBinary(buf: Buffer): boolean {
  return buf.subarray(0, 8192).includes(0);
}

/**
 * Refuses a path that exists and is not a regular file (a FIFO, a socket, a device): opening one can block
 * forever where no Ctrl-C reaches (a thread of the pool), and writing to a device is never an edit.
 */
export async function notRegularFile(abs: string, shown: string): Promise<ToolResult | undefined> {
  let st;
  try {
    st = await stat(abs);
  } catch {
    return undefined; // Does not exist yet: a new file.
  }
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return toolError(`${shown} is a directory`);
  const kind = st.isFIFO() ? 'a FIFO (named pipe)' : st.isSocket() ? 'a socket' : 'a device';
  return toolError(`${shown} is ${kind}; only regular files can be read or written`);
}
