/** Shell words as the rules see them (words.ts): look-alike folding, the three quoting styles, brace expansion, the word builder. */
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/core/guard/index.js';
import { WordBuilder, ansiC, expandBraces, fold, literalWord, unescapeDouble, unescapeUnquoted, unknownWord } from '../../src/core/guard/words.js';
import { leadCtx, teammateCtx } from './fixtures.js';

describe('fold', () => {
  it('leaves plain ASCII alone', () => {
    expect(fold('rm -rf src')).toBe('rm -rf src');
  });

  it('removes every zero-width and bidi control, at both ends of each range', () => {
    for (const c of ['\u00ad', '\u180e', '\u200b', '\u200f', '\u202a', '\u202e', '\u2060', '\u2064', '\ufeff']) {
      expect(fold(`r${c}m`), c.codePointAt(0)?.toString(16)).toBe('rm');
    }
  });

  it('turns dash variants into ASCII dashes, the long ones into two', () => {
    expect(fold('\u2014force')).toBe('--force');
    expect(fold('\u2015force')).toBe('--force');
    for (const c of ['\u2010', '\u2011', '\u2012', '\u2013', '\u2212', '\ufe63', '\uff0d']) expect(fold(`${c}rf`), c.codePointAt(0)?.toString(16)).toBe('-rf');
  });

  it('maps Cyrillic and Greek look-alikes to Latin, applies NFKC, and keeps other letters', () => {
    expect(fold('гм')).toBe('rm');
    expect(fold('gіt')).toBe('git');
    expect(fold('ɡit')).toBe('git');
    expect(fold('ТЕХ')).toBe('TEX');
    expect(fold('ｒｍ')).toBe('rm');
    expect(fold('café')).toBe('café');
    expect(fold('日本')).toBe('日本');
  });
});

describe('quote removal', () => {
  it('unquoted: a backslash quotes any next character, newline included', () => {
    expect(unescapeUnquoted('a\\ b\\*c')).toBe('a b*c');
    expect(unescapeUnquoted('x\\\ny')).toBe('x\ny');
    expect(unescapeUnquoted('plain')).toBe('plain');
  });

  it('double quotes: a backslash escapes only $ ` " \\ and newline (a line continuation vanishes)', () => {
    expect(unescapeDouble('\\$HOME \\` \\" \\\\')).toBe('$HOME ` " \\');
    expect(unescapeDouble('a\\\nb')).toBe('ab');
    expect(unescapeDouble('\\a\\n')).toBe('\\a\\n');
  });

  it("ANSI-C $'…': hex, unicode, octal, control and simple escapes", () => {
    expect(ansiC('\\x72m')).toBe('rm');
    expect(ansiC('\\x727')).toBe('r7');
    expect(ansiC('\\x7')).toBe('\x07');
    expect(ansiC('\\u0072m')).toBe('rm');
    expect(ansiC('\\u00722')).toBe('r2');
    expect(ansiC('\\U00000072m')).toBe('rm');
    expect(ansiC('\\162m')).toBe('rm');
    expect(ansiC('\\1623')).toBe('r3');
    expect(ansiC('\\7')).toBe('\x07');
    expect(ansiC('\\ca\\cA\\c?')).toBe('\x01\x01\x1f');
    expect(ansiC('\\n\\t\\r\\a\\b\\e\\E\\f\\v')).toBe('\n\t\r\x07\b\x1b\x1b\f\v');
    expect(ansiC("\\\\\\'\\\"\\?")).toBe('\\\'"?');
    expect(ansiC('\\q\\z')).toBe('\\q\\z');
    expect(ansiC('a\\\nb')).toBe('a\\\nb');
  });
});

describe('brace expansion', () => {
  it('expands comma lists, in place, keeping what is around them', () => {
    expect(expandBraces('{rm,-rf,src}')).toEqual(['rm', '-rf', 'src']);
    expect(expandBraces('a{b,c}d')).toEqual(['abd', 'acd']);
    expect(expandBraces('{a,}x')).toEqual(['ax', 'x']);
    expect(expandBraces('{a,b}{c,d}')).toEqual(['ac', 'ad', 'bc', 'bd']);
    expect(expandBraces('{a,{b,c}}')).toEqual(['a', 'b', 'c']);
  });

  it('expands numeric and letter sequences in either direction', () => {
    expect(expandBraces('{1..3}')).toEqual(['1', '2', '3']);
    expect(expandBraces('{3..1}')).toEqual(['3', '2', '1']);
    expect(expandBraces('{-1..1}')).toEqual(['-1', '0', '1']);
    expect(expandBraces('f{a..c}')).toEqual(['fa', 'fb', 'fc']);
    expect(expandBraces('{c..a}')).toEqual(['c', 'b', 'a']);
    expect(expandBraces('{2..2}')).toEqual(['2']);
    expect(expandBraces('{1..64}')).toHaveLength(64);
  });

  it('skips a brace that is not a list and expands the next one', () => {
    expect(expandBraces('{x}{a,b}')).toEqual(['{x}a', '{x}b']);
    // A number and a letter make no sequence in bash: the braces stay as typed.
    expect(expandBraces('{1..z}{a,b}')).toEqual(['{1..z}a', '{1..z}b']);
    expect(expandBraces('{-1..A}')).toEqual(['{-1..A}']);
    expect(expandBraces('{a,b}{')).toEqual(['a{', 'b{']);
    expect(expandBraces('{x,y}{a,b')).toEqual(['x{a,b', 'y{a,b']);
    // A sequence is one number or one letter at each end, nothing around them.
    expect(expandBraces('{ab..d}')).toEqual(['{ab..d}']);
    expect(expandBraces('{a..cd}')).toEqual(['{a..cd}']);
    expect(expandBraces('{1..10}')).toHaveLength(10);
    expect(expandBraces('{10..12}')).toEqual(['10', '11', '12']);
  });

  it('gives up on quotes, escapes, expansions, non-lists and more than 64 words', () => {
    for (const w of ["'{a,b}'", '"{a,b}"', '\\{a,b}', '$x{a,b}', '`x`{a,b}', 'abc', '{a}', '{a,b']) expect(expandBraces(w), w).toBeNull();
    expect(expandBraces('{1..65}')).toBeNull();
    expect(expandBraces('{a,b}'.repeat(6))).toHaveLength(64);
    expect(expandBraces('{a,b}'.repeat(7))).toBeNull();
    // Fifteen lists at most (sixteen rounds, the last must change nothing): one more is left unknown, not half expanded.
    expect(expandBraces('{1..1}'.repeat(15))).toEqual(['1'.repeat(15)]);
    expect(expandBraces('{1..1}'.repeat(16))).toBeNull();
  });

  it('a sequence too long to expand leaves the whole word unknown, so `..` lists after it cannot climb out unseen', () => {
    expect(expandBraces('{0..99}/{..,x}/{..,x}/src')).toBeNull();
    // bash: 1/../../../src is the lead's /ws/src, seen from alice's worktree.
    expect(checkCommand('teammate', 'rm -rf {1..99}/{..,x}/{..,x}/{..,x}/src', teammateCtx).allowed).toBe(false);
    expect(checkCommand('lead', 'rm -rf /tmp/{0..99}/{..,x}/{..,x}/ws/src', leadCtx).allowed).toBe(false);
    expect(checkCommand('lead', 'rm -rf /tmp/t{0..9}/{a,x}', leadCtx)).toEqual({ allowed: true });
  });
});

describe('WordBuilder', () => {
  it('a literal word is fully known; an unknown one (xargs input, find {}) is fully dynamic', () => {
    expect(literalWord('src')).toEqual({ text: 'src', raw: 'src', dynamic: false, cmdSubst: false, substs: [], glob: false, prefix: 'src', lookalike: false });
    expect(unknownWord('{}')).toEqual({ text: '', raw: '{}', dynamic: true, cmdSubst: false, substs: [], glob: false, prefix: '', lookalike: false });
  });

  it('keeps the static prefix up to the first dynamic part, and the whole static text', () => {
    const b = new WordBuilder();
    b.addStatic('/tmp/');
    b.addSubst('date');
    b.addStatic('/x');
    const w = b.build('/tmp/$(date)/x');
    expect(w).toEqual({ text: '/tmp//x', raw: '/tmp/$(date)/x', dynamic: true, cmdSubst: true, substs: ['date'], glob: false, prefix: '/tmp/', lookalike: false });
  });

  it('an unquoted brace list makes the word dynamic; an unescaped glob makes it a pattern', () => {
    const brace = new WordBuilder();
    brace.addUnquotedLit('a{b,c}');
    brace.addStatic('d');
    expect(brace.build('a{b,c}d')).toMatchObject({ dynamic: true, cmdSubst: false, glob: false, prefix: '', text: 'a{b,c}d' });
    for (const g of ['*.ts', 'a?', 'x[ab]', 'a/b*']) {
      const b = new WordBuilder();
      b.addUnquotedLit(g);
      expect(b.build(g), g).toMatchObject({ glob: true, dynamic: false });
    }
    for (const g of ['\\*.ts', 'a\\?', 'plain', 'x[']) {
      const b = new WordBuilder();
      b.addUnquotedLit(g);
      expect(b.build(g), g).toMatchObject({ glob: false, dynamic: false });
    }
  });

  it('folds text and prefix and flags look-alikes', () => {
    const b = new WordBuilder();
    b.addUnquotedLit('\\г\u200bм');
    b.markDynamic();
    b.addStatic('x');
    expect(b.build('raw')).toMatchObject({ text: 'rmx', prefix: 'rm', lookalike: true, dynamic: true, cmdSubst: false, substs: [] });
  });
});
