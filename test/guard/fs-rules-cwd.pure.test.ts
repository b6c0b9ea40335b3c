/**
 * fs-rules.ts: the lead's scratch exemptions (`rm -rf`, `find -delete`, `rm <glob>` under /tmp) hold only for
 * paths whose place is known. After a cd to a run-time directory (or `cd -`) a relative path may be anywhere,
 * the workspace included, so it is no scratch path, even when the lead's cwd is in /tmp.
 */
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/core/guard/index.js';
import type { GuardContext, GuardVerdict } from '../../src/core/guard/types.js';
import { leadCtx } from './fixtures.js';

const inTmp: GuardContext = { ...leadCtx, cwd: '/tmp/x' };
const lead = (cmd: string) => checkCommand('lead', cmd, inTmp);
const reasonOf = (v: GuardVerdict) => (v.allowed ? null : v.reason);

describe("the lead's scratch exemptions after a cd to an unknown directory (session 4)", () => {
  it('rm -rf of a relative path is refused after cd "$D" or cd -, allowed when the cwd is known', () => {
    expect(lead('rm -rf build')).toEqual({ allowed: true });
    expect(reasonOf(lead('cd "$D" && rm -rf build'))).toBe('team lead may not run `rm -rf build`: it would recursively remove files.');
    expect(reasonOf(lead('cd - && rm -rf src'))).toBe('team lead may not run `rm -rf src`: it would recursively remove files.');
    expect(lead('cd - && rm -rf /tmp/x/build')).toEqual({ allowed: true });
  });

  it('a path from home is known after cd -: a home under /tmp is scratch', () => {
    const homeInTmp: GuardContext = { ...inTmp, home: '/tmp/h' };
    expect(checkCommand('lead', 'cd - && rm -rf ~/build', homeInTmp)).toEqual({ allowed: true });
    expect(reasonOf(checkCommand('lead', 'cd - && rm -rf ~/build', inTmp))).toBe('team lead may not run `rm -rf ~/build`: it would recursively remove files.');
  });

  it('find -delete from a relative start is refused after cd -', () => {
    expect(lead('find build -delete')).toEqual({ allowed: true });
    expect(reasonOf(lead('cd - && find build -delete'))).toBe('team lead may not run `find build -delete`: it would delete every matched file (find -delete).');
    expect(lead('cd - && find /tmp/x/build -delete')).toEqual({ allowed: true });
  });

  it('rm of a relative glob is refused after cd -', () => {
    expect(lead('rm src/*.ts')).toEqual({ allowed: true });
    expect(reasonOf(lead('cd - && rm src/*.ts'))).toBe('team lead may not run `rm src/*.ts`: it would remove every file matching src/*.ts.');
    expect(lead('cd - && rm /tmp/x/*.ts')).toEqual({ allowed: true });
  });
});
