/**
 * check.ts's cd tracking past its bound: every literal cd target is applied to every cwd so far, so distinct
 * relative cds double the list. Past 16 possible cwds the real one may be any of them, so relative paths are
 * unknown (refused like after `cd "$D"`) instead of the list being cut (the cut dropped the real cwd).
 */
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/core/guard/index.js';
import type { GuardContext, GuardVerdict } from '../../src/core/guard/types.js';
import { leadCtx, teammateCtx } from './fixtures.js';

const reasonOf = (v: GuardVerdict) => (v.allowed ? null : v.reason);
// The lead runs in /tmp here, so only a cd into the workspace makes a relative write land there.
const inTmp: GuardContext = { ...leadCtx, cwd: '/tmp' };
const lead = (cmd: string) => checkCommand('lead', cmd, inTmp);
const tm = (cmd: string) => checkCommand('teammate', cmd, teammateCtx);
const cds = (n: number) => Array.from({ length: n }, (_, i) => `cd d${i}`).join(' && ');

describe('cd tracking past 16 possible cwds (session 4)', () => {
  it('16 possible cwds are still exact: four distinct relative cds from /tmp stay in /tmp', () => {
    expect(lead(`${cds(4)} && echo x > a.txt`)).toEqual({ allowed: true });
  });

  it('a 17th possible cwd makes relative paths unknown for the lead: the cd into the workspace is not dropped', () => {
    expect(reasonOf(lead(`${cds(4)} && cd /ws && echo x > src/a.ts`))).toBe('team lead may not run `echo x > src/a.ts`: it would write (redirect) src/a.ts after a cd to a dynamic directory.');
    // Absolute paths are still judged as they are.
    expect(lead(`${cds(4)} && cd /ws && echo x > /tmp/a.txt`)).toEqual({ allowed: true });
    expect(reasonOf(lead(`${cds(4)} && cd /ws && echo x > /ws/src/a.ts`))).toMatch(/write \(redirect\) \/ws\/src\/a\.ts inside the workspace/);
  });

  it("a teammate's fifth distinct relative cd that climbs out of its worktree is not dropped", () => {
    // Real cwd: /ws/.worktrees/alice/d0/d1/d2/d3 then six levels up = /ws, the lead's checkout.
    expect(reasonOf(tm(`${cds(4)} && cd ../../../../../.. && echo x > a.txt`))).toBe('teammate may not run `echo x > a.txt`: it would write (redirect) a path computed at run time (a.txt).');
    expect(tm(`${cds(4)} && echo x > a.txt`)).toEqual({ allowed: true });
  });

  it('many distinct cds give a verdict, not an exception (the list no longer doubles without bound)', () => {
    expect(reasonOf(lead(`${cds(40)} && echo x > a.txt`))).toBe('team lead may not run `echo x > a.txt`: it would write (redirect) a.txt after a cd to a dynamic directory.');
    expect(lead(`${cds(40)} && echo x > /tmp/a.txt`)).toEqual({ allowed: true });
  });
});

describe('cd targets that HOME and CDPATH make unknown, and those they do not (session 5, check.ts:113-124)', () => {
  it('with HOME set only `cd` and `cd ~…` are unknown: a literal cd is still followed', () => {
    expect(lead(`HOME=/tmp/h; cd d && echo x > a.txt`)).toEqual({ allowed: true });
    expect(tm(`HOME=/tmp/h; cd /tmp && echo x > a.txt`)).toEqual({ allowed: true });
    expect(reasonOf(tm(`HOME=/tmp/h; cd ~ && echo x > a.txt`))).toBe('teammate may not run `echo x > a.txt`: it would write (redirect) a path computed at run time (a.txt).');
  });

  it('with CDPATH set, a cd target with a slash inside it (not leading) is looked up in CDPATH too', () => {
    // bash: CDPATH=/ws; cd src/lib lands in /ws/src/lib, the workspace.
    expect(reasonOf(lead(`CDPATH=/ws; cd src/lib && echo x > a.ts`))).toBe('team lead may not run `echo x > a.ts`: it would write (redirect) a.ts after a cd to a dynamic directory.');
    expect(lead(`CDPATH=/ws; cd ./src/lib && echo x > a.ts`)).toEqual({ allowed: true });
  });
});
