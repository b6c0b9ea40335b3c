/**
 * The seam between the teams runtime and whatever runs teammate processes.
 *
 * SpawnTeammate in `host` mode never starts a process itself: it writes a spawn request
 * (`agents/<name>/spawn.json`, through the store) and a host — the workspace's `thclaws host`, or the
 * desktop TeamHost — picks it up and starts the process through a `TeammateLauncher`. The runtime's own
 * background and tmux spawners implement the same interface, so boot verification, the one-live-process
 * rule and respawn logic are written once against it.
 */

/** What to start: argv as data (never a shell string), explicit environment, working directory. */
export interface SpawnRequest {
  /** Unique per spawn; the initial prompt is written once per spawn id. */
  spawn_id: string;
  /** Teammate name (validated by the store before it reaches here). */
  agent: string;
  /** argv[0] is the executable; no shell interprets these. */
  argv: string[];
  cwd: string;
  /** The child's own variables (the team's: THCLAWS_*, editor stubs); with inherit_env, the whole environment. */
  env: Record<string, string>;
  /** Names of variables the launcher copies from its own environment (secrets never stored in spawn.json). */
  inherit_env?: string[];
  /** Absolute path of the team directory the teammate belongs to. */
  team_dir: string;
  /** Model the teammate runs (shown in status). */
  model?: string;
  cols?: number;
  rows?: number;
  requested_at: number;
}

/** A started teammate process, as the launcher that owns it sees it. */
export interface LaunchedTeammate {
  readonly agent: string;
  readonly spawn_id: string;
  readonly pid: number;
  /** Resolves once with the exit code (null when killed by a signal) and the signal name, if any. */
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  /** Signals the process group (never a pattern match). */
  kill(signal?: NodeJS.Signals): void;
  /** Where it runs, for people: `tmux pane (current window)`, `tmux session 'thclaws-team'`, … */
  readonly where?: string;
}

export interface TeammateLauncher {
  /** Short name shown in status and errors: `background`, `tmux`, `host`, `desktop`, … */
  readonly kind: string;
  /** Starts the process; rejects with a clear error when it cannot be started at all. */
  launch(req: SpawnRequest): Promise<LaunchedTeammate>;
  /** Processes this launcher started that are still running. */
  live(): LaunchedTeammate[];
  /** Stops every process this launcher owns (used on host exit). */
  dispose(): Promise<void>;
}
