/** Turns CLI options, env and settings into a ready Agent (provider, tools, permissions, session). */
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { Agent } from '../../core/agent/agent.js';
import { agentsDir, loadAgentDefs, type AgentDef } from '../../core/agent/agent-defs.js';
import { resolveModelAlias } from '../../contract/models.js';
import { chooseModel } from '../../core/agent/model-choice.js';
import { priceFor } from '../../core/agent/cost.js';
import { SessionPermissionChecker, type PermissionMode } from '../../core/agent/permissions.js';
import { ApiKeyError, ApiKeyStore } from '../../core/agent/api-key.js';
import { AnthropicProvider } from '../../core/agent/providers/anthropic.js';
import { DEFAULT_SCRIPT, ScriptedProvider, loadScriptFile } from '../../core/agent/providers/scripted.js';
import type { Provider } from '../../core/agent/providers/types.js';
import { ProviderError, type ThinkingSetting } from '../../core/agent/providers/types.js';
import { SessionError, SessionStore } from '../../core/agent/sessions.js';
import { SettingsError, addAllowRule, loadSettings, type LoadedSettings } from '../../core/agent/settings.js';
import { trustFolder } from '../../core/agent/trust.js';
import { profileProviders, registerProfileModels } from '../../core/agent/provider-profiles.js';
import { buildSystemPrompt } from '../../core/agent/system-prompt.js';
import { builtinTools } from '../../core/agent/tools/index.js';
import { ShellRegistry } from '../../core/agent/tools/shells.js';
import { exitPlanModeTool } from '../../core/agent/tools/exit-plan-mode.js';
import type { Approver } from '../../core/agent/types.js';
import type { CommandGuard, Role } from '../../core/guard/types.js';
import type { AgentCliOptions } from './options.js';
import { CliError } from '../errors.js';
import { agentHooks, type RuntimeInfo } from './hooks.js';
import { setupSandbox } from './sandbox-setup.js';
import { hiddenBy, setupMcp, untrustedMcpJson } from './mcp-setup.js';
import type { McpServers } from '../../core/agent/mcp/servers.js';
import type { StructuredOutput } from '../../core/agent/structured-output.js';
import { modelNameProblem } from '../../contract/model-name.js';
import { teamProjectRoot } from '../../core/teams/roots.js';

export const NO_KEY_MESSAGE = 'no API key: set ANTHROPIC_API_KEY, add one in the dashboard (thclaws dashboard), or run with --provider scripted --script <file>';

export interface Runtime {
  agent: Agent;
  info: RuntimeInfo;
  permissions: SessionPermissionChecker;
  mode: PermissionMode;
  /** From a hook; undefined means the CLI picks (REPL question, or deny without a person). */
  approver?: Approver;
  resumed: boolean;
  /** The OS sandbox around this agent's Bash; `warm` readies its probe and wrapped line ahead of a command. */
  sandbox: { warm(): Promise<void> };
  /** Connected MCP servers (their tools are among the agent's). */
  mcp: McpServers;
  /** The thinking the session started with (`set_max_thinking_tokens` with null goes back to it). */
  startThinking?: ThinkingSetting;
  /** `--disallowedTools`: the Agent SDK's servers added later are held to them too. */
  disallowedTools?: string[];
  /** The process groups of the agent's Bash commands (killed when it ends). */
  shells: ShellRegistry;
}

function resolveCwd(dir: string | undefined): string {
  if (!dir) return process.cwd();
  const abs = path.resolve(dir);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) throw new CliError(`--cwd: not a directory: ${dir}`);
  process.chdir(abs);
  return abs;
}

/** `--add-dir`: each an existing directory, canonical (symlinks resolved, as the sandbox compares real paths). */
function addedDirs(dirs: string[] | undefined, cwd: string): string[] {
  return [...new Set((dirs ?? []).map((d) => {
    const abs = path.resolve(cwd, d);
    if (!existsSync(abs) || !statSync(abs).isDirectory()) throw new CliError(`--add-dir: not a directory: ${d}`);
    return realpathSync(abs);
  }))];
}

/** Teammate flags become env (THCLAWS_TEAM_AGENT, THCLAWS_TEAM_DIR) so every subprocess inherits them. */
function applyTeamFlags(opts: AgentCliOptions, cwd: string): { agentName?: string; role: Role } {
  if (opts.teamAgent) process.env.THCLAWS_TEAM_AGENT = opts.teamAgent;
  if (opts.teamDir) process.env.THCLAWS_TEAM_DIR = path.resolve(cwd, opts.teamDir);
  // The project's team, also from a teammate's worktree (started by hand there).
  else if (opts.teamAgent && !process.env.THCLAWS_TEAM_DIR) process.env.THCLAWS_TEAM_DIR = path.join(teamProjectRoot(cwd), '.thclaws', 'state', 'team');
  const agentName = opts.teamAgent ?? process.env.THCLAWS_TEAM_AGENT;
  // The team hooks decide `lead` (teamEnabled && no THCLAWS_TEAM_AGENT).
  return { ...(agentName ? { agentName } : {}), role: agentName === 'lead' ? 'lead' : agentName ? 'teammate' : 'solo' };
}

function makeProvider(opts: AgentCliOptions, name: 'anthropic' | 'scripted', retry: { maxRetries: number; baseDelayMs: number; maxDelayMs: number }): Provider {
  if (name === 'scripted') return new ScriptedProvider(opts.script ? loadScriptFile(opts.script) : DEFAULT_SCRIPT);
  if (opts.script) throw new CliError('--script needs --provider scripted');
  const authToken = process.env.ANTHROPIC_AUTH_TOKEN || undefined;
  let apiKey: string | undefined;
  try {
    // The environment first, then the key the person stored in their config directory (the dashboard's "Add an API key").
    apiKey = process.env.ANTHROPIC_API_KEY || (authToken ? undefined : (new ApiKeyStore().read() ?? undefined));
  } catch (err) {
    if (err instanceof ApiKeyError) throw new CliError(err.message, 2);
    throw err;
  }
  if (!apiKey && !authToken) throw new CliError(NO_KEY_MESSAGE, 2);
  return new AnthropicProvider({
    ...(apiKey ? { apiKey } : { authToken }),
    ...(process.env.ANTHROPIC_BASE_URL ? { baseURL: process.env.ANTHROPIC_BASE_URL } : {}),
    retry,
  });
}

/** The team agent's definition; its own file being broken is an error, not a silent loss of its role. */
function agentDefFor(projectRoot: string, agentName: string): AgentDef | undefined {
  const { defs, errors } = loadAgentDefs(agentsDir(projectRoot));
  const def = defs.find((d) => d.name === agentName);
  if (def) return def;
  const own = errors.find((e) => e.startsWith(`${path.join(agentsDir(projectRoot), `${agentName}.md`)}:`));
  if (own) throw new CliError(`agent definition: ${own}`);
  return undefined;
}

const liveShells = new Set<ShellRegistry>();
let fallbacksInstalled = false;

/**
 * A signal's default action ends the process without 'exit' handlers, leaving background shells running:
 * a closed terminal (SIGHUP) or a SIGTERM that no turn is handling kills every group, then exits 128+n.
 * While a turn handles the signal itself (abort, result, exit) this stays out of the way.
 */
function installSignalFallbacks(): void {
  if (fallbacksInstalled) return;
  fallbacksInstalled = true;
  for (const [sig, code] of [['SIGHUP', 129], ['SIGTERM', 143]] as const) {
    process.on(sig, () => {
      if (process.listenerCount(sig) > 1) return;
      for (const s of liveShells) s.killAll();
      process.exit(code);
    });
  }
}

/** Asks the person whether to trust the folder; true = trust (stored in the user's config). */
export type TrustPrompt = (projectRoot: string, ignored: string[]) => Promise<boolean>;

function loadTrustedSettings(projectRoot: string, sources?: AgentCliOptions['settingSources']): LoadedSettings {
  try {
    return loadSettings(projectRoot, process.env, sources ? { sources } : {});
  } catch (err) {
    if (err instanceof SettingsError) throw new CliError(err.message);
    throw err;
  }
}

/** `--max-thinking-tokens N` (0: off) or `--thinking adaptive|disabled`, as the Agent SDK passes its thinking options. */
function thinkingOf(opts: AgentCliOptions): { thinking?: ThinkingSetting } {
  if (opts.thinking !== undefined && opts.maxThinkingTokens !== undefined) throw new CliError('--thinking and --max-thinking-tokens: give one of them');
  if (opts.thinking) return { thinking: { type: opts.thinking } };
  if (opts.maxThinkingTokens === undefined) return {};
  return { thinking: opts.maxThinkingTokens === 0 ? { type: 'disabled' } : { type: 'enabled', budgetTokens: opts.maxThinkingTokens } };
}

/** The structured output of a JSON schema given as text or as parsed JSON; a bad one is one line naming `what`. */
export async function outputSchema(schema: unknown, what: string): Promise<StructuredOutput> {
  // Loaded on use: the validator is needed only with a schema.
  const { StructuredOutput, OutputSchemaError } = await import('../../core/agent/structured-output.js');
  let parsed = schema;
  if (typeof schema === 'string') {
    try {
      parsed = JSON.parse(schema);
    } catch (err) {
      throw new CliError(`${what}: not valid JSON: ${(err as Error).message}`);
    }
  }
  try {
    return new StructuredOutput(parsed as Record<string, unknown>);
  } catch (err) {
    if (err instanceof OutputSchemaError) throw new CliError(`${what}: ${err.message}`);
    throw err;
  }
}

export async function setupRuntime(opts: AgentCliOptions, interactive: boolean, askTrust?: TrustPrompt): Promise<Runtime> {
  const cwd = resolveCwd(opts.cwd);
  const { agentName, role: flagRole } = applyTeamFlags(opts, cwd);
  // A teammate's settings are the project's, wherever its process was started (its worktree, by hand).
  const projectRoot = agentName && agentName !== 'lead' ? teamProjectRoot(cwd) : process.env.THCLAWS_PROJECT_ROOT ? path.resolve(process.env.THCLAWS_PROJECT_ROOT) : cwd;
  if (!existsSync(projectRoot)) throw new CliError(`THCLAWS_PROJECT_ROOT does not exist: ${projectRoot}`);

  let loaded = loadTrustedSettings(projectRoot, opts.settingSources);
  let ignored = [...loaded.ignored, ...untrustedMcpJson(projectRoot)];
  if (ignored.length && askTrust && (await askTrust(projectRoot, ignored))) {
    trustFolder(projectRoot);
    loaded = loadTrustedSettings(projectRoot, opts.settingSources);
    ignored = [...loaded.ignored, ...untrustedMcpJson(projectRoot)];
  }
  if (ignored.length) {
    process.stderr.write(
      `thclaws: ${projectRoot} is not a trusted folder: ignoring project settings that loosen permissions (${ignored.join(', ')}); ` +
        'trust it by answering the question in the REPL, or pass --accept-all\n',
    );
  }
  const settings = loaded.settings;
  const additionalDirs = addedDirs(opts.addDir, cwd);
  const info: RuntimeInfo = { role: flagRole, cwd, projectRoot, settings, interactive, ...(agentName ? { agentName } : {}) };
  for (const h of agentHooks) info.role = h.role?.(info) ?? info.role;
  // A conversation to continue is read before the team hears of this agent: one that cannot be read ends the
  // process before it writes a status, so "Resume team" reports the cause instead of "resumed".
  const resume = opts.resume ?? (opts.continue ? SessionStore.newest(projectRoot, agentName) : undefined);
  if (opts.continue && !resume) throw new CliError(`--continue: no saved session in ${projectRoot}/.thclaws/sessions`);
  // `--no-session-persistence`: nothing on disk (a resumed session is read, and not appended to).
  const persist = opts.sessionPersistence !== false;
  let resumed: ReturnType<typeof SessionStore.resume> | undefined;
  try {
    resumed = resume ? SessionStore.resume(projectRoot, resume, { persist }) : undefined;
  } catch (err) {
    throw err instanceof SessionError ? new CliError(err.message) : err;
  }
  for (const h of agentHooks) await h.prepare?.(info);
  if (additionalDirs.length && info.role === 'teammate') throw new CliError("--add-dir is for a solo or lead session; a teammate works in its own worktree");

  // --script alone means the scripted provider.
  const providerName = opts.provider ?? (opts.script ? 'scripted' : settings.provider);
  const def = agentName ? agentDefFor(projectRoot, agentName) : undefined;
  const problem = opts.model === undefined ? null : modelNameProblem(opts.model);
  if (problem) throw new CliError(`--model: ${problem}`, 2);
  const model = chooseModel({ requested: opts.model, definition: def?.model, settings: settings.model });
  registerProfileModels(settings.providers);
  // A `<profile>/<model>` id talks to its profile's server; a plain id to Anthropic (or the script), whose
  // key is needed only then. The scripted provider plays its script whatever the model is called.
  let plain: Provider | undefined;
  const profiles = providerName === 'scripted' ? undefined : profileProviders(settings.providers, settings.retry);
  const providerFor = (m: string): Provider => profiles?.(m) ?? (plain ??= makeProvider(opts, providerName, settings.retry));
  let provider: Provider;
  try {
    provider = providerFor(model);
  } catch (err) {
    if (err instanceof ProviderError) throw new CliError(err.message, 2);
    throw err;
  }
  const fallbackModels = (opts.fallbackModel ?? []).map(resolveModelAlias);
  for (const m of fallbackModels) {
    if (m === model) throw new CliError(`--fallback-model: ${m} is the main model; a fallback must be another model`);
    try {
      providerFor(m);
    } catch (err) {
      if (err instanceof ProviderError) throw new CliError(`--fallback-model: ${err.message}`, 2);
      throw err;
    }
  }
  // A budget is kept from list prices: a model without one could spend without limit, so it is refused up front.
  if (opts.maxBudgetUsd !== undefined && providerName !== 'scripted') {
    const unpriced = [model, ...fallbackModels].find((m) => !priceFor(m));
    if (unpriced) throw new CliError(`--max-budget-usd: ${unpriced} has no known price, so its spending cannot be counted; use a model with a price (src/contract/models.json) or drop the budget`);
  }
  const mode: PermissionMode = opts.acceptAll ? 'auto' : (opts.permissionMode ?? settings.permissionMode);

  let guard: CommandGuard | undefined;
  let approver: Approver | undefined;
  const tools = builtinTools();
  const addenda: string[] = [];
  if (additionalDirs.length) addenda.push(`Additional working directories, read and written like the workspace: ${additionalDirs.join(', ')}`);
  if (def?.instructions) addenda.push(`# Agent Role: ${def.description || def.name}\n\n${def.instructions}`);
  for (const h of agentHooks) {
    guard = h.guard?.(info) ?? guard;
    approver = h.approver?.(info) ?? approver;
    tools.push(...(h.tools?.(info) ?? []));
    addenda.push(...(h.systemAddenda?.(info) ?? []));
  }
  // A teammate always gets the role guard of src/core/guard unless a hook supplied one; loaded on use (cold start).
  if (!guard && info.role === 'teammate') {
    const { createCommandGuard } = await import('../../core/guard/index.js');
    guard = createCommandGuard('teammate', { workspaceRoot: projectRoot, cwd, ...(agentName ? { agentName } : {}) });
  }
  // `--team-agent lead` is the lead whatever a hook says: the lead guard and write guard always apply to it.
  if (info.role === 'lead' && guard?.role !== 'lead') {
    const { createCommandGuard } = await import('../../core/guard/index.js');
    guard = createCommandGuard('lead', { workspaceRoot: projectRoot, cwd, agentName: 'lead' });
  }
  // Every role's Bash runs in the OS sandbox shaped by that role (src/core/sandbox).
  const sandbox = setupSandbox({ role: info.role, cwd, projectRoot, settings, interactive, additionalDirs, ...(agentName ? { agentName } : {}) });
  const allowed = def?.tools ? new Set(def.tools) : undefined;
  // Background shells come with Bash: a definition that allows Bash allows reading and stopping them.
  if (allowed?.has('Bash')) for (const t of ['BashOutput', 'KillShell']) allowed.add(t);
  const hidden = hiddenBy(opts.disallowedTools);
  // A definition's `tools` names built-in tools; its `mcpServers` picks the MCP servers.
  const { mcp, tools: mcpTools } = await setupMcp(opts, info, def?.mcpServers);
  const activeTools = [...(allowed ? tools.filter((t) => allowed.has(t.name)) : tools), ...mcpTools].filter((t) => !hidden(t));
  for (const h of agentHooks) h.wrapTools?.(activeTools, info);

  const permissions = new SessionPermissionChecker(
    mode,
    { decide: async () => 'deny' },
    {
      scope: { cwd, projectRoot, ...(info.sandboxRoot ? { worktree: info.sandboxRoot } : {}) },
      rules: [...settings.permissions.allow, ...(opts.allowedTools ?? [])],
      ask: settings.permissions.ask,
      deny: [...settings.permissions.deny, ...(opts.disallowedTools ?? [])],
      // Asks again the moment the sandbox is found not to run: the probe's answer decides, not the setting alone.
      ...(settings.autoAllowSandboxedBash ? { sandboxed: async () => (await sandbox.ready()).state === 'os' } : {}),
      persist: (rule) => addAllowRule(projectRoot, rule),
      additionalDirs,
    },
  );
  // Plan mode's way out; a stream-json session may enter plan mode later (set_permission_mode).
  if (mode === 'plan' || opts.inputFormat === 'stream-json') activeTools.push(exitPlanModeTool(permissions));
  let session: SessionStore;
  let messages;
  let usage;
  try {
    if (resumed) {
      ({ store: session, messages, usage } = resumed);
    } else {
      session = SessionStore.create(projectRoot, { model, provider: provider.name, cwd, ...(agentName ? { agentName } : {}) }, { persist });
    }
  } catch (err) {
    throw new CliError(`cannot write session under ${projectRoot}/.thclaws/sessions: ${(err as Error).message}`);
  }

  for (const h of agentHooks) h.onSession?.(session.id);
  // Background shells and the children foreground commands left running die with the agent (process groups).
  const shells = new ShellRegistry();
  process.once('exit', () => shells.killAll());
  liveShells.add(shells);
  installSignalFallbacks();
  const agent = new Agent({
    shells,
    ...(opts.effort ? { effort: opts.effort } : {}),
    ...(opts.thinkingDisplay ? { thinkingDisplay: opts.thinkingDisplay } : {}),
    ...thinkingOf(opts),
    ...(opts.maxBudgetUsd !== undefined ? { maxBudgetUsd: opts.maxBudgetUsd } : {}),
    ...(fallbackModels.length ? { fallbackModels } : {}),
    ...(additionalDirs.length ? { additionalDirs } : {}),
    provider,
    providerFor,
    model,
    settings,
    cwd,
    projectRoot,
    ...(info.sandboxRoot ? { sandboxRoot: info.sandboxRoot } : {}),
    role: info.role,
    permissions,
    tools: activeTools,
    system: buildSystemPrompt({ cwd, projectRoot, ...(agentName ? { agentName } : {}), addenda }),
    session,
    ...(agentName ? { agentName } : {}),
    ...(guard ? { guard } : {}),
    sandbox,
    ...(messages ? { messages } : {}),
    ...(usage ? { usage } : {}),
    ...(opts.maxIterations || opts.maxTurns ? { maxIterations: (opts.maxTurns ?? opts.maxIterations)! } : {}),
    onUsage: (u, c) => {
      for (const h of agentHooks) h.onUsage?.(u, c);
    },
    onTurn: (working, result) => {
      for (const h of agentHooks) h.onTurn?.(working, result);
    },
    onRetry: (info) => {
      for (const h of agentHooks) h.onRetry?.(info);
    },
  });
  if (opts.jsonSchema !== undefined) agent.setOutputSchema(await outputSchema(opts.jsonSchema, '--json-schema'));
  if (opts.systemPrompt !== undefined) agent.replaceSystemPrompt(opts.systemPrompt);
  if (opts.appendSystemPrompt) agent.appendSystemPrompt(opts.appendSystemPrompt);
  return { agent, info, permissions, mode, resumed: !!resume, sandbox, mcp, shells, ...(agent.thinking ? { startThinking: agent.thinking } : {}), ...(opts.disallowedTools ? { disallowedTools: opts.disallowedTools } : {}), ...(approver ? { approver } : {}) };
}
