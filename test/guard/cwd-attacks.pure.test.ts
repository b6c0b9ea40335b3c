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

describe('cd run by eval or source changes the cwd of the commands after it', () => {
  it('a literal eval is read for cds', () => {
    expect(reasonOf(lead("eval 'cd /ws' && rm -rf src"))).toBe('team lead may not run `rm -rf src`: it would recursively remove files.');
    expect(reasonOf(lead('eval cd - && rm -rf src'))).toBe('team lead may not run `rm -rf src`: it would recursively remove files.');
    expect(reasonOf(tm("eval 'cd ../..' && echo x > src/a.ts"))).toBe("teammate may not run `echo x > src/a.ts`: it would write (redirect): write into the lead's checkout (/ws/src/a.ts), outside your own worktree.");
    expect(lead("eval 'cd build' && rm -rf out")).toEqual({ allowed: true });
  });

  it('evals nested past the depth bound are not read for cds one by one (1,000 of them re-parsed per level exhausted memory)', () => {
    expect(reasonOf(lead(`${'eval '.repeat(1000)}cd /ws; rm -rf src`))).toMatch(/^team lead may not run `eval eval /);
  });

  it('a sourced file may cd anywhere (an eval of run-time text is refused on its own when the input writes)', () => {
    expect(reasonOf(lead('eval "$GO" && rm -rf src'))).toMatch(/^team lead may not run/);
    expect(reasonOf(lead('. /tmp/x/env.sh && rm -rf src'))).toBe('team lead may not run `rm -rf src`: it would recursively remove files.');
    expect(reasonOf(lead('source /tmp/x/env.sh; rm -rf src'))).toBe('team lead may not run `rm -rf src`: it would recursively remove files.');
    expect(lead('source /tmp/x/env.sh && rm -rf /tmp/x/build')).toEqual({ allowed: true });
  });
});

describe('CDPATH makes a cd to a bare name go elsewhere', () => {
  it('with CDPATH set in the input, a cd to a name that does not start with . or / goes to an unknown place', () => {
    expect(reasonOf(lead('CDPATH=/ws cd src && rm -rf build'))).toBe('team lead may not run `rm -rf build`: it would recursively remove files.');
    expect(reasonOf(lead('export CDPATH=/; cd ws; rm -rf src'))).toBe('team lead may not run `rm -rf src`: it would recursively remove files.');
    expect(reasonOf(tm('CDPATH=/ws/.worktrees cd bob && echo x > ../bob/a'))).toMatch(/write \(redirect\) a path computed at run time/);
    expect(lead('CDPATH=/ws cd ./build && rm -rf out')).toEqual({ allowed: true });
    expect(lead('cd build && rm -rf out')).toEqual({ allowed: true });
  });
});

describe('cds bash runs on its own: trap handlers and cdable_vars', () => {
  it('a cd in a trap (a DEBUG trap runs before every command) is tracked like one in eval', () => {
    expect(reasonOf(lead("trap 'cd /ws' DEBUG; rm -rf src"))).toBe('team lead may not run `rm -rf src`: it would recursively remove files.');
    expect(reasonOf(lead(`bash -c "trap 'cd /ws' DEBUG; rm -rf src"`))).toBe('team lead may not run `rm -rf src`: it would recursively remove files.');
    expect(lead("trap 'rm -rf /tmp/x/t' EXIT; rm -rf build")).toEqual({ allowed: true });
  });

  it('with cdable_vars, cd NAME may go where the variable NAME points', () => {
    expect(reasonOf(lead('W=/ws; shopt -s cdable_vars; cd W && rm -rf src'))).toBe('team lead may not run `rm -rf src`: it would recursively remove files.');
    expect(lead('shopt -s cdable_vars; cd ./W && rm -rf src')).toEqual({ allowed: true });
  });
});

describe('a glob with .. after its wildcard climbs out of the directory before the wildcard', () => {
  it('the lead may not rm such a glob, even one that starts under /tmp', () => {
    expect(reasonOf(checkCommand('lead', 'rm /tmp/*/../../ws/src/*.ts', leadCtx))).toMatch(/^team lead may not run `rm \/tmp\/\*\/\.\.\/\.\.\/ws\/src\/\*\.ts`: it would remove files named at run time/);
    expect(reasonOf(lead('rm -rf */../../../ws/src'))).toMatch(/^team lead may not run `rm -rf \*\/\.\.\/\.\.\/\.\.\/ws\/src`/);
    expect(checkCommand('lead', 'rm /tmp/x/*.log', leadCtx)).toEqual({ allowed: true });
    expect(lead('rm -rf */build')).toEqual({ allowed: true });
  });

  it("a teammate may not remove or write through one (it may reach another worktree)", () => {
    expect(reasonOf(tm('rm -rf ./*/../../bob'))).toMatch(/^teammate may not run `rm -rf \.\/\*\/\.\.\/\.\.\/bob`/);
    expect(reasonOf(tm('rm -rf src/*/../../../bob'))).toMatch(/^teammate may not run/);
    expect(tm('rm -rf ./build/*')).toEqual({ allowed: true });
    expect(tm('rm src/*/old.ts')).toEqual({ allowed: true });
  });
});

describe("find's starting points after its leading options, and read from a file", () => {
  it('-H/-L/-P/-D opts/-O3 come before the starting points: the start after them is the one checked', () => {
    expect(reasonOf(lead('find -P /ws/src -delete'))).toBe('team lead may not run `find -P /ws/src -delete`: it would delete every matched file (find -delete).');
    expect(reasonOf(lead('find -D stat -O3 /ws/src -name x -delete'))).toMatch(/delete every matched file \(find -delete\)/);
    expect(reasonOf(tm('find -L ../bob -delete'))).toMatch(/^teammate may not run `find -L \.\.\/bob -delete`: it would find -delete: write into another teammate's worktree/);
    expect(lead('find -L /tmp/x/build -delete')).toEqual({ allowed: true });
  });

  it('-files0-from reads the starting points from a file: they are unknown', () => {
    expect(reasonOf(lead('find -files0-from /tmp/list -delete'))).toMatch(/delete every matched file \(find -delete\)/);
    expect(reasonOf(lead('find /tmp/x -files0-from=/tmp/list -delete'))).toMatch(/delete every matched file \(find -delete\)/);
    expect(lead('find -files0-from /tmp/list -name x -print')).toEqual({ allowed: true });
  });
});

describe("a teammate's cd to an absolute path among more than 16 possible cwds", () => {
  const cds = (n: number) => Array.from({ length: n }, (_, i) => `cd d${i}`).join(' && ');
  it('is not lost when the cwds become unknown: relative writes and removes are refused', () => {
    expect(reasonOf(tm(`${cds(4)} && cd /ws && echo x > src/a.ts`))).toBe('teammate may not run `echo x > src/a.ts`: it would write (redirect) a path computed at run time (src/a.ts).');
    expect(reasonOf(tm(`${cds(4)} && cd /ws/src && rm -rf lib`))).toMatch(/^teammate may not run `rm -rf lib`/);
    expect(tm(`${cds(4)} && echo x > a.ts`)).toEqual({ allowed: true });
    expect(tm(`${cds(4)} && cd /ws && echo x > /tmp/a.ts`)).toEqual({ allowed: true });
  });
});

describe('HOME assigned in the input moves cd and ~', () => {
  it('a bare cd, cd ~ and ~ paths are unknown when the input sets HOME', () => {
    expect(reasonOf(tm('HOME=/ws/.worktrees/bob; cd; echo x > a.ts'))).toMatch(/^teammate may not run `echo x > a\.ts`: it would write \(redirect\) a path computed at run time/);
    expect(reasonOf(tm('HOME=/ws/.worktrees/bob; echo x > ~/a.ts'))).toMatch(/^teammate may not run `echo x > ~\/a\.ts`: it would write \(redirect\) a path computed at run time/);
    expect(reasonOf(tm('export HOME=/ws; cd ~/src && touch a.ts'))).toMatch(/^teammate may not run `touch a\.ts`/);
    expect(tm('cd; echo x > a.ts')).toEqual({ allowed: true });
    expect(tm('echo x > ~/a.ts')).toEqual({ allowed: true });
  });

  it("the lead's scratch exemption does not hold for ~ paths when the input sets HOME (home under /tmp)", () => {
    const homeInTmp: GuardContext = { ...inTmp, home: '/tmp/h' };
    expect(reasonOf(checkCommand('lead', 'HOME=/ws; rm -rf ~/src', homeInTmp))).toBe('team lead may not run `rm -rf ~/src`: it would recursively remove files.');
    expect(checkCommand('lead', 'rm -rf ~/build', homeInTmp)).toEqual({ allowed: true });
  });
});
