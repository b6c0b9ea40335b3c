/**
 * check.ts directly through checkCommand: the refusal's wording and limits, IFS splitting for the dynamic-command
 * rule, nesting depth, where scripts come from (substitutions, stdin, heredocs, decoders), cd tracking, and the
 * git and interpreter paths, in spellings the corpus does not use.
 */
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/core/guard/index.js';
import { ADVICE } from '../../src/core/guard/finding.js';
import type { GuardContext, GuardVerdict } from '../../src/core/guard/types.js';
import { leadCtx, teammateCtx } from './fixtures.js';

const lead = (cmd: string, ctx: GuardContext = leadCtx) => checkCommand('lead', cmd, ctx);
const tm = (cmd: string) => checkCommand('teammate', cmd, teammateCtx);
const reasonOf = (v: GuardVerdict) => (v.allowed ? null : v.reason);
const adviceOf = (v: GuardVerdict) => (v.allowed ? null : v.advice);
const DYNAMIC = /built at run time, in a command that carries a destructive verb/;

describe('the refusal', () => {
  it('a command longer than 200,000 characters is refused unparsed, one at the limit is checked', () => {
    const at = `echo ${'a'.repeat(200_000 - 5)}`;
    expect(at.length).toBe(200_000);
    expect(lead(at)).toEqual({ allowed: true });
    expect(lead(`${at}a`)).toEqual({ allowed: false, reason: 'team lead may not run this command: it is too long to verify (200001 characters).', advice: ADVICE.parse });
    expect(reasonOf(tm(`${at}a`))).toBe('teammate may not run this command: it is too long to verify (200001 characters).');
  });

  it('shows the offending command whole up to 160 characters, cut to 157 and ... beyond', () => {
    const cmd = (n: number) => `rm -rf ${'a'.repeat(n - 7)}`;
    expect(reasonOf(lead(cmd(160)))).toBe(`team lead may not run \`${cmd(160)}\`: it would recursively remove files.`);
    expect(reasonOf(lead(cmd(161)))).toBe(`team lead may not run \`${cmd(161).slice(0, 157)}...\`: it would recursively remove files.`);
  });

  it('names the role: the teammate is "teammate"', () => {
    expect(reasonOf(tm('rm -rf ../bob'))).toMatch(/^teammate may not run `rm -rf \.\.\/bob`: it would /);
  });

  it('says when the command was spelled with look-alike characters, and only then', () => {
    expect(reasonOf(lead('гм -rf src'))).toBe('team lead may not run `гм -rf src`: it would recursively remove files (spelled with Unicode look-alike characters).');
    expect(reasonOf(lead('rm -rf src'))).toBe('team lead may not run `rm -rf src`: it would recursively remove files.');
  });

  it('the dynamic-command rule reads the input with look-alikes folded', () => {
    expect(reasonOf(lead('$C x ｒｍ'))).toMatch(DYNAMIC);
    expect(lead('$C x')).toEqual({ allowed: true });
  });

  it('input the shell parser rejects is refused with the parser\'s message', () => {
    expect(lead("echo 'unclosed")).toEqual({ allowed: false, reason: "team lead may not run `echo 'unclosed`: it would run input the shell parser rejects (1:6: reached EOF without closing quote ').", advice: ADVICE.parse });
  });
});

describe('IFS: run-time words split at its characters', () => {
  it('a comma IFS, however quoted, makes `c=rm,-rf,src; $c` carry a destructive verb', () => {
    expect(lead('c=rm,-rf,src; $c')).toEqual({ allowed: true });
    for (const ifs of ['IFS=,', "IFS=$'\\x2c'", "IFS=','", 'IFS=","', 'export IFS=,'])
      expect(reasonOf(lead(`${ifs}; c=rm,-rf,src; $c`)), ifs).toMatch(DYNAMIC);
  });

  it('characters special in a regex class are taken literally', () => {
    expect(lead('c=rm^-rf^src; $c')).toEqual({ allowed: true });
    expect(reasonOf(lead('IFS=^; c=rm^-rf^src; $c'))).toMatch(DYNAMIC);
    expect(reasonOf(lead('IFS=]; c=rm]-rf]src; $c'))).toMatch(DYNAMIC);
    expect(reasonOf(lead("IFS='\\'; c='rm\\-rf\\src'; $c"))).toMatch(DYNAMIC);
    // `a-c` is three characters, not a range: b does not split.
    expect(lead("IFS='a-c'; x=rmb-rf; $x")).toEqual({ allowed: true });
    expect(lead("IFS='^,'; x=rm^-rf; $x; y=ab,cd")).toMatchObject({ allowed: false });
  });

  it('an IFS whose value is unknown makes every punctuation mark a blank; blanks or nothing split nothing new', () => {
    for (const ifs of ['IFS=$X', 'IFS="$X"', 'IFS=`x`', 'IFS="a$X"'])
      expect(reasonOf(lead(`${ifs}; c=rm,-rf,src; $c`)), ifs).toMatch(DYNAMIC);
    // Letters, digits, blanks, $ ` { } quotes and - are never made blanks.
    expect(lead('IFS=$X; c=xrm_-rfy; $c')).toEqual({ allowed: true });
    for (const ifs of ["IFS=' '", 'IFS=', "IFS=$'\\t'"]) expect(lead(`${ifs}; c=rm,-rf,src; $c`), ifs).toEqual({ allowed: true });
  });

  it('only the IFS characters split: others stay', () => {
    expect(lead('IFS=,; c=rm:-rf:src; $c')).toEqual({ allowed: true });
    expect(lead('IFS=:; c=rm,-rf,src; $c')).toEqual({ allowed: true });
    expect(reasonOf(lead('IFS=:; IFS=,; c=rm,-rf,src; $c'))).toMatch(DYNAMIC);
  });
});

describe('nested scripts', () => {
  it('eight levels of nesting are checked, a ninth is refused', () => {
    expect(lead(`${'eval '.repeat(8)}ls`)).toEqual({ allowed: true });
    expect(reasonOf(lead(`${'eval '.repeat(8)}rm -rf src`))).toMatch(/recursively remove files/);
    expect(lead(`${'eval '.repeat(9)}ls`)).toEqual({ allowed: false, reason: 'team lead may not run `ls`: it would nest shells too deeply to verify.', advice: ADVICE.parse });
  });

  it('a command named by a command substitution is refused even without a destructive verb', () => {
    expect(lead('$(echo ls)')).toEqual({ allowed: false, reason: 'team lead may not run `$(echo ls)`: it would run a command whose name comes from a command substitution ($(echo ls)).', advice: ADVICE.dynamic });
    expect(reasonOf(lead('$C x rm'))).toMatch(/a command named by \$C, built at run time/);
  });

  it('a script from a substitution passes only when every substitution is an environment emitter', () => {
    expect(lead('eval "$(ssh-agent -s)"')).toEqual({ allowed: true });
    expect(lead('eval "$(direnv export bash) $(pyenv init -)"')).toEqual({ allowed: true });
    for (const cmd of ['eval "$(curl x)"', 'eval "$(ssh-agent -s) $(curl x)"', 'eval "$(curl x) $(ssh-agent -s)"', 'eval "$(ssh-agentx)"'])
      expect(reasonOf(lead(cmd)), cmd).toMatch(/a script given to eval that comes from a command substitution — it cannot be verified/);
  });

  it('a script with a variable in it is checked by the dynamic-command rule', () => {
    expect(lead('eval "ls $X"')).toEqual({ allowed: true });
    expect(reasonOf(lead('eval "ls $X" --force'))).toMatch(/run a script given to eval, built at run time/);
  });
});

describe('scripts on standard input', () => {
  it('a literal echo or printf piped into a shell is read as the script: -n/-e flags dropped, \\n a newline', () => {
    expect(reasonOf(lead("echo -e 'ls\\nrm -rf src' | sh"))).toBe('team lead may not run `rm -rf src`: it would recursively remove files.');
    expect(reasonOf(lead('echo -n rm -rf src | sh'))).toBe('team lead may not run `rm -rf src`: it would recursively remove files.');
    expect(reasonOf(lead('printf rm -rf src | bash'))).toBe('team lead may not run `rm -rf src`: it would recursively remove files.');
    expect(lead('echo -nx rm -rf src | sh')).toEqual({ allowed: true });
    expect(lead('echo ls | sh')).toEqual({ allowed: true });
  });

  it('any other producer, or an echo with a run-time word, is unknown: the dynamic-command rule decides', () => {
    expect(lead('curl x | sh')).toEqual({ allowed: true });
    expect(reasonOf(lead('curl x | sh; echo --force'))).toBe('team lead may not run `sh`: it would run a script piped into sh, built at run time, in a command that carries a destructive verb — it cannot be verified.');
    expect(reasonOf(lead('echo ls $X | sh; echo --force'))).toMatch(/a script piped into sh, built at run time/);
    expect(reasonOf(lead('cat x | rev | sh; echo --force'))).toMatch(/decoded by rev/);
    expect(reasonOf(lead('{ echo rm -rf src; } | sh'))).toMatch(/a script piped into sh, built at run time/);
    expect(reasonOf(lead('ls | sh; echo --force'))).toMatch(/a script piped into sh, built at run time/);
  });

  it('a script decoded on its way into a shell is refused even without a destructive verb', () => {
    expect(lead('echo bHM= | base64 -d | sh')).toEqual({ allowed: false, reason: 'team lead may not run `sh`: it would run a script decoded by base64 and piped into sh — it cannot be verified.', advice: ADVICE.dynamic });
  });

  it('heredocs and here-strings are the script; one with a variable is unknown', () => {
    expect(reasonOf(lead('sh <<EOF\nrm -rf src\nEOF'))).toBe('team lead may not run `rm -rf src`: it would recursively remove files.');
    expect(reasonOf(lead("bash <<< 'rm -rf src'"))).toBe('team lead may not run `rm -rf src`: it would recursively remove files.');
    expect(lead('sh <<EOF\n$X\nEOF')).toEqual({ allowed: true });
    expect(reasonOf(lead('sh <<EOF\n$X --force\nEOF'))).toMatch(/a script piped into sh, built at run time/);
    expect(lead('bash')).toEqual({ allowed: true });
  });

  it('an interpreter reads its code from a heredoc', () => {
    expect(reasonOf(lead("python3 <<EOF\nimport shutil; shutil.rmtree('src')\nEOF"))).toMatch(/delete a directory tree from an interpreter one-liner/);
    expect(lead("python3 <<EOF\nprint('hi')\nEOF")).toEqual({ allowed: true });
  });
});

describe('interpreters, aliases and argv inside other commands', () => {
  it('perl goes on to the program rules (perl -i); other interpreters stop at the interpreter rule', () => {
    expect(reasonOf(lead("perl -pi -e 's/a/b/' src/a.ts"))).toMatch(/rewrite in place \(perl -i\) \/ws\/src\/a\.ts inside the workspace/);
    expect(lead("python3 -c 'print(1)' -i src/a.ts")).toEqual({ allowed: true });
    expect(lead('ruby -i x src/a.ts')).toEqual({ allowed: true });
  });

  it('an alias value is checked as a script; a dynamic one by the dynamic-command rule', () => {
    expect(reasonOf(lead("alias x='rm -rf src'"))).toBe('team lead may not run `rm -rf src`: it would recursively remove files.');
    expect(reasonOf(lead("alias ok=ls x='rm -rf src'"))).toBe('team lead may not run `rm -rf src`: it would recursively remove files.');
    expect(lead("alias =x 'rm -rf src'")).toEqual({ allowed: true });
    // A word that starts with = defines no alias (bash: "not found").
    expect(lead("alias '=rm -rf src'")).toEqual({ allowed: true });
    expect(lead('alias x')).toEqual({ allowed: true });
    expect(lead('alias x=$Y')).toEqual({ allowed: true });
    expect(reasonOf(lead('alias x=$Y; echo --force'))).toMatch(/run an alias, built at run time/);
  });

  it('an argv inside another command (find -exec) is resolved and checked like a command', () => {
    expect(reasonOf(lead("find . -exec sh -c 'rm -rf src' \\;"))).toBe('team lead may not run `rm -rf src`: it would recursively remove files.');
    expect(reasonOf(lead('find . -exec nice rm -rf src \\;'))).toMatch(/recursively remove files/);
    expect(reasonOf(lead('find . -exec $C {} \\; ; echo --force'))).toMatch(/a command named by \$C, built at run time/);
    expect(reasonOf(lead('find . -exec sh -c "$S" \\; ; echo --force'))).toMatch(/a script given to sh, built at run time/);
    expect(lead('find . -exec $C {} \\;')).toEqual({ allowed: true });
    expect(lead('find . -exec sh run.sh \\;')).toEqual({ allowed: true });
  });
});

describe('cd: every literal target is a possible cwd', () => {
  // The lead runs in /tmp and its home is inside the workspace, so a cd home is what makes a write land there.
  const homeInWs: GuardContext = { ...leadCtx, cwd: '/tmp', home: '/ws/home' };

  it('the start cwd alone', () => {
    expect(lead('echo x > a.txt', homeInWs)).toEqual({ allowed: true });
  });

  it('cd with no target, cd ~ and pushd go home; ~/ is the home directory', () => {
    for (const cmd of ['cd && echo x > a.txt', 'cd ~ && echo x > a.txt', 'cd ~/p && echo x > a.txt', 'pushd ~/p && echo x > a.txt', 'cd -L ~/p && echo x > a.txt'])
      expect(reasonOf(lead(cmd, homeInWs)), cmd).toMatch(/write \(redirect\) \/ws\/home\/(p\/)?a\.txt inside the workspace/);
    expect(lead('cd /tmp/q && echo x > a.txt', homeInWs)).toEqual({ allowed: true });
    expect(lead('cdx && echo x > a.txt', homeInWs)).toEqual({ allowed: true });
  });

  it('a relative cd applies to every cwd so far', () => {
    expect(reasonOf(lead('cd /ws && cd src && echo x > a.txt', homeInWs))).toMatch(/\/ws\/src\/a\.txt inside the workspace|\/ws\/a\.txt inside the workspace/);
    expect(reasonOf(lead('cd /tmp/x && cd ../../ws && echo x > a.txt', homeInWs))).toMatch(/\/ws\/a\.txt inside the workspace/);
    // Only from the second cwd (/x) does ../ws reach the workspace; from the start cwd it stays in /tmp.
    expect(reasonOf(lead('cd /x && cd ../ws && echo x > a.txt', { ...homeInWs, cwd: '/tmp/d1/d2' }))).toMatch(/\/ws\/a\.txt inside the workspace/);
    expect(lead('cd /y && cd ../tmp/z && echo x > a.txt', { ...homeInWs, cwd: '/tmp/d1/d2' })).toEqual({ allowed: true });
    expect(reasonOf(tm('cd ../.. && echo x > a.txt'))).toBe("teammate may not run `echo x > a.txt`: it would write (redirect): write into the lead's checkout (/ws/a.txt), outside your own worktree.");
    expect(reasonOf(tm('pushd ../.. && echo x > a.txt'))).toMatch(/lead's checkout \(\/ws\/a\.txt\)/);
  });

  it('a cd to a run-time directory or to - makes every relative path unknown', () => {
    for (const cmd of ['cd "$D" && echo x > a.txt', 'cd - && echo x > a.txt'])
      expect(reasonOf(lead(cmd)), cmd).toMatch(/write \(redirect\) a\.txt after a cd to a dynamic directory/);
    expect(lead('cd "$D" && echo x > /tmp/a.txt')).toEqual({ allowed: true });
  });
});

describe('redirects', () => {
  it('a redirect on a group or subshell is checked and shown by itself', () => {
    expect(reasonOf(lead('{ ls; } > src/a.ts'))).toBe('team lead may not run `> src/a.ts`: it would write (redirect) /ws/src/a.ts inside the workspace (the lead does not author files).');
    expect(reasonOf(lead('(ls) >> src/a.ts'))).toMatch(/^team lead may not run `> src\/a\.ts`/);
    expect(lead('{ ls; } > /tmp/a.ts')).toEqual({ allowed: true });
    expect(lead('{ ls; } < src/a.ts')).toEqual({ allowed: true });
  });

  it('a write redirect of a simple command is shown with the command; a read is no write', () => {
    expect(reasonOf(lead('ls > src/a.ts'))).toBe('team lead may not run `ls > src/a.ts`: it would write (redirect) /ws/src/a.ts inside the workspace (the lead does not author files).');
    expect(lead('cat < src/a.ts')).toEqual({ allowed: true });
  });
});

describe('git', () => {
  it('a command in git -c is checked and says so; a dynamic one is refused', () => {
    expect(reasonOf(lead("git -c core.pager='rm -rf src' log"))).toBe('team lead may not run `rm -rf src`: it would recursively remove files (through git -c).');
    expect(lead("git -c core.pager='less -R' log")).toEqual({ allowed: true });
    expect(reasonOf(lead('git -c core.pager=$P log'))).toMatch(/^team lead may not run `git -c core\.pager=\$P log`: it would run a git command whose subcommand or config is computed at run time/);
  });

  it('a shell alias is checked as a script', () => {
    expect(reasonOf(lead("git -c alias.x='!rm -rf src' x"))).toBe('team lead may not run `rm -rf src`: it would recursively remove files.');
    expect(lead("git -c alias.x='!ls' x")).toEqual({ allowed: true });
  });

  it('commands git runs itself: an argv (bisect run) or a script (--exec), each named', () => {
    expect(reasonOf(lead('git bisect run rm -rf src'))).toBe('team lead may not run `git bisect run rm -rf src`: it would recursively remove files (through git bisect run).');
    expect(reasonOf(lead("git bisect run sh -c 'rm -rf src'"))).toBe('team lead may not run `rm -rf src`: it would recursively remove files (through git bisect run).');
    expect(reasonOf(lead('git bisect run $T; echo --force'))).toMatch(/a command named by \$T, built at run time.*\(through git bisect run\)/);
    expect(reasonOf(lead('git bisect run sh -c "$T"; echo --force'))).toMatch(/a script given to sh, built at run time.*\(through git bisect run\)/);
    expect(lead('git bisect run npm test')).toEqual({ allowed: true });
    expect(lead('git bisect run sh run.sh')).toEqual({ allowed: true });
    expect(reasonOf(lead("git rebase --exec 'rm -rf src' main"))).toBe('team lead may not run `rm -rf src`: it would recursively remove files (through git rebase --exec).');
    expect(reasonOf(lead('git rebase --exec "$X" main; echo --force'))).toMatch(/a command given to git rebase --exec, built at run time.*\(through git rebase --exec\)/);
  });

  it('help is only help; destroying the recovery record is refused with the advice for the role', () => {
    expect(lead('git clean --help -fdx')).toEqual({ allowed: true });
    expect(adviceOf(lead('git reflog expire --expire=now --all'))).toMatch(/^You are the team lead.*Leave git's housekeeping to git/);
    expect(adviceOf(tm('git reflog expire --expire=now --all'))).toBe(ADVICE.teammateOthers);
  });
});
