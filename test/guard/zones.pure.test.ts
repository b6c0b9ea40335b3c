/**
 * Where a path lands (paths.ts), through checkWrite/checkCommand with contexts the corpus does not use:
 * a teammate known only by its branch or its cwd, default scratch and home directories, `~` and globs.
 */
import os from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { checkCommand, checkWrite } from '../../src/core/guard/index.js';
import type { GuardContext } from '../../src/core/guard/types.js';
import { fakeGit, leadCtx, teammateCtx, WS } from './fixtures.js';

const allowed = { allowed: true };
const reasonOf = (v: { allowed: boolean; reason?: string }) => (v.allowed ? null : v.reason);

describe('a teammate without an agent name', () => {
  const anon = (over: Partial<GuardContext>): GuardContext => ({ workspaceRoot: WS, cwd: WS, tmpDirs: ['/tmp'], home: '/home/u', git: fakeGit, ...over });

  it('owns the worktree its team/ branch names', () => {
    const ctx = anon({ branch: 'team/alice', cwd: `${WS}/.worktrees/alice` });
    expect(checkWrite('teammate', `${WS}/.worktrees/alice/a.ts`, ctx)).toEqual(allowed);
    expect(reasonOf(checkWrite('teammate', `${WS}/.worktrees/bob/a.ts`, ctx))).toMatch(/another teammate's worktree/);
    expect(reasonOf(checkWrite('teammate', `${WS}/src/a.ts`, ctx))).toMatch(/lead's checkout/);
  });

  it('without a team/ branch, owns the worktree it runs in (and only that one)', () => {
    const ctx = anon({ branch: 'feature', cwd: `${WS}/.worktrees/carol/pkg` });
    expect(checkWrite('teammate', `${WS}/.worktrees/carol/a.ts`, ctx)).toEqual(allowed);
    expect(reasonOf(checkWrite('teammate', `${WS}/.worktrees/bob/a.ts`, ctx))).toMatch(/another teammate's worktree/);
    expect(reasonOf(checkWrite('teammate', `${WS}/src/a.ts`, ctx))).toMatch(/lead's checkout/);
  });

  it('run outside any worktree, owns none: every worktree is another teammate\'s, and the checkout is not confined', () => {
    for (const cwd of [WS, `${WS}/.worktrees`, '/tmp/job']) {
      const ctx = anon({ cwd });
      expect(reasonOf(checkWrite('teammate', `${WS}/.worktrees/bob/a.ts`, ctx)), cwd).toMatch(/another teammate's worktree/);
      expect(checkWrite('teammate', `${WS}/src/a.ts`, ctx), cwd).toEqual(allowed);
    }
  });

  it('named by its team/ branch, owns that worktree even when run from the shared checkout', () => {
    const ctx = anon({ branch: 'team/alice', cwd: WS });
    expect(checkWrite('teammate', `${WS}/.worktrees/alice/a.ts`, ctx)).toEqual(allowed);
    expect(checkWrite('teammate', `${WS}/.worktrees/bob/a.ts`, ctx).allowed).toBe(false);
    expect(checkWrite('teammate', `${WS}/.worktrees/alice/a.ts`, anon({ branch: 'feature/team/', cwd: WS })).allowed).toBe(false);
    // Its agent name wins over the branch it happens to be on.
    expect(checkWrite('teammate', `${WS}/.worktrees/alice/a.ts`, { ...teammateCtx, cwd: WS, branch: 'team/x' })).toEqual(allowed);
  });

  it('named `lead`, owns no worktree', () => {
    const ctx = anon({ agentName: 'lead', cwd: WS });
    expect(reasonOf(checkWrite('teammate', `${WS}/.worktrees/lead/a.ts`, ctx))).toMatch(/another teammate's worktree/);
  });
});

describe('a teammate\'s zones', () => {
  it('the worktrees directory itself, and any directory holding it, is refused to a recursive delete', () => {
    expect(reasonOf(checkWrite('teammate', `${WS}/.worktrees`, teammateCtx))).toMatch(/worktrees directory/);
    expect(reasonOf(checkCommand('teammate', `rm -rf ${WS}/.worktrees`, teammateCtx))).toMatch(/worktrees directory/);
    // `rm -r` of a directory that holds the worktrees deletes them all; a single file there does not.
    expect(reasonOf(checkCommand('teammate', 'rm -rf ../../', teammateCtx))).toMatch(/worktrees directory/);
    expect(checkCommand('teammate', 'rmdir /tmp/empty', teammateCtx)).toEqual(allowed);
  });

  it('each refusal says which zone, in words a person reads', () => {
    const cases: Array<[string, string]> = [
      [`${WS}/.worktrees/bob/a.ts`, `write into another teammate's worktree (${WS}/.worktrees/bob/a.ts)`],
      [`${WS}/.worktrees`, `touch the team's worktrees directory (${WS}/.worktrees), which holds other teammates' worktrees`],
      [`${WS}/.thclaws/x`, `write team state under .thclaws/ (${WS}/.thclaws/x)`],
      [`${WS}/.git/config`, `write inside the shared .git directory (${WS}/.git/config)`],
      [`${WS}/src/a.ts`, `write into the lead's checkout (${WS}/src/a.ts), outside your own worktree`],
    ];
    for (const [p, words] of cases) expect(reasonOf(checkWrite('teammate', p, teammateCtx))).toBe(`teammate may not write ${p}: it would ${words}.`);
  });
});

describe('scratch and home defaults', () => {
  const bare: GuardContext = { workspaceRoot: WS, cwd: WS, branch: 'main', agentName: 'lead', git: fakeGit };

  it('without tmpDirs, /tmp, /var/tmp and the OS temp dir are scratch for the lead\'s rm -r; the scratch dir itself is not', () => {
    for (const d of ['/tmp', '/var/tmp', os.tmpdir()]) {
      expect(checkCommand('lead', `rm -rf ${d}/build`, bare), d).toEqual(allowed);
      expect(checkCommand('lead', `rm -rf ${d}`, bare).allowed, d).toBe(false);
    }
    expect(checkCommand('lead', 'rm -rf /srv/build', bare).allowed).toBe(false);
    expect(checkCommand('lead', 'rm -rf /tmp/../srv/build', bare).allowed).toBe(false);
  });

  it('a temp dir inside another (TMPDIR=/tmp/user/1000, as test runs and some systems set it) is a root too: its content may go, never it', () => {
    const nested: GuardContext = { ...bare, tmpDirs: ['/tmp', '/tmp/user/1000'] };
    expect(checkCommand('lead', 'rm -rf /tmp/user/1000/build', nested)).toEqual(allowed);
    expect(checkCommand('lead', 'rm -rf /tmp/user/1000', nested).allowed).toBe(false);
    expect(checkCommand('lead', 'rm -rf /tmp/other', nested)).toEqual(allowed);
  });

  it('`~` is the context\'s home (or the OS home without one), not a directory named ~ in the cwd', () => {
    // The lead may write outside the workspace; `~` taken literally would be `/ws/~/…`, inside it.
    expect(checkCommand('lead', 'echo x > ~/notes.txt', leadCtx)).toEqual(allowed);
    expect(checkCommand('lead', 'echo x > ~', leadCtx)).toEqual(allowed);
    expect(checkCommand('lead', 'echo x > ~x/notes.txt', leadCtx).allowed).toBe(false);
    const homeInWs = { ...leadCtx, home: `${WS}/home` };
    expect(reasonOf(checkCommand('lead', 'echo x > ~/notes.txt', homeInWs))).toMatch(new RegExp(`${WS}/home/notes.txt inside the workspace`));
    expect(checkCommand('lead', 'rm -rf ~/build', { ...leadCtx, home: '/tmp/h' })).toEqual(allowed);
    const osHome = { ...leadCtx, home: undefined };
    expect(checkCommand('lead', `rm -rf ~/x`, { ...osHome, tmpDirs: [os.homedir()] })).toEqual(allowed);
  });

  it('a glob stands for everything below its static directory', () => {
    // Teammate: a pattern in another worktree is refused even if no file matches yet.
    expect(reasonOf(checkCommand('teammate', 'rm ../bob/src/*.ts', teammateCtx))).toMatch(/another teammate's worktree \(\/ws\/\.worktrees\/bob\/src\)/);
    expect(reasonOf(checkCommand('teammate', 'rm ../bob/*', teammateCtx))).toMatch(/another teammate's worktree \(\/ws\/\.worktrees\/bob\)/);
    // A pattern at the start of the word is the cwd (the worktree itself for the teammate: allowed).
    expect(checkCommand('teammate', 'rm *.log', teammateCtx)).toEqual(allowed);
    expect(reasonOf(checkCommand('teammate', 'cd ../bob && rm *.log', teammateCtx))).toMatch(/another teammate's worktree \(\/ws\/\.worktrees\/bob\)/);
    // `../bob*/x` may match any directory of the worktrees dir: the pattern's static directory is `..`.
    expect(reasonOf(checkCommand('teammate', 'rm ../bob*/x', teammateCtx))).toMatch(/worktrees directory \(\/ws\/\.worktrees\)/);
    expect(reasonOf(checkCommand('teammate', 'rm ../b?b/src/x', teammateCtx))).toMatch(/worktrees directory \(\/ws\/\.worktrees\)/);
  });

  it('device files are not writes into the workspace, even a workspace at / (a container)', () => {
    const root = { ...leadCtx, workspaceRoot: '/', cwd: '/' };
    expect(checkCommand('lead', 'npm test > /dev/null 2> /dev/stderr', root)).toEqual(allowed);
    expect(checkCommand('lead', 'echo x > /dev/fd/3', root)).toEqual(allowed);
    expect(checkCommand('lead', 'echo x > /dev/sda', root).allowed).toBe(false);
  });

  it('/tmp is scratch even when the OS temp dir is elsewhere', () => {
    vi.stubEnv('TMPDIR', '/var/scratch');
    try {
      const bare: GuardContext = { workspaceRoot: WS, cwd: WS, branch: 'main', agentName: 'lead', git: fakeGit };
      for (const d of ['/tmp', '/var/scratch']) expect(checkCommand('lead', `rm -rf ${d}/build`, bare), d).toEqual(allowed);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
