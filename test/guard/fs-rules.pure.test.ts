/** File rules with contexts the corpus does not use: a scratch directory inside the workspace. */
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/core/guard/index.js';
import { leadCtx, WS } from './fixtures.js';

describe('lead rm with a scratch directory inside the workspace', () => {
  const ctx = { ...leadCtx, tmpDirs: ['/tmp', `${WS}/.tmp`] };
  it('a glob in a scratch directory outside the workspace passes; one inside the workspace is refused', () => {
    expect(checkCommand('lead', 'rm /tmp/*.log', ctx)).toEqual({ allowed: true });
    const v = checkCommand('lead', `rm ${WS}/.tmp/*.log`, ctx);
    expect(v.allowed).toBe(false);
    expect(!v.allowed && v.reason).toMatch(/remove every file matching/);
  });
  it('a tree under it is not scratch either', () => {
    expect(checkCommand('lead', `rm -rf ${WS}/.tmp/build`, ctx).allowed).toBe(false);
    expect(checkCommand('lead', 'rm -rf /tmp/build', ctx)).toEqual({ allowed: true });
  });
});
