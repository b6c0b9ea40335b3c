/** The agent command's parsed flags: its own module, so the runtime in cli/agent/ never imports the command that loads it. */
export interface AgentCliOptions {
  print?: string | true;
  outputFormat: 'text' | 'json' | 'stream-json';
  model?: string;
  provider?: 'anthropic' | 'scripted';
  script?: string;
  acceptAll?: boolean;
  permissionMode?: 'ask' | 'auto' | 'acceptEdits' | 'plan';
  /** The Agent SDK's `--max-turns` (same budget as --max-iterations; the result says error_max_turns). */
  maxTurns?: number;
  /** `stdio`: permission questions go to the SDK host as can_use_tool control requests. */
  permissionPromptTool?: 'stdio';
  appendSystemPrompt?: string;
  systemPrompt?: string;
  /** Allow rules for this run (`Bash(npm test:*)`, `Write(src/)`, a tool name), as the Agent SDK's allowedTools. */
  allowedTools?: string[];
  /** Deny rules for this run; a bare tool name also hides that tool from the model. */
  disallowedTools?: string[];
  /** `--mcp-config`: MCP server configs (files or JSON strings), added to the settings' and `.mcp.json`'s. */
  mcpConfig?: string[];
  /** `--strict-mcp-config`: only the `--mcp-config` servers. */
  strictMcpConfig?: boolean;
  /** `--await-initialize`: the Agent SDK sends its settings (MCP servers) in `initialize` before any prompt. */
  awaitInitialize?: boolean;
  /** `--setting-sources`: which settings files are read (undefined: user, project and local). */
  settingSources?: ('user' | 'project' | 'local')[];
  /** `--include-partial-messages`: stream_event lines (with --output-format stream-json). */
  includePartialMessages?: boolean;
  /** Resume the newest session of this project. */
  continue?: boolean;
  /** `--max-thinking-tokens`: 0 = no thinking; else a budget (manual-budget models) or adaptive thinking. */
  maxThinkingTokens?: number;
  /** `--thinking adaptive|disabled` (the Agent SDK's `thinking` option). */
  thinking?: 'adaptive' | 'disabled';
  /** `--fallback-model`: tried in order when the main model is overloaded or unavailable. */
  fallbackModel?: string[];
  /** `--add-dir`: more directories the tools may use, like the workspace. */
  addDir?: string[];
  /** `--no-session-persistence` sets this false: no transcript on disk. */
  sessionPersistence?: boolean;
  /** `--json-schema`: the answer's JSON schema (structured output). */
  jsonSchema?: string;
  /** `--max-budget-usd`: spending limit of this process's session. */
  maxBudgetUsd?: number;
  maxIterations?: number;
  cwd?: string;
  resume?: string;
  teamAgent?: string;
  teamDir?: string;
  cli?: boolean;
  effort?: 'low' | 'medium' | 'high' | 'xhigh' | 'max';
  thinkingDisplay?: 'summarized' | 'omitted';
  verbose?: boolean;
  inputFormat?: 'text' | 'stream-json';
  /** -p with teams: give up after this many seconds. */
  timeout?: number;
}
