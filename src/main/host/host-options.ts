/** What a TeamHost is opened with, and where this package's own `thclaws` is (the lead's default argv). */
import path from 'node:path';
import { LEAD } from '../../core/store/index.js';
import { TEAMMATE_MODE_ENV } from '../../core/teams/mode-env.js';
import type { KeyCipher } from './lead-setup.js';
import { packageRoot } from './package-root.js';
import type { RecentWorkspaces } from './recent.js';

export interface TeamHostOptions {
  workspace: string;
  /** argv of the lead REPL; default: this package's `bin/thclaws`. */
  leadArgv?: string[];
  /** argv to (re)start a teammate the host did not spawn; default: `thclaws --team-agent <name>`. */
  teammateArgv?: (name: string) => string[];
  /** Extra environment for every child (the rest is inherited from the host). */
  env?: Record<string, string>;
  /** Start the lead when the workspace opens (default true). */
  startLead?: boolean;
  recent?: RecentWorkspaces;
  /** Shared output budget per 5 ms tick, in characters. */
  budgetPerTick?: number;
  /** Liveness ticks between whole re-reads of inbox counts and approvals (default 5; tests raise it). */
  rereadEveryTicks?: number;
  leadPrompt?: string; // typed into the lead's REPL once it is ready (the live demo)
  demo?: boolean; // the live demo: views offer the team's changes once its tasks are done
  hostPid?: number; // served by the workspace's host process (this pid): views may stop the team
  keyCipher?: KeyCipher | null; // encrypts the stored model key at rest (Electron's safeStorage)
  stopGraceMs?: number; // Stop of an agent this host did not start: how long it gets to stop by itself (default: the lead's shutdown grace)
}

export const thclawsBin = (): string => path.join(packageRoot(), 'bin', 'thclaws');

/**
 * A child's environment: this process's, the team dir, the options' overrides. The lead is the one process
 * without a team agent name; whatever the workspace's teammateMode, every teammate it spawns comes to this
 * host as a spawn request (so it runs in a live pane here), and it gets `leadEnv` (key, its questions' file).
 */
export function childEnvOf(agent: string, teamDir: string, overrides: Record<string, string> | undefined, leadEnv: () => Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  Object.assign(env, { THCLAWS_TEAM_DIR: teamDir, TERM: 'xterm-256color' }, overrides);
  if (agent !== LEAD) env.THCLAWS_TEAM_AGENT = agent;
  else Object.assign(env, { [TEAMMATE_MODE_ENV]: 'host' }, leadEnv());
  return env;
}
