/** The dynamic-command rule (dynamic.ts): a run-time command name passes unless the input carries a destructive verb. */
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/core/guard/index.js';
import { leadCtx } from './fixtures.js';

describe('a command named at run time', () => {
  it('passes when nothing in the input is destructive', () => {
    for (const cmd of ['$PAGER README.md', '"$EDITOR" --version', '$CC -O2 -o /tmp/a a.c']) expect(checkCommand('lead', cmd, leadCtx), cmd).toEqual({ allowed: true });
  });

  it('is refused when the input carries a destructive verb, in any case, and says why', () => {
    const v = checkCommand('lead', '$GIT CLEAN -FDX', leadCtx);
    expect(v).toEqual({
      allowed: false,
      reason: 'team lead may not run `$GIT CLEAN -FDX`: it would run a command named by $GIT, built at run time, in a command that carries a destructive verb — it cannot be verified.',
      advice: expect.stringMatching(/plain literal command/),
    });
    expect(checkCommand('lead', '$X RM src', leadCtx).allowed).toBe(false);
  });
});
