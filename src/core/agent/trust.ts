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

interface TrustFile {
  folders: string[];
  /** Per folder, the rules the person allowed there with "Always" (`<settings key> <rule>`). */
  allowed: Record<string, string[]>;
}

function readFile(env: NodeJS.ProcessEnv): TrustFile {
  const file = trustFilePath(env);
  const empty = { folders: [], allowed: {} };
  if (!existsSync(file)) return empty;
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { folders?: unknown; allowed?: unknown };
    const folders = Array.isArray(data.folders) ? data.folders.filter((f): f is string => typeof f === 'string') : [];
    const allowed: Record<string, string[]> = {};
    if (data.allowed && typeof data.allowed === 'object') {
      for (const [k, v] of Object.entries(data.allowed)) if (Array.isArray(v)) allowed[k] = v.filter((r): r is string => typeof r === 'string');
    }
    return { folders, allowed };
  } catch {
    // A damaged list trusts nothing; the next trust answer rewrites it.
    return empty;
  }
}

function writeFile(data: TrustFile, env: NodeJS.ProcessEnv): void {
  const file = trustFilePath(env);
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  // `allowed` only once the person answered "Always" somewhere: the trust list alone keeps its old shape.
  const out = Object.keys(data.allowed).length ? data : { folders: data.folders };
  writeFileSync(tmp, `${JSON.stringify(out, null, 2)}\n`);
  renameSync(tmp, file);
}

function readTrusted(env: NodeJS.ProcessEnv): string[] {
  return readFile(env).folders;
}

/** Trusted when the folder or one of its parents was trusted. */
export function isTrusted(folder: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const real = realpathOr(folder);
  return readTrusted(env).some((t) => isInside(real, t));
}

export function trustFolder(folder: string, env: NodeJS.ProcessEnv = process.env): void {
  const data = readFile(env);
  writeFile({ ...data, folders: [...new Set([...data.folders, realpathOr(folder)])] }, env);
}

/**
 * The person's own "Always" answer, remembered beside the trust list (outside the project): the rule it wrote
 * into the project's settings is then not a loosening the folder brought, so it neither asks for the folder's
 * trust again nor is ignored. `key`: `permissions.allow`, `teammateAllow` or `teammates.<name>.allow`.
 */
export function rememberAllowed(folder: string, key: string, rule: string, env: NodeJS.ProcessEnv = process.env): void {
  const data = readFile(env);
  const real = realpathOr(folder);
  const entry = `${key} ${rule}`;
  const mine = data.allowed[real] ?? [];
  if (mine.includes(entry)) return;
  writeFile({ ...data, allowed: { ...data.allowed, [real]: [...mine, entry] } }, env);
}

type Own = Map<string, string[]>;

/** The entries of a layer's allow lists the person allowed here themselves, by settings key. */
export function ownAllowed(raw: Record<string, unknown>, folder: string, env: NodeJS.ProcessEnv = process.env): Own {
  const mine = new Set(readFile(env).allowed[realpathOr(folder)] ?? []);
  const own: Own = new Map();
  if (!mine.size) return own;
  const take = (key: string, list: unknown) => {
    const kept = Array.isArray(list) ? list.filter((r): r is string => typeof r === 'string' && mine.has(`${key} ${r}`)) : [];
    if (kept.length) own.set(key, kept);
  };
  take('permissions.allow', (raw.permissions as { allow?: unknown } | undefined)?.allow);
  take('teammateAllow', raw.teammateAllow);
  for (const [name, t] of Object.entries(teammatesOf(raw))) take(`teammates.${name}.allow`, t?.allow);
  return own;
}

/** `raw` with (`add` true) or without the person's own entries in its allow lists. */
export function withOwn(raw: Record<string, unknown>, own: Own, add: boolean): Record<string, unknown> {
  if (!own.size) return raw;
  const edit = (list: unknown, key: string): string[] | undefined => {
    const base = Array.isArray(list) ? (list as string[]) : [];
    const o = own.get(key) ?? [];
    const out = add ? [...new Set([...base, ...o])] : base.filter((r) => !o.includes(r));
    return out.length ? out : undefined;
  };
  const out: Record<string, unknown> = { ...raw };
  const perms = { ...(raw.permissions as Record<string, unknown> | undefined) };
  perms.allow = edit(perms.allow, 'permissions.allow');
  if (perms.allow === undefined) delete perms.allow;
  out.permissions = perms;
  const ta = edit(raw.teammateAllow, 'teammateAllow');
  if (ta) out.teammateAllow = ta;
  else delete out.teammateAllow;
  const names = new Set([...Object.keys(teammatesOf(raw)), ...[...own.keys()].filter((k) => k.startsWith('teammates.')).map((k) => k.slice('teammates.'.length, -'.allow'.length))]);
  if (names.size) {
    out.teammates = Object.fromEntries(
      [...names].map((n) => {
        const t = { ...teammatesOf(raw)[n] };
        const allow = edit(t.allow, `teammates.${n}.allow`);
        if (allow) t.allow = allow;
        else delete t.allow;
        return [n, t];
      }),
    );
  }
  return out;
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
