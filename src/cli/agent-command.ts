import { Option, type Command } from 'commander';
import { CliError } from './errors.js';
import type { AgentCliOptions } from './agent/options.js';
import { addRefusedSdkFlags, budgetUsd, fallbackModels, refuseSdkFlags, settingSources, thinkingTokens } from './agent/sdk-flags.js';

export type { AgentCliOptions } from './agent/options.js';

/** The Agent SDK's permission modes mapped to ours. */
function sdkPermissionMode(value: string): 'ask' | 'auto' | 'acceptEdits' | 'plan' {
  if (value === 'ask' || value === 'default') return 'ask';
  if (value === 'auto' || value === 'bypassPermissions') return 'auto';
  if (value === 'acceptEdits' || value === 'plan') return value;
  throw new CliError(`--permission-mode ${value} is not supported by thclaws (use default, acceptEdits, bypassPermissions or plan)`);
}

/** `a,b` or `a b`: the Agent SDK joins with commas; a comma inside a rule's parentheses stays. */
/** A rule as permission rules are written: a tool name, optionally with `(its scope)`. */
const RULE = /^[A-Za-z][\w-]*(?:__\*)?(?:\(.*\))?$/s;

/**
 * `--allowedTools` / `--disallowedTools`: rules separated by commas or spaces outside parentheses (the Agent
 * SDK joins its list with commas). A rule that is not one (an unclosed parenthesis would swallow every rule
 * after it, and a swallowed deny rule would be dropped silently) is refused by name.
 */
export function ruleList(flag: string): (value: string, previous?: string[]) => string[] {
  return (value, previous = []) => {
    const out: string[] = [];
    let depth = 0;
    let cur = '';
    for (const ch of value) {
      if (ch === '(') depth++;
      if (ch === ')') depth = Math.max(0, depth - 1);
      if (depth === 0 && (ch === ',' || ch === ' ')) {
        if (cur.trim()) out.push(cur.trim());
        cur = '';
      } else cur += ch;
    }
    if (cur.trim()) out.push(cur.trim());
    const bad = out.find((r) => !RULE.test(r));
    if (bad !== undefined || depth > 0) {
      throw new CliError(`${flag}: "${bad ?? out.at(-1)}" is not a rule (a tool name, or Tool(scope) with its parenthesis closed), e.g. Bash(npm test:*), Write(src/), Read`);
    }
    return [...previous, ...out];
  };
}

/** A parser naming its own flag in the error. */
function positiveInt(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new CliError(`${flag} must be a positive integer, got "${value}"`);
    return n;
  };
}

/**
 * Root command: the agent REPL, or one prompt with -p. The runtime is imported on use so that
 * `thclaws --version` and the subcommands do not load it.
 */
export function registerAgentCommand(program: Command): void {
  program
    .option('-p, --print [prompt]', 'run one prompt to completion and print the answer (prompt from stdin when omitted)')
    .addOption(new Option('--output-format <format>', 'output of -p').choices(['text', 'json', 'stream-json']).default('text'))
    .option('--model <id>', 'model id or alias: sonnet, opus, haiku (default: settings "model", else the current Sonnet)')
    .addOption(new Option('--effort <level>', 'thinking effort (default: settings "effort", else the model\'s own)').choices(['low', 'medium', 'high', 'xhigh', 'max']))
    .addOption(new Option('--thinking-display <mode>', 'summarized: thinking text is returned and shown; omitted: signatures only').choices(['summarized', 'omitted']))
    .option('--max-thinking-tokens <n>', 'thinking budget: 0 turns thinking off; on a manual-budget model it is sent as budget_tokens, an adaptive model just thinks', thinkingTokens)
    .addOption(new Option('--thinking <mode>', 'adaptive: the model decides how much to think; disabled: no thinking').choices(['adaptive', 'disabled']))
    .option('--fallback-model <models>', 'model(s) tried in order when the main one is overloaded (529 after retries, 503) or not found (404); comma-separated', fallbackModels)
    .option('--add-dir <dir>', 'another directory the tools may read and write, like the workspace (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--no-session-persistence', 'do not save the session transcript (it cannot be resumed)')
    .option('--json-schema <schema>', 'the final answer is JSON valid against this JSON schema (result.structured_output)')
    .option('--max-budget-usd <usd>', 'stop before the next model call once the session has spent this much (list prices)', budgetUsd)
    .addOption(new Option('--input-format <format>', 'input of -p: text, or stream-json (one user message per line on stdin)').choices(['text', 'stream-json']).default('text'))
    .option('--verbose', 'show every tool call and result (in -p text mode: on stderr)')
    .addOption(new Option('--provider <name>', 'model provider (default: settings "provider")').choices(['anthropic', 'scripted']))
    .option('--script <file>', 'JSON script for the scripted provider (docs/scripted-provider.md)')
    .option('--accept-all', 'never ask before Write, Edit or Bash (role guards still apply)')
    .addOption(
      new Option('--permission-mode <mode>', 'ask (= default): ask before Write/Edit/Bash; auto (= bypassPermissions): do not ask; acceptEdits: workspace edits unasked; plan: read-only until ExitPlanMode\'s plan is approved')
        .choices(['ask', 'auto', 'default', 'bypassPermissions', 'acceptEdits', 'plan'])
        .argParser(sdkPermissionMode),
    )
    .option('--max-turns <n>', 'the Agent SDK\'s name for --max-iterations', positiveInt('--max-turns'))
    .option('--dangerously-skip-permissions', 'Claude Code\'s name for --permission-mode bypassPermissions (= --accept-all; protected paths still ask)')
    .addOption(new Option('--permission-prompt-tool <tool>', 'stdio: ask the Agent SDK host (canUseTool) over the control protocol').choices(['stdio']))
    .option('--append-system-prompt <text>', 'added after the built-in system prompt')
    .option('--allowedTools <rules>', 'allow rules for this run, comma-separated (Bash(npm test:*), Write(src/), Read)', ruleList('--allowedTools'))
    .option('--disallowedTools <rules>', 'deny rules for this run; a bare tool name also hides the tool', ruleList('--disallowedTools'))
    .option('-c, --continue', 'resume the newest session of this project')
    .option('--mcp-config <config>', 'MCP servers from a JSON file or string ({"mcpServers":{…}}); repeatable', (v: string, prev: string[] = []) => [...prev, v])
    .option('--include-partial-messages', 'with --output-format stream-json: a stream_event line per raw event of the model\'s stream')
    .option('--strict-mcp-config', 'only the --mcp-config servers (not settings, not .mcp.json)')
    // The Agent SDK sends its MCP servers in `initialize` and says so with this flag; we read initialize always.
    .addOption(new Option('--await-initialize', 'accepted for the Agent SDK').hideHelp())
    // The Agent SDK's acknowledgement that bypassPermissions may be used; our auto mode needs none.
    .addOption(new Option('--allow-dangerously-skip-permissions', 'accepted for the Agent SDK').hideHelp())
    .option('--system-prompt <text>', 'replaces the built-in system prompt')
    .option('--max-iterations <n>', 'model calls per prompt before stopping', positiveInt('--max-iterations'))
    .option('--cwd <dir>', 'working directory (default: the current one)')
    .option('--resume <session-id>', 'continue a saved session (.thclaws/sessions/<id>.jsonl)')
    .option('--team-agent <name>', 'run as this team agent (sets THCLAWS_TEAM_AGENT)')
    .option('--team-dir <dir>', 'team directory (sets THCLAWS_TEAM_DIR)')
    .option('--timeout <seconds>', '-p with a team: stop waiting for the team after this many seconds', (v: string) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n <= 0) throw new CliError(`--timeout must be a positive number of seconds, got "${v}"`);
      return n;
    })
    .addOption(new Option('--cli', 'force the terminal interface (accepted for compatibility)').hideHelp())
    .option('--setting-sources <sources>', 'settings files to read: user, project, local (comma-separated; default all)', settingSources);
  addRefusedSdkFlags(program);
  program
    .action(async (opts: AgentCliOptions) => {
      refuseSdkFlags(opts as unknown as Record<string, unknown>);
      const { dangerouslySkipPermissions, ...rest } = opts as AgentCliOptions & { dangerouslySkipPermissions?: boolean };
      if (dangerouslySkipPermissions) opts = { ...rest, acceptAll: true };
      const { runAgentCli } = await import('./agent/run.js');
      process.exitCode = await runAgentCli(opts);
    });
}
