/** Shell words as the rules see them: quotes and escapes removed, dynamic parts flagged, look-alikes folded. */

export interface Word {
  /** Value after quote removal, with Unicode look-alikes folded; dynamic parts contribute nothing. */
  text: string;
  /** The word's source text. */
  raw: string;
  /** Contains `$VAR`, `$(…)`, backticks, `$((…))`, `<(…)` or an unquoted brace list: its value is unknown. */
  dynamic: boolean;
  /** Contains a command substitution. */
  cmdSubst: boolean;
  /** Source of each `$(…)` / backtick body, for the known-safe `$(git merge-base …)` pattern. */
  substs: string[];
  /** Unquoted glob characters (`*?[`): the value is a pattern. */
  glob: boolean;
  /** Static text before the first dynamic part. */
  prefix: string;
  /** Folding changed the text (Unicode look-alikes, zero-width characters, dash variants). */
  lookalike: boolean;
}

export function literalWord(text: string): Word {
  return { text, raw: text, dynamic: false, cmdSubst: false, substs: [], glob: false, prefix: text, lookalike: false };
}

/** A word whose value comes from elsewhere (xargs input, find's `{}`). */
export function unknownWord(raw: string): Word {
  return { text: '', raw, dynamic: true, cmdSubst: false, substs: [], glob: false, prefix: '', lookalike: false };
}

const ZERO_WIDTH = /[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/g;
/** Cyrillic/Greek letters that render like Latin ones in a terminal. */
const CONFUSABLES: Record<string, string> = {
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', і: 'i', ј: 'j', ѕ: 's', ԁ: 'd', һ: 'h', ɡ: 'g',
  м: 'm', г: 'r', т: 't', к: 'k', в: 'b', н: 'h', ℓ: 'l',
  α: 'a', ε: 'e', ο: 'o', ρ: 'p', τ: 't', υ: 'u', ι: 'i', κ: 'k', ν: 'v',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X',
};

/** NFKC, zero-width removal, dash variants to ASCII, confusable letters to Latin. */
export function fold(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(s)) return s;
  let out = s.normalize('NFKC').replace(ZERO_WIDTH, '');
  out = out.replace(/[\u2014\u2015]/g, '--').replace(/[\u2010-\u2013\u2212\ufe63\uff0d]/g, '-');
  out = out.replace(/[^\x00-\x7f]/g, (c) => CONFUSABLES[c] ?? c); // eslint-disable-line no-control-regex
  return out;
}

/** Unquoted context: a backslash quotes the next character. */
export function unescapeUnquoted(s: string): string {
  return s.includes('\\') ? s.replace(/\\(.)/gs, '$1') : s;
}

/** Inside double quotes a backslash only escapes `$ \` " \\` and newline. */
export function unescapeDouble(s: string): string {
  return s.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
}

/** `$'…'` (ANSI-C quoting), so `$'\x72m'` is seen as `rm`. */
export function ansiC(s: string): string {
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
  return s.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs, (_m, e: string) => {
    const k = e[0] ?? '';
    if (k === 'x' || k === 'u' || k === 'U') return String.fromCodePoint(parseInt(e.slice(1), 16));
    if (/[0-7]/.test(k)) return String.fromCharCode(parseInt(e, 8));
    if (k === 'c') return String.fromCharCode((e.charCodeAt(1) ?? 64) & 31);
    return simple[k] ?? `\\${e}`;
  });
}

const BRACE_LIST = /\{[^{}\s]*(,|\.\.)[^{}\s]*\}/;
/** Unescaped `*`, `?` or `[` in unquoted text. */
const GLOB = /(^|[^\\])([*?]|\[[^\]]*\])/;

/** Accumulates the pieces of one word in source order. */
export class WordBuilder {
  private text = '';
  private prefix = '';
  private prefixOpen = true;
  dynamic = false;
  glob = false;
  cmdSubst = false;
  readonly substs: string[] = [];

  addStatic(s: string): void {
    this.text += s;
    if (this.prefixOpen) this.prefix += s;
  }

  addUnquotedLit(raw: string): void {
    if (BRACE_LIST.test(raw)) this.markDynamic();
    if (GLOB.test(raw)) this.glob = true;
    this.addStatic(unescapeUnquoted(raw));
  }

  markDynamic(): void {
    this.dynamic = true;
    this.prefixOpen = false;
  }

  addSubst(body: string): void {
    this.cmdSubst = true;
    this.substs.push(body);
    this.markDynamic();
  }

  build(raw: string): Word {
    const folded = fold(this.text);
    return {
      text: folded,
      raw,
      dynamic: this.dynamic,
      cmdSubst: this.cmdSubst,
      substs: this.substs,
      glob: this.glob,
      prefix: fold(this.prefix),
      lookalike: folded !== this.text,
    };
  }
}
