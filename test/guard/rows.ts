/** Corpus rows for the guard's pure tests: [command, lead verdict, teammate verdict], lead at /ws, teammate alice in /ws/.worktrees/alice. */
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/core/guard/index.js';
import type { GuardContext } from '../../src/core/guard/types.js';
import { leadCtx, teammateCtx } from './fixtures.js';

export type V = 'allow' | 'deny';
export type Role = 'lead' | 'teammate';

export const run = (role: Role, cmd: string, ctx?: GuardContext) => checkCommand(role, cmd, ctx ?? (role === 'lead' ? leadCtx : teammateCtx));
export const verdict = (role: Role, cmd: string): V => (run(role, cmd).allowed ? 'allow' : 'deny');
export const reason = (role: Role, cmd: string): string => {
  const v = run(role, cmd);
  return v.allowed ? '(allowed)' : v.reason;
};

/** One test per row; a failure names both roles' reasons. */
export const rows = (title: string, list: [string, V, V][]) =>
  describe(title, () => {
    for (const [cmd, lead, teammate] of list) {
      it(`${cmd}: lead ${lead}, teammate ${teammate}`, () => {
        expect([verdict('lead', cmd), verdict('teammate', cmd)], `${reason('lead', cmd)} | ${reason('teammate', cmd)}`).toEqual([lead, teammate]);
      });
    }
  });
