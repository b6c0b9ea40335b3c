/**
 * Settings: project `.thclaws/settings.json` over user `~/.config/thclaws/settings.json` over defaults.
 * Every policy constant of the agent lives here with its default and the reason for it.
 * Unknown keys are kept (other issues and newer versions add keys); a bad value names its key.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_MODEL } from './models.js';
import { isTrusted, looseningKeys, withoutLoosening } from './trust.js';

export const RetrySchema = z.object({
  /** Attempts after the first on 429/529/5xx/network errors: ~1 min of backoff rides out a short overload. */
  maxRetries: z.number().int().min(0).max(20).default(4),
  /** First backoff; doubled per attempt with jitter. */
  baseDelayMs: z.number().int().min(0).default(1000),
  /** Cap of one backoff (and of a server's retry-after) so a turn never stalls for minutes. */
  maxDelayMs: z.number().int().min(0).default(30_000),
});

export const SettingsSchema = z.looseObject({
  /** Agent Teams feature flag: off unless a project opts in. */
  teamEnabled: z.boolean().default(false),
  /** Default model id or alias (`sonnet`, `opus`, `haiku`); `--model` overrides. The current Sonnet (models.json). */
  model: z.string().min(1).default(DEFAULT_MODEL),
  /** Thinking effort (`--effort`); absent = the model's own default. */
  effort: z.enum(['low', 'medium', 'high', 'xhigh', 'max']).optional(),
  /**
   * `summarized` returns thinking text (shown dimmed; on 5.5 models the text between tool calls arrives as
   * thinking, so `omitted` leaves a silent screen between tool calls); `omitted` returns only signatures.
   */
  thinkingDisplay: z.enum(['summarized', 'omitted']).default('summarized'),
  /** `anthropic` needs a key; `scripted` plays a JSON script (tests, demo). */
  provider: z.enum(['anthropic', 'scripted']).default('anthropic'),
  /** How teammates are started (teams issue): pick tmux when available, else background. */
  teammateMode: z.enum(['auto', 'tmux', 'background', 'host']).default('auto'),
  /** Who approves a teammate's plan: the person (CLI `thclaws team approve`, the dashboard) or the lead agent. */
  planApprover: z.enum(['lead', 'user']).default('user'),
  /** Who answers a teammate's permission request: the person, or the lead agent through AnswerApproval. */
  permissionApprover: z.enum(['lead', 'user']).default('user'),
  /** A teammate's unanswered request is denied after this long (and the teammate is told so). */
  /** At most a timer's range (~24.8 days): past it Node fires at once. */
  approvalTimeoutMs: z.number().int().min(1000).max(2_147_483_647).default(600_000),
  /**
   * Teammates' permission mode, never inherited from the lead's own: `ask` forwards every Bash command and
   * every write outside the teammate's worktree that no rule allows; `auto` accepts everything (opt-in).
   */
  teammatePermissionMode: z.enum(['ask', 'auto']).default('ask'),
  /**
   * Bash commands that would ask run without asking while the OS sandbox is actually on for that agent (never
   * when it is unavailable or off); ask and deny rules still hold. Off by default: the person's choice.
   */
  autoAllowSandboxedBash: z.boolean().default(false),
  /** Allow rules for every teammate (`Bash(npm test:*)`); team-scoped "always" answers add here. */
  teammateAllow: z.array(z.string().min(1)).default([]),
  /** Per-teammate choices: `{ "alice": { "permissionMode": "auto", "allow": [...], "planModeRequired": true } }`. */
  teammates: z
    .record(
      z.string(),
      z.looseObject({ permissionMode: z.enum(['ask', 'auto']).optional(), allow: z.array(z.string().min(1)).optional(), planModeRequired: z.boolean().optional() }),
    )
    .default({}),
  /**
   * Team hooks as Claude Code writes them: `{ "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command",
   * "command": "…", "timeout": 30 }] }] }`; validated by the teams runtime (src/core/teams/hooks.ts).
   */
  hooks: z.record(z.string(), z.unknown()).default({}),
  /** Every teammate starts in plan mode: no Write/Edit/Bash/TeamTaskComplete until its plan is approved. */
  planModeRequired: z.boolean().default(false),
  /** `ask`: Write/Edit/Bash ask the person; `auto`: no asking (role guards still apply). */
  permissionMode: z.enum(['ask', 'auto']).default('ask'),
  /** Commands the merge panel runs in the integration worktree before it lands anything (`["npm test"]`). */
  checks: z.array(z.string().min(1).max(2000)).max(20).default([]),
  /** Model calls per prompt before giving up: stops a looping model from burning tokens. */
  maxIterations: z.number().int().min(1).max(1000).default(50),
  /** Output token budget per model call: room for a large file write in one tool call. */
  maxTokens: z.number().int().min(1).max(128_000).default(16_000),
  /** Bash timeout when the model gives none: long enough for a test suite, short enough to notice a hang. */
  bashTimeoutMs: z.number().int().min(1000).default(120_000),
  /** Upper bound the model may ask for. */
  bashMaxTimeoutMs: z.number().int().min(1000).default(600_000),
  /** SIGTERM → SIGKILL grace for a Bash process group on timeout or abort. */
  bashKillGraceMs: z.number().int().min(0).default(2000),
  /** Cap of one tool result sent to the model (~8k tokens): more drowns the context. */
  toolOutputMaxChars: z.number().int().min(1000).default(30_000),
  /** Read: lines returned when no limit is given. */
  readDefaultLines: z.number().int().min(1).default(2000),
  /** Glob/Grep: entries listed before truncating. */
  searchMaxResults: z.number().int().min(1).default(500),
  /** Grep skips files above this size: they are data, not source. */
  grepMaxFileBytes: z.number().int().min(1).default(2_000_000),
  retry: RetrySchema.default({ maxRetries: 4, baseDelayMs: 1000, maxDelayMs: 30_000 }),
  /**
   * Rules for every agent, lead and teammates: `allow` runs without asking (`Bash(npm test:*)`, `Write(src/)`;
   * "always" answers add to the local file); `ask` asks even when an allow rule, the teammate's own worktree
   * or `auto` mode would let it run (`Bash(git push:*)`, `Write(src/**)`, `WebFetch`); `deny` refuses.
   * deny > ask > allow. Ask and deny only tighten, so they hold in untrusted folders too.
   */
  permissions: z
    .looseObject({ allow: z.array(z.string().min(1)).default([]), ask: z.array(z.string().min(1)).default([]), deny: z.array(z.string().min(1)).default([]) })
    .default({ allow: [], ask: [], deny: [] }),
});

export type Settings = z.infer<typeof SettingsSchema>;

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
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
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
  const res = SettingsSchema.partial().safeParse(raw);
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
}

/**
 * Loads user, project, then local project settings (later wins, shallow merge; `retry` merges one level
 * deeper, `permissions.allow|ask|deny` lists add up). In an untrusted folder, project keys that loosen permissions
 * are ignored and reported.
 */
export function loadSettings(projectRoot: string, env: NodeJS.ProcessEnv = process.env, opts: LoadOptions = {}): LoadedSettings {
  const user = userSettingsPath(env);
  const files = [user, projectSettingsPath(projectRoot), localSettingsPath(projectRoot)];
  let merged: Record<string, unknown> = {};
  const sources: string[] = [];
  const ignored: string[] = [];
  let trusted = opts.trusted;
  const allow: string[] = [];
  const ask: string[] = [];
  const deny: string[] = [];
  const teammateAllow: string[] = [];
  const teammates: Record<string, Record<string, unknown>> = {};
  for (const file of files) {
    if (!existsSync(file)) continue;
    let raw = readJsonObject(file);
    checkLayer(file, raw);
    if (file !== user) {
      const loose = looseningKeys(raw);
      if (loose.length && (trusted ??= isTrusted(projectRoot, env)) === false) {
        ignored.push(...loose.map((k) => `${file}: ${k}`));
        raw = withoutLoosening(raw);
      }
    }
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
    const retry = { ...(merged.retry as object | undefined), ...(raw.retry as object | undefined) };
    merged = { ...merged, ...raw };
    if (raw.retry !== undefined || merged.retry !== undefined) merged.retry = retry;
    sources.push(file);
  }
  // Every layer's rules count: a later layer cannot drop an earlier layer's ask or deny rule.
  if (allow.length || ask.length || deny.length) merged.permissions = { ...(merged.permissions as object | undefined), allow: [...new Set(allow)], ask: [...new Set(ask)], deny: [...new Set(deny)] };
  if (teammateAllow.length) merged.teammateAllow = [...new Set(teammateAllow)];
  if (Object.keys(teammates).length) merged.teammates = teammates;
  const res = SettingsSchema.safeParse(merged);
  if (!res.success) {
    const issue = res.error.issues[0]!;
    throw new SettingsError(`invalid settings: key "${issue.path.join('.')}": ${issue.message}`);
  }
  return { settings: res.data, sources, ignored };
}

export function defaultSettings(): Settings {
  return SettingsSchema.parse({});
}

/** Adds an allow rule to the local project settings (an "always" answer), keeping every other key. */
export function addAllowRule(projectRoot: string, rule: string): void {
  const file = localSettingsPath(projectRoot);
  const raw = existsSync(file) ? readJsonObject(file) : {};
  const perms = (raw.permissions && typeof raw.permissions === 'object' ? raw.permissions : {}) as { allow?: unknown };
  const allow = Array.isArray(perms.allow) ? perms.allow : [];
  if (allow.includes(rule)) return;
  raw.permissions = { ...perms, allow: [...allow, rule] };
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(raw, null, 2)}\n`);
  renameSync(tmp, file);
}

/** Stores a teammate's "always" answer in the local project settings: for one teammate, or the whole team. */
export function addTeammateAllowRule(projectRoot: string, rule: string, agent: string | null): void {
  const file = localSettingsPath(projectRoot);
  const raw = existsSync(file) ? readJsonObject(file) : {};
  if (agent === null) {
    const list = Array.isArray(raw.teammateAllow) ? (raw.teammateAllow as unknown[]) : [];
    if (list.includes(rule)) return;
    raw.teammateAllow = [...list, rule];
  } else {
    const all = (raw.teammates && typeof raw.teammates === 'object' ? raw.teammates : {}) as Record<string, Record<string, unknown>>;
    const mine = all[agent] ?? {};
    const list = Array.isArray(mine.allow) ? (mine.allow as unknown[]) : [];
    if (list.includes(rule)) return;
    raw.teammates = { ...all, [agent]: { ...mine, allow: [...list, rule] } };
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(raw, null, 2)}\n`);
  renameSync(tmp, file);
}
