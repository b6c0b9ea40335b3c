/** The system prompt: who the agent is, where it works, and how to use its tools. Addenda come from agent defs and teams. */

export interface SystemPromptInput {
  cwd: string;
  projectRoot: string;
  agentName?: string;
  /** Extra sections (agent-def role, team rules), appended in order. */
  addenda?: string[];
}

export function buildSystemPrompt(input: SystemPromptInput): string {
  const parts = [
    `You are thclaws, a coding agent working in a terminal. You have file and shell tools and use them to do the task, not just describe it.`,
    `Working directory: ${input.cwd}\nWorkspace root (the sandbox: paths outside it are refused): ${input.projectRoot}`,
    [
      '# Tools',
      '- Read files before editing them; Edit needs old_string to match the file exactly.',
      '- Prefer Glob and Grep over Bash for finding files and text.',
      '- Bash runs without a terminal and with a timeout: never start interactive programs or servers that do not exit.',
      '- Writes under .thclaws/ are refused: it holds team state, settings and sessions.',
      '- A tool result starting with "refused:" or "access denied:" is a rule, not a glitch: do not retry the same action.',
    ].join('\n'),
    'Be concise. When the task is done, say what you changed in a few lines.',
  ];
  if (input.agentName) parts.push(`Your agent name is "${input.agentName}".`);
  return [...parts, ...(input.addenda ?? [])].join('\n\n');
}
