/**
 * Ways to change directory that cd tracking missed (session-4 break round): the lead's /tmp exemptions and a
 * teammate's worktree bound rest on knowing the cwd. Each row was allowed before its fix (the shell really
 * goes there: checked with /bin/sh, which is dash, and bash).
 */
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/core/guard/index.js';
import type { GuardContext, GuardVerdict } from '../../src/core/guard/types.js';
import { leadCtx, teammateCtx } from './fixtures.js';

const inTmp: GuardContext = { ...leadCtx, cwd: '/tmp/x' };
const lead = (cmd: string) => checkCommand('lead', cmd, inTmp);
const tm = (cmd: string) => checkCommand('teammate', cmd, teammateCtx);
const reasonOf = (v: GuardVerdict) => (v.allowed ? null : v.reason);

describe('tilde forms other than ~ and ~/ (bash ~- is $OLDPWD, ~+ is $PWD, ~user is that user\'s home)', () => {
  it('the lead in /tmp may not rm -rf through ~-, ~+ or ~user: the place is not known', () => {
    expect(reasonOf(lead('rm -rf ~-/src'))).toMatch(/^team lead may not run `rm -rf ~-\/src`: it would remove files named at run time/);
    expect(reasonOf(lead('rm -rf ~root/../ws/src'))).toMatch(/^team lead may not run `rm -rf ~root\/\.\.\/ws\/src`/);
    expect(reasonOf(lead("bash -c 'rm -rf ~-/src'"))).toMatch(/may not run `rm -rf ~-\/src`/);
    expect(lead('rm -rf ~/build')).not.toEqual({ allowed: true }); // home (/home/u) is no scratch: unchanged
    expect(lead('ls ~- ~root')).toEqual({ allowed: true });
  });

  it("a teammate's cd through ~-, ~+ or ~user makes relative paths unknown", () => {
    expect(reasonOf(tm('cd ~root/../ws/src && echo x > ../.git/a'))).toMatch(/write \(redirect\) a path computed at run time/);
    expect(reasonOf(tm('cd ~+/../bob && echo x > ../bob/a.ts'))).toMatch(/write \(redirect\) a path computed at run time/);
    expect(reasonOf(tm('echo x > ~root/../ws/.worktrees/bob/a.ts'))).toMatch(/write \(redirect\) a path computed at run time/);
    expect(tm('cd ~ && echo x > a.ts')).toEqual({ allowed: true });
  });
});

describe('cd -- DIR is cd DIR', () => {
  it('the target after -- is tracked (it was taken for a bare cd, i.e. home)', () => {
    expect(reasonOf(tm('cd -- ../bob && echo x > a.ts'))).toBe("teammate may not run `echo x > a.ts`: it would write (redirect): write into another teammate's worktree (/ws/.worktrees/bob/a.ts).");
    expect(reasonOf(tm('cd -P -- ../.. && echo x > src/a.ts'))).toBe("teammate may not run `echo x > src/a.ts`: it would write (redirect): write into the lead's checkout (/ws/src/a.ts), outside your own worktree.");
    expect(reasonOf(lead('cd -- - && rm -rf src'))).toBe('team lead may not run `rm -rf src`: it would recursively remove files.');
  });
});
