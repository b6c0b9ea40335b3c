/** checkWrite for the Write/Edit tools: the lead does not author; a teammate stays out of other worktrees. */
import path from 'node:path';
import { ADVICE } from './finding.js';
import { describeZone, teammateZone, zonesFor } from './paths.js';
import type { GuardContext, GuardVerdict, Role } from './types.js';

/** `absPath` is absolute and already resolved by the sandbox. */
export function checkWrite(role: Role, absPath: string, ctx: GuardContext): GuardVerdict {
  if (role === 'solo') return { allowed: true };
  const p = path.resolve(absPath);
  if (role === 'lead') {
    // Only files git itself lists as unmerged, and only while a merge is in progress.
    const unmerged = ctx.mergeInProgress ? (ctx.unmergedFiles ?? []).map((f) => path.resolve(ctx.workspaceRoot, f)) : [];
    if (unmerged.includes(p)) return { allowed: true };
    const why = ctx.mergeInProgress
      ? 'during a merge the lead may only edit the files git lists as unmerged (git diff --name-only --diff-filter=U)'
      : 'the lead is a coordinator and delegates every code change';
    return { allowed: false, reason: `team lead may not write or edit ${p}: ${why}.`, advice: ADVICE.leadWrite };
  }
  const zone = teammateZone(p, zonesFor(ctx), false);
  if (!zone) return { allowed: true };
  return { allowed: false, reason: `teammate may not write ${p}: it would ${describeZone(zone, p)}.`, advice: ADVICE.teammateOthers };
}
