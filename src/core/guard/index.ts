/** Role guards: pure `checkCommand` / `checkWrite`, and `createCommandGuard` that binds them to one agent and real git. */
import { realpathOr as canonical } from '../fs-paths.js';
import { checkCommand } from './check.js';
import { createGitProbe, unmergedFiles } from './git-probe.js';
import type { CommandGuard, GuardContext, Role } from './types.js';
import { checkWrite } from './write-guard.js';

export { checkCommand } from './check.js';
export { checkWrite } from './write-guard.js';
export { createGitProbe, unmergedFiles } from './git-probe.js';
export type { CommandGuard, GitProbe, GuardContext, GuardVerdict, Role } from './types.js';

/**
 * A guard for one agent. Wires the real git probe unless `ctx.git` is given; for the lead, the merge
 * state for Write/Edit is read from git on every call (never from MERGE_HEAD or file contents).
 */
export function createCommandGuard(role: Role, ctx: GuardContext): CommandGuard {
  const base: GuardContext = { ...ctx, workspaceRoot: canonical(ctx.workspaceRoot), git: ctx.git ?? createGitProbe() };
  return {
    role,
    checkCommand: (command, cwd) => checkCommand(role, command, { ...base, cwd: cwd || base.cwd }),
    checkWrite: (absPath) => {
      if (role !== 'lead' || ctx.mergeInProgress !== undefined) return checkWrite(role, absPath, base);
      const files = unmergedFiles(base.workspaceRoot);
      return checkWrite(role, absPath, { ...base, mergeInProgress: files.length > 0, unmergedFiles: files });
    },
  };
}
