import type { Command } from 'commander';

/** Root command: the agent REPL and `-p`. Filled in by the agent issue. */
export function registerAgentCommand(_program: Command): void {}
