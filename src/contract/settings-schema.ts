/**
 * The one settings schema: every key of `.thclaws/settings.json` with its default and the reason for it, used
 * by the runtime and the CLI (`core/agent/settings.ts` merges the layers) and by the dashboard (`SettingsViewSchema`
 * in `api.ts` picks its keys from here). Adding a key is one edit in this file. Unknown keys are kept (newer
 * versions add keys).
 */
import { z } from 'zod';
import { ModelNameSchema } from './model-name.js';
import { DEFAULT_MODEL } from './models.js';
import { TEAM_POLICY } from './policy.js';
import { McpServers } from './mcp-config.js';
import { LEAD, USER } from './limits.js';

/** How a lead starts its teammates. */
export const TEAMMATE_MODES = ['auto', 'tmux', 'background', 'host'] as const;
export type TeammateMode = (typeof TEAMMATE_MODES)[number];
/**
 * The permission modes a setting or a member spec may name: `ask` forwards what no rule allows, `auto` asks
 * nothing. A session adds `acceptEdits` and `plan` (core/agent/permissions.ts), which are never stored.
 */
export const PERMISSION_MODES = ['ask', 'auto'] as const;
export type StoredPermissionMode = (typeof PERMISSION_MODES)[number];

export const RetrySchema = z.object({
  /** Attempts after the first on 429/529/5xx/network errors: ~1 min of backoff rides out a short overload. */
  maxRetries: z.number().int().min(0).max(20).default(4),
  /** First backoff; doubled per attempt with jitter. */
  baseDelayMs: z.number().int().min(0).default(1000),
  /** Cap of one backoff (and of a server's retry-after) so a turn never stalls for minutes. */
  maxDelayMs: z.number().int().min(0).default(30_000),
});

/** A provider profile's name: the `<profile>` of `--model <profile>/<model>`. */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;

/** What is known of one model of a profile; anything left out is unknown (no price: cost `$?`). */
export const ProfileModelSchema = z.looseObject({
  contextWindow: z.number().int().min(1).optional(),
  maxOutput: z.number().int().min(1).optional(),
  /** USD per million tokens; `cachedInput` (prompt tokens the server reports cached) defaults to `input`. */
  price: z.object({ input: z.number().min(0), output: z.number().min(0), cachedInput: z.number().min(0).optional() }).optional(),
});

/**
 * A named OpenAI-compatible server (Ollama, vLLM, LM Studio, llama.cpp, OpenRouter, OpenAI). No `apiKeyEnv`:
 * no key is sent. Until the folder is trusted a project's profile is ignored unless it sends only to a host
 * and with a key variable the person's own profiles already do (provider-profiles.ts).
 */
export const ProviderProfileSchema = z.looseObject({
  type: z.literal('openai-compatible'),
  baseURL: z.url({ protocol: /^https?$/ }),
  apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name').optional(),
  /** OpenAI's newer models refuse `max_tokens`; most other servers know only `max_tokens`. */
  maxTokensParam: z.enum(['max_tokens', 'max_completion_tokens']).default('max_tokens'),
  models: z.record(z.string().min(1).max(200), ProfileModelSchema).default({}),
});
export type ProviderProfile = z.infer<typeof ProviderProfileSchema>;

/** A spending limit in USD, tokens (input + output + cache), or both; whichever is reached first counts. */
export const BudgetLimitSchema = z
  .object({ usd: z.number().positive().max(1e9).optional(), tokens: z.number().int().positive().max(1e15).optional() })
  .refine((l) => l.usd !== undefined || l.tokens !== undefined, 'a budget needs usd or tokens');
export type BudgetLimit = z.infer<typeof BudgetLimitSchema>;

/** A role's or teammate's name as a budget key: `__proto__` refused by name (zod would drop it without a word). */
const budgetKey = z.string().min(1).max(64).refine((k) => k !== '__proto__', 'a budget cannot be named "__proto__"');

/** Budgets per teammate (by name), per role (matched like roleModels) and for the whole team. */
export const BudgetsSchema = z.looseObject({
  team: BudgetLimitSchema.nullish(),
  roles: z.record(budgetKey, BudgetLimitSchema).default({}),
  teammates: z.record(budgetKey, BudgetLimitSchema).default({}),
});
export type Budgets = z.infer<typeof BudgetsSchema>;

/** Dependency folders a new worktree reuses from the lead's checkout when their lockfile matches. */
export const DEFAULT_REUSE_DIRS = ['node_modules', '.venv', 'target', 'vendor/bundle'] as const;

/** Ports are handed out in blocks of this many: the lead the first, each teammate one of its own after it. */
export const PORT_BLOCK = 10;

/** How a teammate's new worktree is made ready to build and test in (core/teams/bootstrap.ts). */
export const WorktreeSettingsSchema = z.looseObject({
  /** A shell command run once in each new worktree, in the teammate's OS sandbox, after the copies; failing fails the spawn. */
  setup: z.string().trim().min(1).max(2000).optional(),
  /** Folders (relative to the project root) cloned from the lead's checkout when the lockfile matches: reflink, else hard links. */
  reuse: z.array(z.string().min(1).max(200).refine((d) => !d.split('/').includes('..') && !d.startsWith('/'), 'a folder inside the project')).max(50).default([...DEFAULT_REUSE_DIRS]),
  /** First port of the lead's block; teammates get the blocks after it. Above the usual dev ports (3000, 5173, 8080). */
  portBase: z.number().int().min(1024).max(65_535 - 64 * PORT_BLOCK).default(4100),
});
export type WorktreeSettings = z.infer<typeof WorktreeSettingsSchema>;

/**
 * A machine teammates may run on (docs/remote.md, "Teammates on other machines"): `ssh` is `[user@]host` (an
 * alias of the person's ssh config) or `ssh://[user@]host[:port]`; `dir` is where the teammates' clones go there
 * (`~/…` is that user's home); `bin` the program there. Only the user's own settings define one.
 */
export const RemoteHostSchema = z.object({
  ssh: z.string().trim().min(1).max(300).refine((s) => !s.startsWith('-') && !/[\s'"`$;&|<>]/.test(s), 'an ssh target: [user@]host or ssh://[user@]host[:port]'),
  dir: z.string().trim().min(1).max(1000).default('~/thclaws/work'),
  maxTeammates: z.number().int().min(1).max(64).default(8),
  bin: z.string().trim().min(1).max(1000).default('thclaws'),
});
export type RemoteHost = z.infer<typeof RemoteHostSchema>;
export const HOST_NAME = PROFILE_NAME;
/** The name of one of the user's hosts (settings `hosts`). */
export const HostNameSchema = z.string().regex(HOST_NAME, 'a host name: letters, digits, - and _');

export const SettingsSchema = z.looseObject({
  /** Agent Teams feature flag: off unless a project opts in. */
  teamEnabled: z.boolean().default(false),
  /** Default model id or alias (`sonnet`, `opus`, `haiku`); `--model` overrides. The current Sonnet (models.json). */
  model: ModelNameSchema.default(DEFAULT_MODEL),
  /** Thinking effort (`--effort`); absent = the model's own default. */
  effort: z.enum(['low', 'medium', 'high', 'xhigh', 'max']).optional(),
  /**
   * `summarized` returns thinking text (shown dimmed; on 5.5 models the text between tool calls arrives as
   * thinking, so `omitted` leaves a silent screen between tool calls); `omitted` returns only signatures.
   */
  thinkingDisplay: z.enum(['summarized', 'omitted']).default('summarized'),
  /** `anthropic` needs a key; `scripted` plays a JSON script (tests, demo). A `<profile>/<model>` model uses its profile. */
  provider: z.enum(['anthropic', 'scripted']).default('anthropic'),
  /** Named OpenAI-compatible provider profiles; `--model <profile>/<model>` picks one. Layers merge by name. */
  providers: z.record(z.string().regex(PROFILE_NAME, 'a profile name: letters, digits, - and _'), ProviderProfileSchema).default({}),
  /** How teammates are started: `auto` picks tmux when available, else background. */
  teammateMode: z.enum(TEAMMATE_MODES).default('auto'),
  /** Machines teammates may run on, by name (user settings only: a project may name one, never add or change one). */
  hosts: z.record(HostNameSchema, RemoteHostSchema).default({}),
  /** Where a teammate runs when neither SpawnTeammate nor its member names a host: here, or spread over `hosts`. */
  placement: z.enum(['local', 'spread']).default('local'),
  /** Live teammates per team; a spawn past it is refused. Nested or runaway spawns burn a person's limits. */
  maxLiveTeammates: z.number().int().min(1).max(64).default(TEAM_POLICY.maxLiveTeammates),
  /**
   * Model per teammate role (`{ "reviewer": "opus" }`, matched to a member's role ignoring case and surrounding
   * spaces). A spawn's model is the one SpawnTeammate or TeamCreate names, else its role's, else `model`.
   */
  roleModels: z.record(z.string().min(1).max(64), ModelNameSchema).default({}),
  /**
   * Spending limits: at 80 % the lead and the dashboard are told; at 100 % a teammate finishes the tool call
   * it is in, parks its task and waits until the budget is raised. `thclaws team budget` sets them per team.
   */
  budgets: BudgetsSchema.default({ roles: {}, teammates: {} }),
  /** Who approves a teammate's plan: the person (CLI `thclaws team approve`, the dashboard) or the lead agent. */
  planApprover: z.enum([LEAD, USER]).default('user'),
  /** Who answers a teammate's permission request: the person, or the lead agent through AnswerApproval. */
  permissionApprover: z.enum([LEAD, USER]).default('user'),
  /** A teammate's unanswered request is denied after this long (and the teammate is told so). */
  /** At most a timer's range (~24.8 days): past it Node fires at once. */
  approvalTimeoutMs: z.number().int().min(1000).max(2_147_483_647).default(600_000),
  /**
   * Teammates' permission mode, never inherited from the lead's own: `ask` forwards every Bash command and
   * every write outside the teammate's worktree that no rule allows; `auto` accepts everything (opt-in).
   */
  teammatePermissionMode: z.enum(PERMISSION_MODES).default('ask'),
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
      z.looseObject({ permissionMode: z.enum(PERMISSION_MODES).optional(), allow: z.array(z.string().min(1)).optional(), planModeRequired: z.boolean().optional() }),
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
  permissionMode: z.enum(PERMISSION_MODES).default('ask'),
  /**
   * The team and the machine: a spawn is refused while the machine's free memory (MemAvailable) is under
   * `minFreeMemoryMb` (256 MB: a teammate and its tools need at least that; 0 turns the check off);
   * `updateAfterLanding` merges the lead's branch into every idle teammate's worktree after each landing.
   */
  team: z
    .looseObject({ minFreeMemoryMb: z.number().int().min(0).max(1_048_576).default(256), updateAfterLanding: z.boolean().default(false) })
    .default({ minFreeMemoryMb: 256, updateAfterLanding: false }),
  /** A teammate's new worktree: its setup command, the dependency folders it reuses, the ports' base. */
  worktree: WorktreeSettingsSchema.default({ reuse: [...DEFAULT_REUSE_DIRS], portBase: 4100 }),
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
  /**
   * MCP servers every agent of this user (user settings) or project connects to, as in `.mcp.json`. A project
   * layer's servers run commands: they count only in a trusted folder.
   */
  mcpServers: McpServers.default({}),
  /**
   * A team on another machine (`thclaws dashboard --remote`): `ssh` the command that reaches it (words, as
   * git's GIT_SSH_COMMAND; env THCLAWS_SSH wins), `bin` the thclaws program there. Read from the user's
   * settings only: a project's settings never choose the command run on this machine.
   */
  remote: z.looseObject({ ssh: z.string().min(1).max(2000).optional(), bin: z.string().min(1).max(1000).optional() }).optional(),
});

export type Settings = z.infer<typeof SettingsSchema>;

let layerSchema: ReturnType<typeof SettingsSchema.partial> | undefined;
/**
 * One settings file alone: every key optional. Built once: zod compiles each new schema object on its first
 * parse, and a `.partial()` per call made every settings patch pay that (most of 8 dashboards' patch CPU).
 */
export function settingsLayerSchema(): ReturnType<typeof SettingsSchema.partial> {
  return (layerSchema ??= SettingsSchema.partial());
}

export function defaultSettings(): Settings {
  return SettingsSchema.parse({});
}

/** The model configured for a member's role, if any (`roleModels` keys match ignoring case and outer spaces). */
export function roleModelFor(roleModels: Readonly<Record<string, string>>, role: string | null | undefined): string | null {
  const want = (role ?? '').trim().toLowerCase();
  if (!want) return null;
  for (const [r, m] of Object.entries(roleModels)) if (r.trim().toLowerCase() === want) return m;
  return null;
}

/**
 * The same keys with every default removed and each optional: a patch names only what it changes (zod fills a
 * default even inside `.partial()`, which would reset every key the patch leaves out).
 */
export function patchSchemaOf<S extends z.ZodRawShape>(schema: z.ZodObject<S>) {
  const shape = Object.fromEntries(Object.entries(schema.shape).map(([k, v]) => [k, ((v instanceof z.ZodDefault ? v.unwrap() : v) as z.ZodType).optional()]));
  return z.object(shape) as unknown as z.ZodObject<{ [K in keyof S]: z.ZodOptional<S[K] extends z.ZodDefault<infer T> ? T : S[K]> }>;
}
