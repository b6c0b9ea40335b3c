/**
 * git's own argv (git-argv.ts) in spellings the corpus does not use: joined `-C`/`-c` values, global options
 * that take the next word, config keys that run commands or point git elsewhere, aliases.
 */
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/core/guard/index.js';
import { parseGit } from '../../src/core/guard/git-argv.js';
import { literalWord } from '../../src/core/guard/words.js';
import { leadCtx, teammateCtx, WS } from './fixtures.js';

const reasonOf = (v: { allowed: boolean; reason?: string }) => (v.allowed ? null : v.reason);
const words = (s: string) => s.split(' ').map(literalWord);
const tm = (cmd: string) => checkCommand('teammate', cmd, teammateCtx);
const own = `${WS}/.worktrees/alice`;

describe('git global options', () => {
  it('-C moves the directory git acts on, joined or separate, relative to each possible cwd', () => {
    expect(parseGit(words('-C ../bob status'), [own])).toMatchObject({ kind: 'git', sub: 'status', dirs: [`${WS}/.worktrees/bob`] });
    expect(parseGit(words('-C../bob -C sub status'), [own, '/tmp'])).toMatchObject({ dirs: [`${WS}/.worktrees/bob/sub`, '/bob/sub'] });
    expect(reasonOf(tm('git -C../bob commit -am x'))).toMatch(/another teammate's worktree \(\/ws\/\.worktrees\/bob\)/);
  });

  it('a missing or dynamic -C, --work-tree or --git-dir value hides the directory', () => {
    expect(parseGit(words('-C'), [own])).toEqual({ kind: 'none' });
    expect(parseGit(words('--work-tree'), [own])).toEqual({ kind: 'none' });
    for (const cmd of ['git -C "$D" commit -am x', 'git --work-tree "$D" add .', 'git --git-dir "$D" add .', 'git -C /tmp -C "$D" add .', 'git -C "$D" -C sub add .',
      'git -C "$D" --work-tree=sub add .'])
      expect(reasonOf(tm(cmd)), cmd).toMatch(/dynamic -C\/--work-tree/);
  });

  it('--work-tree and --git-dir name the worktree (the git dir sits at its root)', () => {
    expect(parseGit(words('--work-tree ../bob status'), [own])).toMatchObject({ sub: 'status', dirs: [`${WS}/.worktrees/bob`] });
    expect(parseGit(words('--git-dir=../bob/.git status'), [own])).toMatchObject({ sub: 'status', dirs: [`${WS}/.worktrees/bob`] });
    expect(parseGit(words('--git-dir ../bob/.git add .'), [own])).toMatchObject({ sub: 'add', dirs: [`${WS}/.worktrees/bob`] });
    expect(reasonOf(tm('git --git-dir=../bob/.git add .'))).toMatch(/another teammate's worktree/);
  });

  it('options that take a value consume the next word; --exec-path alone does not', () => {
    expect(parseGit(words('--namespace x reset --hard'), [own])).toMatchObject({ sub: 'reset' });
    expect(parseGit(words('--exec-path reset --hard'), [own])).toMatchObject({ sub: 'reset' });
    expect(parseGit(words('--no-pager -p reset'), [own])).toMatchObject({ sub: 'reset' });
    expect(reasonOf(tm('git --namespace x reset --hard main'))).toMatch(/another branch \(main\)/);
    expect(tm('git --exec-path reset --hard main').allowed).toBe(false);
  });

  it('other global options leave the directory alone', () => {
    for (const cmd of ['git --no-pager commit -m x', 'git --namespace=x add .', 'git -p commit -m x', 'git --bare add .'])
      expect(tm(cmd), cmd).toEqual({ allowed: true });
  });

  it('a -c key without a value is true: a hooks path of `true` is still a hooks path', () => {
    expect(parseGit(words('-c core.hooksPath commit'), [own])).toEqual({ kind: 'dynamic' });
  });

  it('--config-env and a -c without a value cannot be read', () => {
    expect(parseGit(words('--config-env=core.pager=P log'), [own])).toEqual({ kind: 'dynamic' });
    expect(parseGit(words('-c'), [own])).toEqual({ kind: 'dynamic' });
    expect(reasonOf(tm('git --config-env=core.pager=P log'))).toMatch(/subcommand or config is computed at run time/);
  });

  it('no subcommand is nothing to check; a dynamic one is refused', () => {
    expect(parseGit(words('-C /tmp'), [own])).toEqual({ kind: 'none' });
    expect(checkCommand('lead', 'git', leadCtx)).toEqual({ allowed: true });
    expect(checkCommand('lead', 'git -p', leadCtx)).toEqual({ allowed: true });
  });
});

describe('git -c values', () => {
  it('command keys, joined or separate and in any case, are checked as scripts', () => {
    expect(parseGit(words('-ccore.pager=less log'), [own])).toMatchObject({ kind: 'git', config: [{ text: 'less' }] });
    expect(parseGit(words('-c CORE.PAGER=less log'), [own])).toMatchObject({ config: [{ text: 'less' }] });
    expect(reasonOf(checkCommand('lead', "git -ccore.pager='rm -rf src' log", leadCtx))).toMatch(/recursively remove files \(through git -c\)/);
    for (const kv of ['pager.log=X', 'diff.foo.textconv=X', 'difftool.x.cmd=X', 'mergetool.x.cmd=X', 'merge.x.driver=X', 'filter.lfs.process=X', 'gpg.program=X',
      'gpg.ssh.program=X', 'uploadpack.packObjectsHook=X', 'remote.origin.uploadpack=X', 'remote.origin.receivepack=X', 'sendemail.smtpserver=X', 'web.browser=X',
      'browser.x.cmd=X', 'man.x.cmd=X', 'core.askPass=X', 'core.gitProxy=X', 'core.alternateRefsCommand=X', 'diff.x.command=X'])
      expect(parseGit(words(`-c ${kv} status`), [own]), kv).toMatchObject({ config: [{ text: 'X' }] });
    for (const kv of ['user.name=X', 'core.fsmonitor', 'core.fsmonitor=TRUE', 'core.fsmonitor= off ', 'credential.helper=store', 'xcore.pager=X', 'core.pagerx=X'])
      expect(parseGit(words(`-c ${kv} status`), [own]), kv).toMatchObject({ config: [] });
  });

  it('a credential helper runs a shell only when it starts with !', () => {
    expect(parseGit(words('-c credential.helper=!rm fetch'), [own])).toMatchObject({ config: [{ text: 'rm' }] });
    expect(parseGit(words('-c credential.https://x.helper=!rm fetch'), [own])).toMatchObject({ config: [{ text: 'rm' }] });
    expect(parseGit(words('-c credential.https://x.helper=cache fetch'), [own])).toMatchObject({ config: [] });
    expect(parseGit(words('-c credential.helperx=!rm fetch'), [own])).toMatchObject({ config: [] });
    expect(parseGit(words('-c credential.x.helperx=!rm fetch'), [own])).toMatchObject({ config: [] });
    expect(parseGit(words('-c xcredential.x.helper=!rm fetch'), [own])).toMatchObject({ config: [] });
  });

  it('keys that point git at hooks, files or other places are refused', () => {
    for (const kv of ['core.hooksPath=/tmp/h', 'includeIf.gitdir:/x.path=/tmp/c', 'protocol.allow=always', 'core.sharedRepository=all', 'safe.directory=*'])
      expect(parseGit(words(`-c ${kv} status`), [own]), kv).toEqual({ kind: 'dynamic' });
    expect(parseGit(words('-c core.hookspathx=1 status'), [own])).toMatchObject({ kind: 'git' });
  });
});

describe('git -c aliases', () => {
  it('an alias expands (case-insensitively, nested, with the rest of the words) before the rules run', () => {
    expect(parseGit(words('-c alias.NUKE=reset nuke --hard main'), [own])).toMatchObject({ kind: 'git', sub: 'reset', args: [{ text: '--hard' }, { text: 'main' }] });
    expect(parseGit(words('-c alias.a=b -c alias.b=reset a --hard'), [own])).toMatchObject({ sub: 'reset', args: [{ text: '--hard' }] });
    expect(reasonOf(tm("git -c alias.r='reset --hard' r main"))).toMatch(/another branch \(main\)/);
    // Words of an alias split at any run of blanks, leading ones included (as git's own split does).
    expect(reasonOf(tm("git -c 'alias.r= reset --hard' r main"))).toMatch(/another branch \(main\)/);
    expect(reasonOf(tm("git -c 'alias.r=reset  --hard' r main"))).toMatch(/another branch \(main\)/);
    // A config key that merely contains `alias.` defines no alias.
    expect(parseGit(words('-c my.alias.x=reset x'), [own])).toMatchObject({ kind: 'git', sub: 'x' });
  });

  it('a chain of aliases deeper than the guard expands is refused (git follows any depth)', () => {
    const chain = (n: number) => `git ${Array.from({ length: n }, (_, i) => `-c alias.a${i}=a${i + 1}`).join(' ')} -c 'alias.a${n}=reset --hard' a0 main`;
    expect(reasonOf(tm(chain(3)))).toMatch(/another branch \(main\)/);
    expect(reasonOf(tm(chain(4)))).toMatch(/another branch \(main\)/);
    expect(tm(chain(6)).allowed).toBe(false);
    // An alias loop: git refuses it itself; the guard does not follow it forever.
    expect(parseGit(words('-c alias.a=b -c alias.b=a a'), [own])).toEqual({ kind: 'dynamic' });
  });

  it('a shell alias (!) is a script with the rest of the words, dynamic when they are', () => {
    expect(parseGit(words('-c alias.x=!rm x -rf src'), [own])).toMatchObject({ kind: 'script', script: { text: 'rm -rf src', dynamic: false } });
    expect(reasonOf(checkCommand('lead', "git -c alias.x='!rm' x -rf $D", leadCtx))).toMatch(/a git shell alias, built at run time/);
    expect(checkCommand('lead', "git -c alias.x='!echo' x $D", leadCtx)).toEqual({ allowed: true });
  });
});
