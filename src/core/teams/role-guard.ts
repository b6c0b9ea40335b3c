import type { CommandGuard, GuardContext, GuardVerdict, Role } from '../guard/types.js';
import type { TeamSession } from './session.js';

type Factory = (role: Role, ctx: GuardContext) => CommandGuard;

/**
 * The session's guard follows its role: a person's session that runs TeamCreate becomes the lead and from
 * that tool call on the lead guard and write guard apply to its Bash/Write/Edit.
 */
export function roleGuard(session: TeamSession, make: Factory, ctx: GuardContext): CommandGuard {
  const built = new Map<Role, CommandGuard>();
  const current = (): CommandGuard | undefined => {
    const role = session.role;
    if (role === 'solo') return undefined;
    let g = built.get(role);
    if (!g) built.set(role, (g = make(role, ctx)));
    return g;
  };
  const allowed: GuardVerdict = { allowed: true };
  return {
    get role() {
      return session.role;
    },
    checkCommand: (command, cwd) => current()?.checkCommand(command, cwd) ?? allowed,
    checkWrite: (p) => current()?.checkWrite(p) ?? allowed,
  };
}
