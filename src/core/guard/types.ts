/** Contract between the role guards (src/core/guard) and the tools that call them (src/core/agent). */

/** `solo` = no team: no role guard applies (the sandbox still does). */
export type Role = 'lead' | 'teammate' | 'solo';

export type GuardVerdict =
  | { allowed: true }
  | { allowed: false; reason: string; advice: string };

/** A role guard bound to one agent; tools call it on the full original input before anything runs. */
export interface CommandGuard {
  readonly role: Role;
  /** `cwd` is where the command would run. */
  checkCommand(command: string, cwd: string): GuardVerdict;
  /** `path` is absolute and already resolved by the sandbox. */
  checkWrite(path: string): GuardVerdict;
}

/**
 * Read-only git questions the teammate reset rule and the lead merge exception need. Injected so
 * `checkCommand` stays pure; `createCommandGuard` wires the real git (git-probe.ts).
 */
export interface GitProbe {
  /** `git rev-parse --symbolic-full-name`: `refs/heads/main`, `refs/tags/v1`, '' for a sha or pseudo-ref, null if unknown. */
  symbolicName(ref: string, cwd: string): string | null;
  /** Commit sha `ref` resolves to, or null. */
  resolve(ref: string, cwd: string): string | null;
  /** `git merge-base --is-ancestor commit of`. */
  isAncestor(commit: string, of: string, cwd: string): boolean;
  /** `git merge-base a b`, or null. */
  mergeBase(a: string, b: string, cwd: string): string | null;
  /** Commit shas recorded in the reflog of `ref`. */
  reflog(ref: string, cwd: string): string[];
  /** Remote-tracking refs `refs/remotes/<remote>/<name>` (what `git checkout <name>` would guess a new branch from). */
  remoteBranches?(name: string, cwd: string): string[];
}

/** What a role rule needs to know about where and as whom a command runs. */
export interface GuardContext {
  /** The lead's workspace (team root); teammate worktrees live in `<root>/.worktrees/<name>`. */
  workspaceRoot: string;
  /** Where the command runs. */
  cwd: string;
  /** The agent's branch, e.g. `team/alice` (teammates) or `main` (lead). */
  branch?: string;
  /** Team agent name; for a teammate its worktree is `<root>/.worktrees/<agentName>`. */
  agentName?: string;
  /** A merge is in progress in the workspace (lead Write/Edit exception). */
  mergeInProgress?: boolean;
  /** Files git lists as unmerged (`git diff --name-only --diff-filter=U`), root-relative or absolute. */
  unmergedFiles?: readonly string[];
  /** Scratch directories writes may go to (default: /tmp, /var/tmp and os.tmpdir()). */
  tmpDirs?: readonly string[];
  /** For `~` (default: os.homedir()). */
  home?: string;
  /** Branches a teammate may never delete or force-update (default: main, master). */
  protectedBranches?: readonly string[];
  git?: GitProbe;
}
