import path from 'node:path';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { explainRefusal } from './explain.js';
import { areaOf, otherWorktreeAdmins, ownWorktreeAdmin, policyFor } from './policy.js';
import { layeredSandboxSettings, sandboxSettings } from './settings.js';

const ws = '/work/proj';
const home = '/home/u';
const base = { workspaceRoot: ws, home, tmpDirs: ['/tmp'] };
const defaults = sandboxSettings({});

describe('sandbox policy per role', () => {
  it('lead: only git objects and refs, the declared build directories, scratch and caches are writable', () => {
    const p = policyFor({ ...base, role: 'lead', cwd: ws }, defaults);
    for (const d of ['objects', 'refs', 'logs']) expect(p.allowWrite).toContain(path.join(ws, '.git', d));
    // Never the git dir itself: a `commondir` written there would steer git run outside the sandbox.
    expect(p.allowWrite).not.toContain(path.join(ws, '.git'));
    expect(areaOf(p, path.join(ws, '.git/commondir')).writable).toBe(false);
    expect(p.allowWrite).toContain(path.join(ws, 'node_modules'));
    expect(p.allowWrite).toContain(path.join(ws, 'coverage'));
    expect(p.allowWrite).toContain('/tmp');
    expect(p.allowWrite).toContain(path.join(home, '.npm'));
    expect(p.allowWrite).not.toContain(ws);
    expect(p.allowWrite.some((w) => w.startsWith(path.join(ws, '.worktrees')))).toBe(false);
    expect(p.denyWrite).toEqual([path.join(ws, '.thclaws'), path.join(ws, '.git/hooks'), path.join(ws, '.git/config')]);
    expect(p.denyRead).toEqual([path.join(home, '.ssh'), path.join(home, '.aws'), path.join(home, '.gnupg')]);
    expect(p.allowedDomains).toBeUndefined();
  });

  it('lead: the build directory setting replaces the defaults and cannot reach outside the workspace', () => {
    const p = policyFor({ ...base, role: 'lead', cwd: ws }, sandboxSettings({ sandboxBuildDirs: ['out', '../escape', '.'] }));
    expect(p.allowWrite).toContain(path.join(ws, 'out'));
    expect(p.allowWrite).not.toContain(path.join(ws, 'node_modules'));
    expect(p.allowWrite).not.toContain('/work/escape');
    expect(p.allowWrite).not.toContain(ws);
  });

  it("lead: no build directory is, holds or lies in the git dir, the worktrees or .thclaws/", () => {
    const p = policyFor({ ...base, role: 'lead', cwd: ws }, sandboxSettings({ sandboxBuildDirs: ['.git', '.git/info', '.worktrees/bob', '.thclaws/state', 'dist'] }));
    expect(p.allowWrite.filter((w) => w.startsWith(ws))).toEqual(['objects', 'refs', 'logs', 'dist'].map((d) => path.join(ws, d === 'dist' ? d : `.git/${d}`)));
    expect(areaOf(p, path.join(ws, '.git/commondir')).writable).toBe(false);
    expect(areaOf(p, path.join(ws, '.worktrees/bob/x')).writable).toBe(false);
  });

  it("a cloned project's settings may narrow the lead's build directories, not add to them", () => {
    const r = layeredSandboxSettings({}, { sandboxBuildDirs: ['dist', './node_modules/', 'src', '.git'] });
    expect(r.settings.sandboxBuildDirs).toEqual(['dist', './node_modules/']);
    expect(r.ignored).toEqual(['sandboxBuildDirs src, .git']);
    // The user's own list is the one a project narrows.
    expect(layeredSandboxSettings({ sandboxBuildDirs: ['gen'] }, { sandboxBuildDirs: ['gen', 'dist'] }).settings.sandboxBuildDirs).toEqual(['gen']);
  });

  it('teammate: its worktree, git objects and refs, and scratch; not the lead checkout nor other worktrees', () => {
    const p = policyFor({ ...base, role: 'teammate', cwd: path.join(ws, '.worktrees/alice/src'), agentName: 'alice' }, defaults);
    expect(p.allowWrite).toContain(path.join(ws, '.worktrees/alice'));
    for (const d of ['objects', 'refs', 'logs']) expect(p.allowWrite).toContain(path.join(ws, '.git', d));
    expect(p.allowWrite).not.toContain(path.join(ws, '.git'));
    expect(areaOf(p, path.join(ws, '.git/commondir')).writable).toBe(false);
    expect(p.allowWrite).not.toContain(ws);
    expect(p.allowWrite).not.toContain(path.join(ws, '.worktrees/bob'));
    expect(areaOf(p, path.join(ws, '.worktrees/bob/x')).rule).toMatch(/other teammates' worktrees/);
    expect(areaOf(p, path.join(ws, 'src/a.ts')).rule).toMatch(/lead's checkout/);
    expect(areaOf(p, path.join(ws, '.worktrees/alice/a')).writable).toBe(true);
  });

  it('teammate without a name: the worktree it runs in is its own', () => {
    const p = policyFor({ ...base, role: 'teammate', cwd: path.join(ws, '.worktrees/carol/pkg') }, defaults);
    expect(p.allowWrite).toContain(path.join(ws, '.worktrees/carol'));
  });

  it('solo: the project root, but never .thclaws/', () => {
    const p = policyFor({ ...base, role: 'solo', cwd: ws }, defaults);
    expect(p.allowWrite).toContain(ws);
    expect(areaOf(p, path.join(ws, 'src/a.ts')).rule).toBe('project root');
    expect(areaOf(p, path.join(ws, '.worktrees/x')).writable).toBe(true);
    expect(p.allowWrite).not.toContain(path.join(ws, '.git'));
    // Scratch directories are normalised.
    expect(policyFor({ ...base, role: 'solo', cwd: ws, tmpDirs: ['/tmp/', '/tmp'] }, defaults).allowWrite.filter((w) => w.startsWith('/tmp'))).toEqual(['/tmp']);
    expect(p.denyWrite).toContain(path.join(ws, '.thclaws'));
  });

  it('added directories (--add-dir) are the workspace: writable for a solo agent, read-only for the lead, none for a teammate', () => {
    const extra = '/data/shared';
    const solo = policyFor({ ...base, role: 'solo', cwd: ws, additionalDirs: [extra] }, defaults);
    expect(solo.allowWrite).toContain(extra);
    expect(areaOf(solo, path.join(extra, 'x.txt'))).toMatchObject({ writable: true, rule: 'added directory (--add-dir)' });
    expect(areaOf(solo, '/data/other.txt').writable).toBe(false);
    const lead = policyFor({ ...base, role: 'lead', cwd: ws, additionalDirs: [extra] }, defaults);
    expect(lead.allowWrite).not.toContain(extra);
    expect(areaOf(lead, path.join(extra, 'x.txt'))).toMatchObject({ writable: false, rule: "the lead's workspace is read-only" });
    expect(policyFor({ ...base, role: 'teammate', cwd: path.join(ws, '.worktrees/alice'), additionalDirs: [extra] }, defaults).allowWrite).not.toContain(extra);
  });

  it('a scratch directory holding the workspace is not opened whole (a private one is made instead)', () => {
    const p = policyFor({ role: 'lead', workspaceRoot: '/tmp/ws', cwd: '/tmp/ws', home, tmpDirs: ['/tmp'] }, defaults);
    expect(p.allowWrite).not.toContain('/tmp');
    expect(p.privateTmpParent).toBe('/tmp');
  });

  it('no cache or extra-write directory that holds the workspace becomes writable (it would re-open the workspace)', () => {
    // A workspace under ~/.cache: the default cache list names ~/.cache itself.
    const cached = '/home/u/.cache/proj';
    for (const role of ['lead', 'teammate'] as const) {
      const cwd = role === 'lead' ? cached : path.join(cached, '.worktrees/alice');
      const p = policyFor({ role, workspaceRoot: cached, cwd, home, tmpDirs: ['/tmp'] }, defaults);
      expect(p.allowWrite).not.toContain(path.join(home, '.cache'));
      expect(p.allowWrite.filter((w) => cached.startsWith(`${w}/`))).toEqual([]);
      expect(areaOf(p, path.join(cached, 'src/a.ts')).writable).toBe(false);
      // The other caches stay writable.
      expect(p.allowWrite).toContain(path.join(home, '.npm'));
    }
    // A user's extra-write setting of the home directory (or the root) holding the workspace.
    const ws2 = '/home/u/proj';
    const extra = sandboxSettings({ sandboxExtraWrite: ['~', '/', '~/other'] });
    const p = policyFor({ role: 'lead', workspaceRoot: ws2, cwd: ws2, home, tmpDirs: ['/tmp'] }, extra);
    expect(p.allowWrite).not.toContain(home);
    expect(p.allowWrite).not.toContain('/');
    expect(p.allowWrite).toContain(path.join(home, 'other'));
    expect(areaOf(p, path.join(ws2, 'src/a.ts')).writable).toBe(false);
    // Solo has no role wall to keep: its whole project is writable anyway.
    expect(policyFor({ role: 'solo', workspaceRoot: ws2, cwd: ws2, home, tmpDirs: ['/tmp'] }, extra).allowWrite).toContain(home);
  });

  it('network: open unless an allowlist is set', () => {
    const p = policyFor({ ...base, role: 'solo', cwd: ws }, sandboxSettings({ sandboxAllowedDomains: ['registry.npmjs.org'] }));
    expect(p.allowedDomains).toEqual(['registry.npmjs.org']);
  });

  it('bad settings name their key', () => {
    expect(() => sandboxSettings({ sandbox: 'maybe' })).toThrow(/key "sandbox"/);
    expect(() => sandboxSettings({ sandboxBuildDirs: 'dist' })).toThrow(/key "sandboxBuildDirs"/);
  });
});

describe('explaining a refused write', () => {
  // Built inside each test: a policy built while tests are collected would fail the file, not a test.
  const lead = () => policyFor({ ...base, role: 'lead', cwd: ws }, defaults);
  it('names the path, the rule and what to do instead', () => {
    const msg = explainRefusal("rm: cannot remove 'src/a.ts': Read-only file system", ws, lead());
    expect(msg).toBe(`[sandbox] write refused: ${ws}/src/a.ts — the lead's workspace is read-only: the team lead is a coordinator and does not change source files. ${lead().areas.find((a) => a.path === ws)?.instead}`);
    expect(explainRefusal('/bin/sh: 1: cannot create a.txt: Read-only file system', ws, lead())).toMatch(/write refused: \/work\/proj\/a\.txt/);
    expect(explainRefusal("Error: EROFS: read-only file system, open '/work/proj/.thclaws/x'", ws, lead())).toMatch(/\.thclaws\/ is read-only from Bash/);
  });
  it('says nothing when nothing was refused, or when EPERM has another cause', () => {
    expect(explainRefusal('all good\n', ws, lead())).toBeUndefined();
    expect(explainRefusal('kill: (1) - Operation not permitted', ws, lead())).toBeUndefined();
    expect(explainRefusal("touch: cannot touch '/tmp/x': Operation not permitted", ws, lead())).toBeUndefined();
  });
  it("git's and other tools' shapes name the path", () => {
    expect(explainRefusal('error: unable to create file alice.txt: Read-only file system', ws, lead())).toMatch(/write refused: \/work\/proj\/alice\.txt — the lead's workspace is read-only/);
    expect(explainRefusal('mkdir: cannot create directory ‘src/x’: Read-only file system', ws, lead())).toMatch(/write refused: \/work\/proj\/src\/x/);
    expect(explainRefusal("PermissionError: [Errno 30] Read-only file system: 'src/a.py'", ws, lead())).toMatch(/write refused: \/work\/proj\/src\/a\.py/);
  });
  it("without a path, names the role's main rule and what to do instead", () => {
    expect(explainRefusal('write failed: Read-only file system', ws, lead())).toMatch(/^\[sandbox\] a write was refused by the OS sandbox — the lead's workspace is read-only: .*SendMessage/);
  });
});

describe('teammate without a worktree', () => {
  it('writes the shared checkout but not the worktrees or .thclaws/', () => {
    const p = policyFor({ ...base, role: 'teammate', cwd: path.join(ws, 'pkg'), agentName: 'dave' }, defaults);
    expect(p.allowWrite).toContain(ws);
    expect(p.denyWrite).toEqual([path.join(ws, '.thclaws'), path.join(ws, '.git/hooks'), path.join(ws, '.git/config'), path.join(ws, '.worktrees')]);
  });
});

describe('settings layers: a project may tighten, only the user may loosen', () => {
  it('ignores a project turning the sandbox off or adding writable paths', () => {
    const r = layeredSandboxSettings({}, { sandbox: 'off', sandboxExtraWrite: ['/'], sandboxDenyRead: [] });
    expect(r.settings.sandbox).toBe('auto');
    expect(r.settings.sandboxExtraWrite).toEqual([]);
    expect(r.settings.sandboxDenyRead).toEqual(['~/.ssh', '~/.aws', '~/.gnupg']);
    expect(r.ignored).toEqual(['sandbox: "off"', 'sandboxExtraWrite']);
  });
  it('honours the user turning it off, and a project requiring it or adding denies and an allowlist', () => {
    expect(layeredSandboxSettings({ sandbox: 'off' }, {}).settings.sandbox).toBe('off');
    const r = layeredSandboxSettings({ sandbox: 'off' }, { sandbox: 'required', sandboxDenyRead: ['~/.kube'], sandboxAllowedDomains: ['github.com'], sandboxBuildDirs: ['out'] });
    expect(r.settings).toMatchObject({ sandbox: 'required', sandboxAllowedDomains: ['github.com'], sandboxBuildDirs: ['out'] });
    expect(r.settings.sandboxDenyRead).toContain('~/.kube');
    expect(r.settings.sandboxDenyRead).toContain('~/.ssh');
    expect(r.ignored).toEqual([]);
  });
});

describe("a teammate's neighbours' worktree metadata", () => {
  it("its own admin directory is the one its .git file names, and only straight below <git dir>/worktrees", () => {
    const p = policyFor({ ...base, role: 'teammate', cwd: path.join(ws, '.worktrees/alice'), agentName: 'alice' }, defaults);
    expect(ownWorktreeAdmin(p, `gitdir: ${ws}/.git/worktrees/alice1\n`)).toBe(path.join(ws, '.git/worktrees/alice1'));
    expect(ownWorktreeAdmin(p, `gitdir: ${ws}/.git\n`)).toBeNull();
    expect(ownWorktreeAdmin(p, `gitdir: ${ws}/.git/worktrees/../../src\n`)).toBeNull();
    expect(ownWorktreeAdmin(p, 'gitdir: /tmp/elsewhere\n')).toBeNull();
  });

  it('is every entry of .git/worktrees but its own (found through its .git file)', () => {
    const p = policyFor({ ...base, role: 'teammate', cwd: path.join(ws, '.worktrees/alice'), agentName: 'alice' }, defaults);
    const own = `gitdir: ${ws}/.git/worktrees/alice1\n`;
    expect(otherWorktreeAdmins(p, ['alice1', 'bob', 'carol'], own)).toEqual([path.join(ws, '.git/worktrees/bob'), path.join(ws, '.git/worktrees/carol')]);
    expect(otherWorktreeAdmins(p, ['alice1', 'bob'], null)).toEqual([]);
    expect(otherWorktreeAdmins(policyFor({ ...base, role: 'lead', cwd: ws }, defaults), ['bob'], own)).toEqual([]);
  });
});

describe('every area explains itself', () => {
  const roles = [
    { role: 'lead' as const, cwd: ws },
    { role: 'teammate' as const, cwd: path.join(ws, '.worktrees/alice'), agentName: 'alice' },
    { role: 'teammate' as const, cwd: path.join(ws, 'pkg'), agentName: 'dave' },
    { role: 'solo' as const, cwd: ws },
  ];
  it('a refused area names its rule, why and what to do instead; a writable one only its rule', () => {
    // Under /tmp the shared scratch area (refused) is among them; elsewhere the scratch area is writable.
    for (const r of roles) for (const root of ['/tmp/ws', ws]) {
      const p = policyFor({ ...base, ...r, workspaceRoot: root, cwd: r.cwd.replace(ws, root) }, sandboxSettings({ sandboxExtraWrite: ['~/x'] }));
      expect(p.areas.length, r.role).toBeGreaterThan(5);
      expect(p.allowWrite.every((w) => path.isAbsolute(w)), r.role).toBe(true);
      for (const a of p.areas) {
        expect(a.rule.length, `${r.role} ${a.path}`).toBeGreaterThan(5);
        if (a.writable) expect([a.why, a.instead], `${r.role} ${a.path}`).toEqual(['', '']);
        else {
          expect(a.why.length, `${r.role} ${a.path}`).toBeGreaterThan(10);
          expect(a.instead.length, `${r.role} ${a.path}`).toBeGreaterThan(10);
        }
      }
    }
  });

  it("the outermost area names the role; a teammate's advice names its worktree", () => {
    const why = (role: 'lead' | 'teammate' | 'solo') => policyFor({ ...base, role, cwd: role === 'teammate' ? path.join(ws, '.worktrees/alice') : ws }, defaults).areas[0]?.why;
    expect(why('lead')).toBe("the team lead's Bash only writes where its role allows");
    expect(why('teammate')).toBe("the teammate's Bash only writes where its role allows");
    expect(why('solo')).toBe("the agent's Bash only writes where its role allows");
    const t = policyFor({ ...base, role: 'teammate', cwd: path.join(ws, '.worktrees/alice') }, defaults);
    expect(areaOf(t, path.join(ws, 'src')).instead).toBe(`Work in your worktree ${path.join(ws, '.worktrees/alice')}; the lead integrates your branch with TeamMerge.`);
    const l = policyFor({ ...base, role: 'lead', cwd: ws }, sandboxSettings({ sandboxBuildDirs: ['dist'] }));
    expect(areaOf(l, path.join(ws, 'src')).instead).toMatch(/Writable for you: \.git\/objects\/, \.git\/refs\/, \.git\/logs\/, dist\/; scratch files may go to \$TMPDIR or \/tmp\.$/);
  });
});

describe('policy inputs and their defaults', () => {
  it('scratch defaults to /tmp, /var/tmp and the OS temp dir; home to the OS home', async () => {
    const os = await import('node:os');
    const p = policyFor({ role: 'lead', workspaceRoot: ws, cwd: ws }, defaults);
    expect(p.areas.filter((a) => a.rule === 'scratch directory').map((a) => a.path)).toEqual([...new Set(['/tmp', '/var/tmp', path.resolve(os.tmpdir())])]);
    expect(p.allowWrite).toContain(path.join(os.homedir(), '.npm'));
    expect(p.denyRead).toContain(path.join(os.homedir(), '.ssh'));
  });

  it('a git common dir elsewhere moves the git areas with it', () => {
    const p = policyFor({ ...base, role: 'lead', cwd: ws, gitCommonDir: '/repos/proj.git' }, defaults);
    expect(p.gitDir).toBe('/repos/proj.git');
    expect(p.allowWrite).toContain('/repos/proj.git/objects');
    expect(p.denyWrite).toEqual([path.join(ws, '.thclaws'), '/repos/proj.git/hooks', '/repos/proj.git/config']);
    expect(areaOf(p, '/repos/proj.git/HEAD').writable).toBe(false);
    expect(areaOf(p, '/repos/proj.git/refs/heads/x').writable).toBe(true);
  });

  it("a teammate's own worktree is the first segment below .worktrees/ of where it runs, none outside", () => {
    const t = policyFor({ ...base, role: 'teammate', cwd: path.join(ws, '.worktrees/alice/a/b') }, defaults);
    expect(t.ownWorktree).toBe(path.join(ws, '.worktrees/alice'));
    expect(policyFor({ ...base, role: 'teammate', cwd: path.join(ws, '.worktrees') }, defaults).ownWorktree).toBeUndefined();
    expect(policyFor({ ...base, role: 'teammate', cwd: '/elsewhere' }, defaults).ownWorktree).toBeUndefined();
    expect(policyFor({ ...base, role: 'lead', cwd: path.join(ws, '.worktrees/alice') }, defaults).ownWorktree).toBeUndefined();
    // Its neighbours' admin directories stay read-only; its own worktree metadata is found per wrap.
    expect(areaOf(t, path.join(ws, '.git/worktrees/bob/HEAD')).writable).toBe(false);
    expect(t.allowWrite).not.toContain(ws);
  });

  it('the most specific area decides, whatever the order', () => {
    const p = policyFor({ ...base, role: 'lead', cwd: ws }, defaults);
    expect(areaOf(p, '/etc/passwd').rule).toBe('outside the writable areas');
    expect(areaOf(p, path.join(ws, '.thclaws/state/x')).rule).toBe('.thclaws/ is read-only from Bash');
    expect(areaOf(p, path.join(ws, '.git/hooks/pre-commit')).rule).toBe('git hooks are read-only');
    expect(areaOf(p, path.join(ws, '.git/config')).rule).toBe('the shared git config is read-only');
    expect(areaOf(p, path.join(ws, '.git/objects/ab')).writable).toBe(true);
    expect(areaOf(p, path.join(ws, 'node_modules/x')).rule).toBe('declared build directory');
    expect(areaOf(p, '/tmp/x').rule).toBe('scratch directory');
    expect(areaOf(p, path.join(home, '.cache/x')).rule).toBe('cache directory');
  });
});

describe('edge cases the mutation run found untested', () => {
  it('the first scratch directory holding the workspace is the private scratch parent', () => {
    const p = policyFor({ role: 'lead', workspaceRoot: '/tmp/a/ws', cwd: '/tmp/a/ws', home, tmpDirs: ['/tmp', '/tmp/a', '/var/tmp'] }, defaults);
    expect(p.privateTmpParent).toBe('/tmp');
    expect(p.allowWrite).toContain('/var/tmp');
    expect(p.allowWrite).not.toContain('/tmp/a');
    expect(areaOf(p, '/tmp/a/x').rule).toBe('shared scratch directory');
  });

  it(".git file spellings: no space after the colon, surrounding blanks, other lines before it", () => {
    const p = policyFor({ ...base, role: 'teammate', cwd: path.join(ws, '.worktrees/alice'), agentName: 'alice' }, defaults);
    const admin = path.join(ws, '.git/worktrees/alice1');
    expect(ownWorktreeAdmin(p, `gitdir:${admin}`)).toBe(admin);
    expect(ownWorktreeAdmin(p, `gitdir: ${admin}   \n`)).toBe(admin);
    expect(ownWorktreeAdmin(p, `# note\ngitdir: ${admin}\n`)).toBe(admin);
    expect(ownWorktreeAdmin(p, `xgitdir: ${admin}\n`)).toBeNull();
    expect(ownWorktreeAdmin(p, 'no pointer here')).toBeNull();
    expect(ownWorktreeAdmin(p, null)).toBeNull();
    // A relative pointer is taken from the worktree, and the canonical form decides.
    expect(ownWorktreeAdmin(p, 'gitdir: ../../.git/worktrees/alice1')).toBe(admin);
    expect(ownWorktreeAdmin(p, 'gitdir: /link/alice1', () => admin)).toBe(admin);
    expect(otherWorktreeAdmins(p, ['alice1', 'bob'], 'gitdir: /link/alice1', () => admin)).toEqual([path.join(ws, '.git/worktrees/bob')]);
    expect(otherWorktreeAdmins(p, ['bob'], 'no pointer')).toEqual([]);
    const noOwn = policyFor({ ...base, role: 'teammate', cwd: path.join(ws, 'pkg') }, defaults);
    expect(ownWorktreeAdmin(noOwn, `gitdir: ${admin}`)).toBeNull();
    expect(otherWorktreeAdmins(noOwn, ['bob'], `gitdir: ${admin}`)).toEqual([]);
  });
});

describe('what a mutation run showed untested', () => {
  it('directories no Bash may create entries in: state and hooks, and the worktrees for a teammate without one', () => {
    const dirs = (role: 'lead' | 'teammate' | 'solo', cwd: string) => policyFor({ ...base, role, cwd }, defaults).denyWriteDirs;
    const fixed = [path.join(ws, '.thclaws'), path.join(ws, '.git/hooks')];
    expect(dirs('lead', ws)).toEqual(fixed);
    expect(dirs('solo', ws)).toEqual(fixed);
    expect(dirs('teammate', path.join(ws, '.worktrees/alice'))).toEqual(fixed);
    expect(dirs('teammate', path.join(ws, 'pkg'))).toEqual([...fixed, path.join(ws, '.worktrees')]);
  });

  it('~ and ~/x are the home directory, any other path is taken as written', () => {
    const p = policyFor({ ...base, role: 'lead', cwd: ws }, sandboxSettings({ sandboxDenyRead: ['~', '~/.kube', '/etc/secret'], sandboxExtraWrite: ['/opt/cache', '~/x'] }));
    expect(p.denyRead).toEqual([home, path.join(home, '.kube'), '/etc/secret']);
    expect(p.allowWrite).toContain('/opt/cache');
    expect(p.allowWrite).toContain(path.join(home, 'x'));
  });

  it('without a list of scratch directories: /tmp, /var/tmp and the OS temp directory', () => {
    const p = policyFor({ role: 'solo', workspaceRoot: ws, cwd: ws, home }, defaults);
    expect(p.areas.filter((a) => a.rule === 'scratch directory').map((a) => a.path)).toEqual([...new Set(['/tmp', '/var/tmp', path.resolve(os.tmpdir())])]);
  });

  it("a teammate with a worktree: other teammates' worktree metadata is its own area, git's control files another", () => {
    const p = policyFor({ ...base, role: 'teammate', cwd: path.join(ws, '.worktrees/alice'), agentName: 'alice' }, defaults);
    expect(areaOf(p, path.join(ws, '.git/worktrees/bob/HEAD')).rule).toBe("other teammates' worktree metadata is read-only");
    expect(areaOf(p, path.join(ws, '.git/HEAD')).rule).toBe("git's control files are read-only");
  });

  it(".git file spellings for the neighbours' metadata too: no space after the colon, trailing blanks, only at a line start", () => {
    const p = policyFor({ ...base, role: 'teammate', cwd: path.join(ws, '.worktrees/alice'), agentName: 'alice' }, defaults);
    const admin = path.join(ws, '.git/worktrees/alice1');
    const bob = [path.join(ws, '.git/worktrees/bob')];
    expect(otherWorktreeAdmins(p, ['alice1', 'bob'], `gitdir:${admin}`)).toEqual(bob);
    expect(otherWorktreeAdmins(p, ['alice1', 'bob'], `gitdir: ${admin}   \n`)).toEqual(bob);
    expect(otherWorktreeAdmins(p, ['alice1', 'bob'], `# note\ngitdir:  ${admin}\n`)).toEqual(bob);
    expect(otherWorktreeAdmins(p, ['alice1', 'bob'], `xgitdir: ${admin}\n`)).toEqual([]);
  });
});
