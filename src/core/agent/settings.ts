/**
 * Settings: project `.thclaws/settings.json` over user `~/.config/thclaws/settings.json` over defaults.
 * The keys, their defaults and the reason for each live in `contract/settings-schema.ts` (one schema for the runtime,
 * the CLI and the dashboard); this module reads and merges the layers. A bad value names its file and key.
 */
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SettingsSchema, settingsLayerSchema, type Settings } from '../../contract/settings-schema.js';
import { isTrusted, looseningKeys, ownAllowed, rememberAllowed, withOwn, withoutLoosening } from './trust.js';
import { untrustedProfileKeys } from './provider-profiles.js';
import { editFileLocked } from '../store/index.js';

export { defaultSettings, RetrySchema, SettingsSchema, type Settings } from '../../contract/settings-schema.js';

export class SettingsError extends Error {
  override name = 'SettingsError';
}

export function userSettingsPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config');
  return path.join(base, 'thclaws', 'settings.json');
}

export function projectSettingsPath(projectRoot: string): string {
  return path.join(projectRoot, '.thclaws', 'settings.json');
}

/** The person's own project settings ("always" answers land here); never meant to be committed. */
export function localSettingsPath(projectRoot: string): string {
  return path.join(projectRoot, '.thclaws', 'settings.local.json');
}

function readJsonObject(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new SettingsError(`invalid settings file ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return parseJsonObject(file, text);
}

function parseJsonObject(file: string, text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new SettingsError(`invalid settings file ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new SettingsError(`invalid settings file ${file}: expected a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

/** Validates one layer alone so the error names the file and the key. */
function checkLayer(file: string, raw: Record<string, unknown>): void {
  const res = settingsLayerSchema().safeParse(raw);
  if (!res.success) {
    const issue = res.error.issues[0]!;
    const key = issue.path.join('.') || '(root)';
    throw new SettingsError(`invalid settings file ${file}: key "${key}": ${issue.message}`);
  }
}

export interface LoadedSettings {
  settings: Settings;
  /** Files that existed and were merged, lowest precedence first. */
  sources: string[];
  /** `file: key` of project keys ignored because the folder is not trusted (they would loosen permissions). */
  ignored: string[];
}

export interface LoadOptions {
  /** Whether the project folder is trusted; default: the user's trust list says so. */
  trusted?: boolean;
  /** The layers to read (the Agent SDK's settingSources); default all. */
  sources?: readonly ('user' | 'project' | 'local')[];
}

/**
 * Loads user, project, then local project settings (later wins, shallow merge; `retry`, `team` and `worktree` merge one level
 * deeper, `permissions.allow|ask|deny` lists add up). In an untrusted folder, project keys that loosen permissions
 * are ignored and reported.
 */
export function loadSettings(projectRoot: string, env: NodeJS.ProcessEnv = process.env, opts: LoadOptions = {}): LoadedSettings {
  const user = userSettingsPath(env);
  const layers = [['user', user], ['project', projectSettingsPath(projectRoot)], ['local', localSettingsPath(projectRoot)]] as const;
  const files = layers.filter(([name]) => !opts.sources || opts.sources.includes(name)).map(([, file]) => file);
  let merged: Record<string, unknown> = {};
  const sources: string[] = [];
  const ignored: string[] = [];
  let trusted = opts.trusted;
  const allow: string[] = [];
  const ask: string[] = [];
  const deny: string[] = [];
  const teammateAllow: string[] = [];
  const teammates: Record<string, Record<string, unknown>> = {};
  let mcpServers: Record<string, unknown> = {};
  const providers: Record<string, unknown> = {};
  let userRaw: Record<string, unknown> | undefined;
  for (const file of files) {
    if (!existsSync(file)) continue;
    let raw = readJsonObject(file);
    checkLayer(file, raw);
    if (file === user) userRaw = raw;
    else {
      // Machines are the person's alone: a project's `hosts` would send its code and the lead's key anywhere.
      if (raw.hosts !== undefined) {
        ignored.push(`${file}: hosts (only your user settings define hosts; a project may only name one)`);
        const { hosts: _dropped, ...rest } = raw;
        raw = rest;
      }
      // The person's own "Always" rules loosen nothing the folder brought (trust.ts).
      const own = looseningKeys(raw).length ? ownAllowed(raw, projectRoot, env) : new Map<string, string[]>();
      const loose = looseningKeys(withOwn(raw, own, false));
      const newHosts = untrustedProfileKeys(raw, userRaw);
      if ((loose.length || newHosts.length) && (trusted ??= isTrusted(projectRoot, env)) === false) {
        ignored.push(...[...loose, ...newHosts].map((k) => `${file}: ${k}`));
        raw = withOwn(withoutLoosening(raw), own, true);
        if (newHosts.length) {
          const kept = { ...(raw.providers as Record<string, unknown>) };
          for (const k of newHosts) delete kept[k.slice('providers.'.length)];
          raw = { ...raw, providers: kept };
        }
      }
    }
    // Profiles merge by name: a project adds its own without dropping the person's.
    Object.assign(providers, (raw.providers as Record<string, unknown> | undefined) ?? {});
    const perms = raw.permissions as { allow?: string[]; ask?: string[]; deny?: string[] } | undefined;
    allow.push(...(perms?.allow ?? []));
    ask.push(...(perms?.ask ?? []));
    deny.push(...(perms?.deny ?? []));
    // Teammate rules add up across layers like `permissions.allow`; per-teammate entries merge by name.
    teammateAllow.push(...((raw.teammateAllow as string[] | undefined) ?? []));
    for (const [name, t] of Object.entries((raw.teammates as Record<string, Record<string, unknown>> | undefined) ?? {})) {
      const prev = teammates[name] ?? {};
      const rules = [...((prev.allow as string[] | undefined) ?? []), ...((t.allow as string[] | undefined) ?? [])];
      teammates[name] = { ...prev, ...t, ...(rules.length ? { allow: [...new Set(rules)] } : {}) };
    }
    // MCP servers merge by name: a project's server does not drop the user's others.
    mcpServers = { ...mcpServers, ...(raw.mcpServers as Record<string, unknown> | undefined) };
    const retry = { ...(merged.retry as object | undefined), ...(raw.retry as object | undefined) };
    const team = { ...(merged.team as object | undefined), ...(raw.team as object | undefined) };
    const worktree = { ...(merged.worktree as object | undefined), ...(raw.worktree as object | undefined) };
    merged = { ...merged, ...raw };
    if (raw.retry !== undefined || merged.retry !== undefined) merged.retry = retry;
    if (raw.team !== undefined || merged.team !== undefined) merged.team = team;
    if (raw.worktree !== undefined || merged.worktree !== undefined) merged.worktree = worktree;
    sources.push(file);
  }
  // Every layer's rules count: a later layer cannot drop an earlier layer's ask or deny rule.
  if (allow.length || ask.length || deny.length) merged.permissions = { ...(merged.permissions as object | undefined), allow: [...new Set(allow)], ask: [...new Set(ask)], deny: [...new Set(deny)] };
  if (teammateAllow.length) merged.teammateAllow = [...new Set(teammateAllow)];
  if (Object.keys(teammates).length) merged.teammates = teammates;
  if (Object.keys(mcpServers).length) merged.mcpServers = mcpServers;
  if (Object.keys(providers).length) merged.providers = providers;
  const res = SettingsSchema.safeParse(merged);
  if (!res.success) {
    const issue = res.error.issues[0]!;
    throw new SettingsError(`invalid settings: key "${issue.path.join('.')}": ${issue.message}`);
  }
  return { settings: res.data, sources, ignored };
}

/**
 * The one writer of a settings file (user, project or local): read, edited and written under the file's lock
 * (the store's), every other key kept, so writers in different processes never drop each other's keys. A file
 * that is not a JSON object is an error, never overwritten. `edit` returns the next object (it may throw to
 * refuse), or null when nothing changes; the object as written (or as it was) is returned.
 */
export function editSettingsFile(file: string, edit: (raw: Record<string, unknown>) => Record<string, unknown> | null): Promise<Record<string, unknown>> {
  return editFileLocked(file, (current) => {
    if (current.kind === 'unreadable') throw new SettingsError(`invalid settings file ${file}: ${current.reason}`);
    const raw = current.kind === 'ok' ? parseJsonObject(file, current.text) : {};
    const next = edit(raw);
    return next === null ? { write: null, result: raw } : { write: `${JSON.stringify(next, null, 2)}\n`, result: next };
  });
}

/** Adds an allow rule to the local project settings (an "always" answer), keeping every other key. */
export async function addAllowRule(projectRoot: string, rule: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  await editPermissionRules(localSettingsPath(projectRoot), 'allow', (list) => (list.includes(rule) ? list : [...list, rule]));
  rememberAllowed(projectRoot, 'permissions.allow', rule, env);
}

/** Rewrites one `permissions.<kind>` list of a settings file (created if absent); other keys are kept. */
export async function editPermissionRules(file: string, kind: 'allow' | 'ask' | 'deny', edit: (list: unknown[]) => unknown[]): Promise<void> {
  await editSettingsFile(file, (raw) => {
    const perms = (raw.permissions && typeof raw.permissions === 'object' ? raw.permissions : {}) as Record<string, unknown>;
    const before = Array.isArray(perms[kind]) ? (perms[kind] as unknown[]) : [];
    const after = edit(before);
    if (after.length === before.length && after.every((r, i) => r === before[i])) return null;
    return { ...raw, permissions: { ...perms, [kind]: after } };
  });
}

/** Stores a teammate's "always" answer in the local project settings: for one teammate, or the whole team. */
export async function addTeammateAllowRule(projectRoot: string, rule: string, agent: string | null, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  rememberAllowed(projectRoot, agent === null ? 'teammateAllow' : `teammates.${agent}.allow`, rule, env);
  await editSettingsFile(localSettingsPath(projectRoot), (raw) => {
    if (agent === null) {
      const list = Array.isArray(raw.teammateAllow) ? (raw.teammateAllow as unknown[]) : [];
      return list.includes(rule) ? null : { ...raw, teammateAllow: [...list, rule] };
    }
    const all = (raw.teammates && typeof raw.teammates === 'object' ? raw.teammates : {}) as Record<string, Record<string, unknown>>;
    const mine = all[agent] ?? {};
    const list = Array.isArray(mine.allow) ? (mine.allow as unknown[]) : [];
    return list.includes(rule) ? null : { ...raw, teammates: { ...all, [agent]: { ...mine, allow: [...list, rule] } } };
  });
}
