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
    // `~-` ($OLDPWD), `~+` ($PWD), `~user` (that user's home), `~N/` (bash's directory stack): only `~` and
    // `~/` are the agent's home. A bare `~N` is left alone: with no stack it stays as typed (git's `~1`).
    if (BRACE_LIST.test(raw) || (this.text === '' && /^~([-+A-Za-z_]|\d+\/)/.test(raw))) this.markDynamic();
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
    // `/tmp/*/../../ws/src/*`: a `..` after the wildcard leaves the directory before it, so the place is not known.
    const wild = this.glob ? folded.search(/[*?[]/) : -1;
    const climbs = wild >= 0 && /(^|\/)\.\.(\/|$)/.test(folded.slice(wild));
    if (climbs && this.prefixOpen) this.prefix = this.prefix.slice(0, wild);
    return {
      text: folded,
      raw,
      dynamic: this.dynamic || climbs,
      cmdSubst: this.cmdSubst,
      substs: this.substs,
      glob: this.glob,
      prefix: fold(this.prefix),
      lookalike: folded !== this.text,
    };
  }
}

const MAX_BRACE_WORDS = 64;
/** A sequence longer than the guard expands: the word's value is unknown, not the literal text. */
const TOO_MANY = 'too many';

/** One level of `{a,b}` / `{1..3}` / `{a..c}` at the first top-level brace list; null when there is none. */
function expandOnce(s: string): string[] | null | typeof TOO_MANY {
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '{') continue;
    let depth = 0;
    const commas: number[] = [];
    let j = i;
    for (; j < s.length; j++) {
      const c = s[j];
      if (c === '{') depth++;
      else if (c === '}' && --depth === 0) break;
      else if (c === ',' && depth === 1) commas.push(j);
    }
    if (j >= s.length) return null;
    const pre = s.slice(0, i);
    const body = s.slice(i + 1, j);
    const post = s.slice(j + 1);
    if (commas.length > 0) {
      const parts: string[] = [];
      let from = i + 1;
      for (const c of [...commas, j]) {
        parts.push(s.slice(from, c));
        from = c + 1;
      }
      return parts.map((p) => pre + p + post);
    }
    const seq = /^(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])$/.exec(body);
    if (seq) {
      const [a, b] = [seq[1] as string, seq[2] as string];
      const num = /\d/.test(a);
      // A number and a letter make no sequence: bash leaves those braces as typed.
      if (num !== /\d/.test(b)) continue;
      const [x, y] = num ? [Number(a), Number(b)] : [a.charCodeAt(0), b.charCodeAt(0)];
      if (Math.abs(y - x) >= MAX_BRACE_WORDS) return TOO_MANY;
      const out: string[] = [];
      for (let k = x; x <= y ? k <= y : k >= y; k += x <= y ? 1 : -1) out.push(pre + (num ? String(k) : String.fromCharCode(k)) + post);
      return out;
    }
  }
  return null;
}

/**
 * Bash brace expansion of an unquoted word made of plain characters only (`{rm,-rf,src}` → rm -rf src):
 * it happens before any other expansion, so the words are known statically. Null when the word holds
 * quotes, escapes or expansions, or would expand to more than 64 words.
 */
export function expandBraces(raw: string): string[] | null {
  if (!BRACE_LIST.test(raw) || /['"\\$`]/.test(raw)) return null;
  let words = [raw];
  for (let round = 0; round < 16; round++) {
    let changed = false;
    const next: string[] = [];
    for (const w of words) {
      const e = expandOnce(w);
      if (e === TOO_MANY) return null;
      if (e) {
        changed = true;
        next.push(...e);
      } else next.push(w);
      if (next.length > MAX_BRACE_WORDS) return null;
    }
    words = next;
    if (!changed) return words;
  }
  return null;
}
