/**
 * Folder trust: a cloned repository must not switch off permission prompts. Project settings may only
 * loosen permissions (`permissionMode: "auto"`, `permissions.allow`) in a folder the person trusted; the
 * list lives in the user's config (`~/.config/thclaws/trusted-folders.json`), never in the project.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isInside, realpathOr } from '../fs-paths.js';

export function trustFilePath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || '/', '.config');
  return path.join(base, 'thclaws', 'trusted-folders.json');
}

function readTrusted(env: NodeJS.ProcessEnv): string[] {
  const file = trustFilePath(env);
  if (!existsSync(file)) return [];
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { folders?: unknown };
    return Array.isArray(data.folders) ? data.folders.filter((f): f is string => typeof f === 'string') : [];
  } catch {
    // A damaged list trusts nothing; the next trust answer rewrites it.
    return [];
  }
}

/** Trusted when the folder or one of its parents was trusted. */
export function isTrusted(folder: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const real = realpathOr(folder);
  return readTrusted(env).some((t) => isInside(real, t));
}

export function trustFolder(folder: string, env: NodeJS.ProcessEnv = process.env): void {
  const file = trustFilePath(env);
  const folders = [...new Set([...readTrusted(env), realpathOr(folder)])];
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ folders }, null, 2)}\n`);
  renameSync(tmp, file);
}

/** Keys of one project settings layer that would loosen permissions, as `key` names. */
export function looseningKeys(raw: Record<string, unknown>): string[] {
  const keys: string[] = [];
  if (raw.permissionMode === 'auto') keys.push('permissionMode');
  const allow = (raw.permissions as { allow?: unknown } | undefined)?.allow;
  if (Array.isArray(allow) && allow.length) keys.push('permissions.allow');
  if (raw.teammatePermissionMode === 'auto') keys.push('teammatePermissionMode');
  if (raw.autoAllowSandboxedBash === true) keys.push('autoAllowSandboxedBash');
  // Hooks run shell commands: a cloned repository must not bring its own.
  if (raw.hooks && typeof raw.hooks === 'object' && Object.keys(raw.hooks).length) keys.push('hooks');
  if (Array.isArray(raw.teammateAllow) && raw.teammateAllow.length) keys.push('teammateAllow');
  // MCP servers are commands and endpoints of the project's choosing, as hooks are.
  if (raw.mcpServers && typeof raw.mcpServers === 'object' && Object.keys(raw.mcpServers).length) keys.push('mcpServers');
  // A worktree's setup command runs at each spawn without a question, as hooks do.
  if (typeof (raw.worktree as { setup?: unknown } | undefined)?.setup === 'string') keys.push('worktree.setup');
  for (const [name, t] of Object.entries(teammatesOf(raw))) {
    if (t.permissionMode === 'auto') keys.push(`teammates.${name}.permissionMode`);
    if (Array.isArray(t.allow) && t.allow.length) keys.push(`teammates.${name}.allow`);
  }
  return keys;
}

function teammatesOf(raw: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const t = raw.teammates;
  return t && typeof t === 'object' && !Array.isArray(t) ? (t as Record<string, Record<string, unknown>>) : {};
}

/** The layer without its loosening keys. */
export function withoutLoosening(raw: Record<string, unknown>): Record<string, unknown> {
  const out = { ...raw };
  if (out.permissionMode === 'auto') delete out.permissionMode;
  if (out.permissions && typeof out.permissions === 'object') {
    const { allow: _dropped, ...rest } = out.permissions as Record<string, unknown>;
    out.permissions = rest;
  }
  if (out.teammatePermissionMode === 'auto') delete out.teammatePermissionMode;
  delete out.autoAllowSandboxedBash;
  delete out.teammateAllow;
  delete out.hooks;
  delete out.mcpServers;
  if (out.worktree && typeof out.worktree === 'object') {
    const { setup: _s, ...rest } = out.worktree as Record<string, unknown>;
    out.worktree = rest;
  }
  const tm = teammatesOf(out);
  if (Object.keys(tm).length) {
    out.teammates = Object.fromEntries(
      Object.entries(tm).map(([n, t]) => {
        const { allow: _a, ...rest } = t;
        return [n, rest.permissionMode === 'auto' ? { ...rest, permissionMode: undefined } : rest];
      }),
    );
  }
  return out;
}
