/**
 * argv.ts directly: option parsing in any order (parseOpts and its queries), command names, and the wrappers
 * and shells resolveCommand peels off a command, in spellings the corpus does not use.
 */
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/core/guard/index.js';
import { commandName, hasLong, hasLongAbbrev, hasShort, joinWords, longValue, parseOpts, resolveCommand, type Resolved } from '../../src/core/guard/argv.js';
import { parseScript } from '../../src/core/guard/parse.js';
import { literalWord, type Word } from '../../src/core/guard/words.js';
import { leadCtx } from './fixtures.js';

/** The words of the first simple command, as the parser builds them (quotes removed, dynamic parts flagged). */
const argv = (cmd: string): Word[] => (parseScript(cmd).commands[0] as { args: Word[] }).args;
const texts = (ws: readonly Word[]) => ws.map((w) => w.text);
/** resolveCommand's answer with words shown as their text. */
function res(cmd: string): Record<string, unknown> {
  const r: Resolved = resolveCommand(argv(cmd));
  switch (r.kind) {
    case 'exec':
      return { kind: r.kind, name: r.name, args: texts(r.args) };
    case 'script':
      return { kind: r.kind, script: r.script.text, via: r.via };
    case 'dynamic-name':
      return { kind: r.kind, word: r.word.raw };
    default:
      return { ...r };
  }
}

describe('parseOpts', () => {
  it('splits clusters, keeps long options with their values, positionals and what follows --', () => {
    const p = parseOpts(argv('x -vfd --force --message=hi there -m msg file -- -a b'), { shortValue: 'm' }, 1);
    expect(p.shorts).toEqual(['v', 'f', 'd', 'm']);
    expect(p.longs).toEqual([{ name: 'force', value: null }, { name: 'message', value: 'hi' }]);
    expect([...p.shortValues]).toEqual([['m', 'msg']]);
    expect(texts(p.positionals)).toEqual(['there', 'file']);
    expect(texts(p.afterDashDash)).toEqual(['-a', 'b']);
    expect(p.sawDashDash).toBe(true);
    expect(p.dynamic).toBe(false);
    expect(p.next).toBe(11);
  });

  it('starts at index 0 unless told otherwise', () => {
    expect(texts(parseOpts(argv('a -b c')).positionals)).toEqual(['a', 'c']);
  });

  it('without -- nothing is after it, and next is the end', () => {
    const p = parseOpts(argv('-a b'));
    expect(p.sawDashDash).toBe(false);
    expect(p.afterDashDash).toEqual([]);
    expect(p.next).toBe(2);
  });

  it('a short value glued, separate, or missing at the end; the letters after a value letter are its value', () => {
    expect([...parseOpts(argv('-xmmsg'), { shortValue: 'm' }).shortValues]).toEqual([['m', 'msg']]);
    expect(parseOpts(argv('-xmmsg'), { shortValue: 'm' }).shorts).toEqual(['x', 'm']);
    expect([...parseOpts(argv('-m'), { shortValue: 'm' }).shortValues]).toEqual([['m', '']]);
    const sep = parseOpts(argv('-m -f rest'), { shortValue: 'm' });
    expect([...sep.shortValues]).toEqual([['m', '-f']]);
    expect(sep.shorts).toEqual(['m']);
    expect(texts(sep.positionals)).toEqual(['rest']);
    // A letter that takes no value leaves the next word alone.
    expect(parseOpts(argv('-f rest'), { shortValue: 'm' }).shortValues.size).toBe(0);
    expect(texts(parseOpts(argv('-f rest'), { shortValue: 'm' }).positionals)).toEqual(['rest']);
  });

  it('a long value separate only for names that take one, and not past the end', () => {
    expect(parseOpts(argv('--output f g'), { longValue: ['output'] })).toMatchObject({ longs: [{ name: 'output', value: 'f' }] });
    expect(texts(parseOpts(argv('--output f g'), { longValue: ['output'] }).positionals)).toEqual(['g']);
    expect(parseOpts(argv('--other f'), { longValue: ['output'] })).toMatchObject({ longs: [{ name: 'other', value: null }] });
    expect(texts(parseOpts(argv('--other f'), { longValue: ['output'] }).positionals)).toEqual(['f']);
    expect(parseOpts(argv('--output'), { longValue: ['output'] }).longs).toEqual([{ name: 'output', value: null }]);
    expect(parseOpts(argv('--output='), { longValue: ['output'] }).longs).toEqual([{ name: 'output', value: '' }]);
    expect(parseOpts(argv('--a=b=c')).longs).toEqual([{ name: 'a', value: 'b=c' }]);
  });

  it('a lone - is a positional, and -- ends the options only when it is literal', () => {
    expect(texts(parseOpts(argv('- x')).positionals)).toEqual(['-', 'x']);
    expect(parseOpts(argv('-')).shorts).toEqual([]);
    const dyn = parseOpts(argv('--$X -f'));
    expect(dyn.sawDashDash).toBe(false);
    expect(dyn.shorts).toEqual(['-', 'f']);
    expect(dyn.longs).toEqual([]);
  });

  it('a dynamic word counts as a possible option unless it starts with literal text that is not a dash', () => {
    expect(parseOpts(argv('$X')).dynamic).toBe(true);
    expect(parseOpts(argv('-$X')).dynamic).toBe(true);
    expect(parseOpts(argv('"$X"')).dynamic).toBe(true);
    expect(parseOpts(argv('a$X')).dynamic).toBe(false);
    expect(parseOpts(argv('src/$X')).dynamic).toBe(false);
    expect(parseOpts(argv('a-$X')).dynamic).toBe(false);
    expect(parseOpts(argv('-- $X')).dynamic).toBe(false);
  });

  it('stopAtPositional stops at the first positional and says where', () => {
    const p = parseOpts(argv('w -u bob rm -rf x'), { shortValue: 'u', stopAtPositional: true }, 1);
    expect(p.next).toBe(3);
    expect(p.positionals).toEqual([]);
    expect(p.shorts).toEqual(['u']);
  });
});

describe('option queries', () => {
  const p = parseOpts(argv('--force --sp=a --spl=b -xv --=z'));
  it('hasLong is exact', () => {
    expect(hasLong(p, 'force')).toBe(true);
    expect(hasLong(p, 'nope', 'force')).toBe(true);
    expect(hasLong(p, 'forc')).toBe(false);
    expect(hasLong(p, 'forced')).toBe(false);
  });

  it('hasLongAbbrev takes any prefix of a dangerous name, but an empty name is no prefix', () => {
    expect(hasLongAbbrev(parseOpts(argv('--h')), 'hard')).toBe(true);
    expect(hasLongAbbrev(parseOpts(argv('--hard')), 'soft', 'hard')).toBe(true);
    expect(hasLongAbbrev(parseOpts(argv('--hardx')), 'hard')).toBe(false);
    expect(hasLongAbbrev(parseOpts(argv('--ha')), 'soft')).toBe(false);
    expect(hasLongAbbrev(parseOpts(argv('--=x')), 'hard')).toBe(false);
  });

  it('longValue: exact, or a prefix of at least three letters; null without a value, undefined when absent', () => {
    expect(longValue(p, 'split-string')).toBe('b');
    expect(longValue(parseOpts(argv('--sp=a')), 'split-string')).toBeUndefined();
    expect(longValue(parseOpts(argv('--spl=a')), 'split-string')).toBe('a');
    expect(longValue(parseOpts(argv('--force')), 'force')).toBeNull();
    expect(longValue(parseOpts(argv('--fo')), 'fo')).toBeNull();
    expect(longValue(parseOpts(argv('--other=1')), 'force')).toBeUndefined();
  });

  it('hasShort', () => {
    expect(hasShort(p, 'v')).toBe(true);
    expect(hasShort(p, 'q', 'x')).toBe(true);
    expect(hasShort(p, 'q')).toBe(false);
  });
});

describe('commandName', () => {
  it('is the lower-cased basename, trailing slashes ignored', () => {
    expect(['/bin/rm', 'RM', './rm', 'rm', '/usr//bin/Rm//', 'a/b/rm/'].map((t) => commandName(literalWord(t)))).toEqual(['rm', 'rm', 'rm', 'rm', 'rm', 'rm']);
    expect(commandName(literalWord('/'))).toBe('');
  });
});

describe('resolveCommand: wrappers', () => {
  it('a dynamic or glob command name is unknown', () => {
    expect(res('$CMD -rf x')).toEqual({ kind: 'dynamic-name', word: '$CMD' });
    expect(res('r* -rf x')).toEqual({ kind: 'dynamic-name', word: 'r*' });
    expect(res('sudo $CMD x')).toEqual({ kind: 'dynamic-name', word: '$CMD' });
  });

  it('peels option-taking wrappers, with -- and separate or glued values', () => {
    expect(res('sudo -u bob -- rm -rf x')).toEqual({ kind: 'exec', name: 'rm', args: ['-rf', 'x'] });
    expect(res('sudo --user bob rm x')).toEqual({ kind: 'exec', name: 'rm', args: ['x'] });
    expect(res('sudo -ubob rm x')).toEqual({ kind: 'exec', name: 'rm', args: ['x'] });
    expect(res('time -- rm -rf x')).toEqual({ kind: 'exec', name: 'rm', args: ['-rf', 'x'] });
    expect(res('nice -n 5 ionice -c 3 nohup rm x')).toEqual({ kind: 'exec', name: 'rm', args: ['x'] });
    expect(res('/usr/bin/SUDO rm x')).toEqual({ kind: 'exec', name: 'rm', args: ['x'] });
  });

  it('wrappers that consume a positional first: timeout, flock, chroot, taskset and chrt (but not with -p)', () => {
    expect(res('timeout -s KILL 5 rm x')).toEqual({ kind: 'exec', name: 'rm', args: ['x'] });
    expect(res('flock /tmp/l rm x')).toEqual({ kind: 'exec', name: 'rm', args: ['x'] });
    expect(res('taskset 3 rm x')).toEqual({ kind: 'exec', name: 'rm', args: ['x'] });
    expect(res('chrt 5 rm x')).toEqual({ kind: 'exec', name: 'rm', args: ['x'] });
    expect(res('taskset -p 3 rm')).toEqual({ kind: 'exec', name: '3', args: ['rm'] });
    expect(res('chrt -p 5 rm')).toEqual({ kind: 'exec', name: '5', args: ['rm'] });
    // Only taskset's and chrt's -p (a pid, no command) stops the skip: POSIX timeout's -p keeps its status.
    expect(res('timeout -p 5 rm x')).toEqual({ kind: 'exec', name: 'rm', args: ['x'] });
  });

  it('env: assignments and -S / --split-string scripts', () => {
    expect(res('env A=1 _b=2 rm x')).toEqual({ kind: 'exec', name: 'rm', args: ['x'] });
    expect(res('env -i A=1 rm x')).toEqual({ kind: 'exec', name: 'rm', args: ['x'] });
    expect(res('env 1A=1 rm')).toEqual({ kind: 'exec', name: '1a=1', args: ['rm'] });
    expect(res("env -S 'rm -rf' x")).toEqual({ kind: 'script', script: 'rm -rf x', via: 'env -S' });
    expect(res("env -S'rm -rf x'")).toEqual({ kind: 'script', script: 'rm -rf x', via: 'env -S' });
    expect(res("env --split-string='rm -rf' x")).toEqual({ kind: 'script', script: 'rm -rf x', via: 'env -S' });
    expect(res("env --split='rm -rf' x")).toEqual({ kind: 'script', script: 'rm -rf x', via: 'env -S' });
    // Another wrapper's -S value is no split-string (strace -S sorts by a column).
    expect(res('strace -S time rm x')).toEqual({ kind: 'exec', name: 'rm', args: ['x'] });
  });

  it('sudo, like env, takes VAR=value words before the command; other wrappers run them as the command', () => {
    expect(res('sudo FOO=1 rm -rf src')).toEqual({ kind: 'exec', name: 'rm', args: ['-rf', 'src'] });
    expect(res('sudo -u bob A=1 B_2=x rm x')).toEqual({ kind: 'exec', name: 'rm', args: ['x'] });
    expect(res('nice A=1 rm x')).toEqual({ kind: 'exec', name: 'a=1', args: ['rm', 'x'] });
    expect(checkCommand('lead', 'sudo FOO=1 rm -rf src', leadCtx)).toMatchObject({ allowed: false, reason: expect.stringMatching(/recursively remove files/) });
  });

  it('command -v/-V only prints; command alone runs the command', () => {
    expect(res('command -v rm')).toEqual({ kind: 'none' });
    expect(res('command -V rm')).toEqual({ kind: 'none' });
    expect(res('command -p rm x')).toEqual({ kind: 'exec', name: 'rm', args: ['x'] });
    expect(res('sudo -v')).toEqual({ kind: 'none' });
  });

  it('a wrapper with nothing to run runs nothing, except parallel, which reads commands from stdin', () => {
    expect(res('sudo')).toEqual({ kind: 'none' });
    expect(res('xargs')).toEqual({ kind: 'none' });
    expect(res('parallel')).toEqual({ kind: 'stdin-shell', via: 'parallel' });
    expect(res('parallel -j 4')).toEqual({ kind: 'stdin-shell', via: 'parallel' });
  });

  it('watch runs its words as a script unless -x', () => {
    expect(res('watch -n 1 rm -rf x')).toEqual({ kind: 'script', script: 'rm -rf x', via: 'watch' });
    expect(res('watch -x rm -rf x')).toEqual({ kind: 'exec', name: 'rm', args: ['-rf', 'x'] });
  });

  it('xargs and parallel append words of unknown value; parallel stops at ::: and runs one word as a script', () => {
    const x = resolveCommand(argv('xargs -n 1 rm -rf'));
    expect(x).toMatchObject({ kind: 'exec', name: 'rm' });
    if (x.kind !== 'exec') return;
    expect(texts(x.args)).toEqual(['-rf', '']);
    expect(x.args[1]).toMatchObject({ dynamic: true, raw: '<xargs input>' });
    const p = resolveCommand(argv('parallel rm -rf ::: a b'));
    expect(p).toMatchObject({ kind: 'exec', name: 'rm' });
    if (p.kind !== 'exec') return;
    expect(p.args.map((w) => w.raw)).toEqual(['-rf', '<parallel input>']);
    for (const sep of [':::', '::::', ':::+', '::::+'])
      expect(res(`parallel rm -f ${sep} a`), sep).toEqual({ kind: 'exec', name: 'rm', args: ['-f', ''] });
    expect(res('parallel rm -f :: a')).toEqual({ kind: 'exec', name: 'rm', args: ['-f', '::', 'a', ''] });
    expect(res('parallel rm -f x:::')).toEqual({ kind: 'exec', name: 'rm', args: ['-f', 'x:::', ''] });
    expect(res('parallel rm -f :::x')).toEqual({ kind: 'exec', name: 'rm', args: ['-f', ':::x', ''] });
    // `parallel ::: a b` runs its inputs as commands: the name is unknown.
    expect(res('parallel ::: a b')).toEqual({ kind: 'dynamic-name', word: '<parallel input>' });
    const one = resolveCommand(argv("parallel 'rm -rf {}' ::: a"));
    expect(one).toMatchObject({ kind: 'script', via: 'parallel' });
    if (one.kind !== 'script') return;
    expect(one.script).toMatchObject({ text: 'rm -rf {} ', dynamic: true });
    expect(one.script.raw).toBe("'rm -rf {}' <parallel input>");
  });

  it('two-word package runners are npx', () => {
    for (const cmd of ['npm exec rimraf src', 'npm x rimraf src', 'pnpm dlx rimraf src', 'pnpm exec rimraf src', 'yarn dlx rimraf src', 'yarn exec rimraf src', 'bun x rimraf src', 'npx rimraf src', 'bunx rimraf src', 'pnpx rimraf src'])
      expect(res(cmd), cmd).toEqual({ kind: 'exec', name: 'rimraf', args: ['src'] });
    expect(res('npm test')).toEqual({ kind: 'exec', name: 'npm', args: ['test'] });
    expect(res('npm')).toEqual({ kind: 'exec', name: 'npm', args: [] });
    expect(res('bun run x')).toEqual({ kind: 'exec', name: 'bun', args: ['run', 'x'] });
    expect(res('npx -p rimraf rimraf src')).toEqual({ kind: 'exec', name: 'rimraf', args: ['src'] });
  });

  it('a chain of wrappers resolves at any depth the guard follows', () => {
    expect(res(`${'nice '.repeat(31)}rm -rf src`)).toEqual({ kind: 'exec', name: 'rm', args: ['-rf', 'src'] });
    expect(res('time --')).toEqual({ kind: 'none' });
  });

  it('a chain of wrappers longer than the guard peels hides an unknown command: refused, never allowed unchecked', () => {
    expect(res(`${'nice '.repeat(32)}rm -rf src`)).toEqual({ kind: 'dynamic-name', word: '<a command behind more than 32 wrappers>' });
    for (const cmd of [`${'nice '.repeat(32)}rm -rf src`, `${'command '.repeat(40)}rm -rf src`, `${'sudo -u x '.repeat(33)}git reset --hard main`])
      expect(checkCommand('lead', cmd, leadCtx), cmd).toMatchObject({ allowed: false, reason: expect.stringMatching(/behind more than 32 wrappers/) });
    expect(checkCommand('lead', `${'nice '.repeat(40)}ls`, leadCtx)).toEqual({ allowed: true });
  });
});

describe('resolveCommand: script options of su, flock, runuser, script, npx', () => {
  it('-c anywhere after the wrapper, separate, glued into a cluster, or --command=', () => {
    expect(res("su bob -c 'rm -rf x'")).toEqual({ kind: 'script', script: 'rm -rf x', via: 'su -c' });
    expect(res("su -l bob -c 'rm x'")).toEqual({ kind: 'script', script: 'rm x', via: 'su -c' });
    expect(res("su -lc 'rm x' bob")).toEqual({ kind: 'script', script: 'rm x', via: 'su -c' });
    expect(res("su --command='rm x' bob")).toEqual({ kind: 'script', script: 'rm x', via: 'su -c' });
    expect(res("su --command 'rm x' bob")).toEqual({ kind: 'script', script: 'rm x', via: 'su -c' });
    expect(res("flock /tmp/l -c 'rm x'")).toEqual({ kind: 'script', script: 'rm x', via: 'flock -c' });
    expect(res("runuser -u bob -c 'rm x'")).toEqual({ kind: 'script', script: 'rm x', via: 'runuser -c' });
    expect(res("script -qc 'rm x' /tmp/log")).toEqual({ kind: 'script', script: 'rm x', via: 'script -c' });
  });

  it('-c with its script glued on (getopt: -c\'rm -rf src\')', () => {
    expect(res("su -c'rm -rf x' bob")).toEqual({ kind: 'script', script: 'rm -rf x', via: 'su -c' });
    expect(res("flock /tmp/l -c'rm x'")).toEqual({ kind: 'script', script: 'rm x', via: 'flock -c' });
    expect(checkCommand('lead', "flock /tmp/l -c'rm -rf src'", leadCtx)).toMatchObject({ allowed: false });
  });

  it('a cluster that does not end in c is -c with a glued value; a value of another option or words after -- are not the script', () => {
    expect(res("su -cl 'rm x' bob")).toEqual({ kind: 'script', script: 'l', via: 'su -c' });
    expect(res("su -- bob -c 'rm x'")).toEqual({ kind: 'none' });
    expect(res('su -c')).toEqual({ kind: 'none' });
    expect(res('su bob')).toEqual({ kind: 'none' });
    expect(res('script /tmp/log')).toEqual({ kind: 'none' });
    expect(res("su --commandx='rm x'")).toEqual({ kind: 'none' });
    expect(res("su x--command='rm x'")).toEqual({ kind: 'none' });
    expect(res("su -1c 'rm x'")).toEqual({ kind: 'none' });
    expect(res("su a-c 'rm x'")).toEqual({ kind: 'none' });
    expect(res("su -l1c 'rm x'")).toEqual({ kind: 'none' });
  });

  it('npx: the options come first; -p takes a value; what follows the binary is the binary\'s', () => {
    expect(res("npx -c 'rm -rf x'")).toEqual({ kind: 'script', script: 'rm -rf x', via: 'npx -c' });
    expect(res("npx --call='rm -rf x'")).toEqual({ kind: 'script', script: 'rm -rf x', via: 'npx -c' });
    expect(res("npx -p foo -c 'rm x'")).toEqual({ kind: 'script', script: 'rm x', via: 'npx -c' });
    expect(res("npx --package foo -c 'rm x'")).toEqual({ kind: 'script', script: 'rm x', via: 'npx -c' });
    expect(res("npx -p -c -c 'rm x'")).toEqual({ kind: 'script', script: 'rm x', via: 'npx -c' });
    expect(res("npm exec -c 'rm x'")).toEqual({ kind: 'script', script: 'rm x', via: 'npx -c' });
    expect(res("npx tool -c 'rm x'")).toEqual({ kind: 'exec', name: 'tool', args: ['-c', 'rm x'] });
    // flock's options are not options-first: -c after the lock file is still the script.
    expect(res("flock x -c 'rm x'")).toEqual({ kind: 'script', script: 'rm x', via: 'flock -c' });
  });
});

describe('resolveCommand: shells, eval, trap, source', () => {
  it('-c and its first positional; clusters with c; options that take a value are skipped', () => {
    expect(res("bash -c 'rm x'")).toEqual({ kind: 'script', script: 'rm x', via: 'bash -c' });
    expect(res("bash -xec 'rm x'")).toEqual({ kind: 'script', script: 'rm x', via: 'bash -c' });
    expect(res("bash -c -x 'rm x'")).toEqual({ kind: 'script', script: 'rm x', via: 'bash -c' });
    expect(res("bash -o pipefail -c 'rm x'")).toEqual({ kind: 'script', script: 'rm x', via: 'bash -c' });
    expect(res("bash +O extglob -c 'rm x'")).toEqual({ kind: 'script', script: 'rm x', via: 'bash -c' });
    expect(res("bash --rcfile c -c 'rm x'")).toEqual({ kind: 'script', script: 'rm x', via: 'bash -c' });
    expect(res("bash --init-file c -c 'rm x'")).toEqual({ kind: 'script', script: 'rm x', via: 'bash -c' });
    expect(res("bash --login -c 'rm x'")).toEqual({ kind: 'script', script: 'rm x', via: 'bash -c' });
    expect(res("bash -- -c 'rm x'")).toEqual({ kind: 'script', script: 'rm x', via: 'bash -c' });
    expect(res("sh - -c 'rm x'")).toEqual({ kind: 'script', script: 'rm x', via: 'sh -c' });
    expect(res("/bin/ZSH -c 'rm x'")).toEqual({ kind: 'script', script: 'rm x', via: 'zsh -c' });
  });

  it('-o and -O take the next word inside a cluster too: bash -eo pipefail -c …', () => {
    for (const cmd of ["bash -eo pipefail -c 'rm x'", "bash -eO extglob -c 'rm x'", "bash +eo pipefail -c 'rm x'", "bash -co pipefail 'rm x'", "bash -oo a b -c 'rm x'"])
      expect(res(cmd), cmd).toEqual({ kind: 'script', script: 'rm x', via: 'bash -c' });
    expect(res('bash -eo pipefail run.sh')).toEqual({ kind: 'opaque', name: 'bash' });
    expect(checkCommand('lead', "bash -eo pipefail -c 'rm -rf src'", leadCtx)).toMatchObject({ allowed: false, reason: expect.stringMatching(/recursively remove files/) });
  });

  it('+c or a c in another option is no -c', () => {
    expect(res('bash +c x')).toEqual({ kind: 'opaque', name: 'bash' });
    expect(res('bash -o c x')).toEqual({ kind: 'opaque', name: 'bash' });
    expect(res('bash --c x')).toEqual({ kind: 'opaque', name: 'bash' });
    expect(res('bash -x- x')).toEqual({ kind: 'opaque', name: 'bash' });
    // A word that is no option cluster is the script file, whatever follows.
    expect(res("bash a-x -c 'rm x'")).toEqual({ kind: 'opaque', name: 'bash' });
    expect(res("bash -x1 -c 'rm x'")).toEqual({ kind: 'opaque', name: 'bash' });
  });

  it('a script file is opaque; no argument or /dev/stdin reads stdin; -c without a script runs nothing', () => {
    expect(res('bash run.sh')).toEqual({ kind: 'opaque', name: 'bash' });
    expect(res('bash')).toEqual({ kind: 'stdin-shell', via: 'bash' });
    expect(res('bash -x -')).toEqual({ kind: 'stdin-shell', via: 'bash' });
    for (const f of ['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']) expect(res(`bash ${f}`), f).toEqual({ kind: 'stdin-shell', via: 'bash' });
    expect(res('bash /dev/stdinx')).toEqual({ kind: 'opaque', name: 'bash' });
    expect(res('bash x/dev/stdin')).toEqual({ kind: 'opaque', name: 'bash' });
    expect(res('bash -c /dev/stdin')).toEqual({ kind: 'script', script: '/dev/stdin', via: 'bash -c' });
    expect(res('bash -c')).toEqual({ kind: 'none' });
    expect(res('bash -o')).toEqual({ kind: 'stdin-shell', via: 'bash' });
  });

  it('a dynamic word in a shell argv makes the rest a script of unknown content', () => {
    const r = resolveCommand(argv('bash -x $S -c y'));
    expect(r).toMatchObject({ kind: 'script', via: 'bash' });
    if (r.kind !== 'script') return;
    expect(r.script).toMatchObject({ text: ' -c y', raw: '$S -c y', dynamic: true });
  });

  it('eval joins its words; trap runs its first argument when a signal follows; source is opaque', () => {
    expect(res('eval rm -rf x')).toEqual({ kind: 'script', script: 'rm -rf x', via: 'eval' });
    expect(res('eval')).toEqual({ kind: 'none' });
    expect(res("trap 'rm -rf x' EXIT")).toEqual({ kind: 'script', script: 'rm -rf x', via: 'trap' });
    expect(res("trap 'rm -rf x'")).toEqual({ kind: 'none' });
    expect(res('source x.sh')).toEqual({ kind: 'opaque', name: 'source' });
    expect(res('. x.sh')).toEqual({ kind: 'opaque', name: '.' });
    expect(res('ls -la')).toEqual({ kind: 'exec', name: 'ls', args: ['-la'] });
  });
});

describe('joinWords', () => {
  it('joins text and source with spaces and keeps every flag any word has', () => {
    const [a, b, c] = argv('"a b" $(ls) ｒm') as [Word, Word, Word];
    const w = joinWords([a, b, c]);
    expect(w).toMatchObject({ text: 'a b  rm', raw: '"a b" $(ls) ｒm', dynamic: true, cmdSubst: true, substs: ['ls'], lookalike: true, glob: false });
    expect(joinWords([a, a])).toMatchObject({ text: 'a b a b', dynamic: false, cmdSubst: false, substs: [], lookalike: false });
  });
});

describe('through the guard', () => {
  it('a wrapped destructive command is refused like the bare one', () => {
    expect(checkCommand('lead', "su bob -c 'rm -rf src'", leadCtx)).toMatchObject({ allowed: false });
    expect(checkCommand('lead', 'taskset 3 rm -rf src', leadCtx)).toMatchObject({ allowed: false });
    expect(checkCommand('lead', 'timeout -p 5 rm -rf src', leadCtx)).toMatchObject({ allowed: false });
  });
});
