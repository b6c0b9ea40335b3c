/** The agent command's parsed flags: its own module, so the runtime in cli/agent/ never imports the command that loads it. */
export interface AgentCliOptions {
  print?: string | true;
  outputFormat: 'text' | 'json' | 'stream-json';
  model?: string;
  provider?: 'anthropic' | 'scripted';
  script?: string;
  acceptAll?: boolean;
  permissionMode?: 'ask' | 'auto';
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
