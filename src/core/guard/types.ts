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
