/** argv helpers: option parsing in any order, and peeling wrappers (`sudo`, `env`, `xargs`, …) off a command. */
import { literalWord, unknownWord, type Word } from './words.js';

export interface ParsedOpts {
  /** Every short flag letter, clusters split (`-xfd` → x, f, d). */
  shorts: string[];
  /** Long options without `--`, with their inline or separate value. */
  longs: Array<{ name: string; value: string | null }>;
  /** Values of short options that take one, by letter. */
  shortValues: Map<string, string>;
  positionals: Word[];
  /** Words after `--`. */
  afterDashDash: Word[];
  sawDashDash: boolean;
  /** A dynamic word stood where an option could be. */
  dynamic: boolean;
}

export interface OptSpec {
  /** Short letters that take a value (`-m msg`, `-mmsg`). */
  shortValue?: string;
  /** Long names that take a separate value when not given as `--name=value`. */
  longValue?: readonly string[];
  /** Stop at the first positional (wrappers: what follows is the wrapped command). */
  stopAtPositional?: boolean;
}

/** Parses options anywhere in argv, as getopt_long/git's parse-options do. */
export function parseOpts(args: readonly Word[], spec: OptSpec = {}, from = 0): ParsedOpts & { next: number } {
  const out: ParsedOpts = { shorts: [], longs: [], shortValues: new Map(), positionals: [], afterDashDash: [], sawDashDash: false, dynamic: false };
  let i = from;
  for (; i < args.length; i++) {
    const w = args[i] as Word;
    if (w.dynamic && (w.prefix === '' || w.prefix.startsWith('-'))) out.dynamic = true;
    const t = w.text;
    if (t === '--' && !w.dynamic) {
      out.sawDashDash = true;
      out.afterDashDash = args.slice(i + 1);
      i = args.length;
      break;
    }
    if (t.startsWith('--') && t.length > 2) {
      const eq = t.indexOf('=');
      const name = eq < 0 ? t.slice(2) : t.slice(2, eq);
      let value: string | null = eq < 0 ? null : t.slice(eq + 1);
      if (value === null && spec.longValue?.includes(name) && i + 1 < args.length) value = (args[++i] as Word).text;
      out.longs.push({ name, value });
    } else if (t.startsWith('-') && t.length > 1) {
      for (let k = 1; k < t.length; k++) {
        const c = t[k] as string;
        out.shorts.push(c);
        if (spec.shortValue?.includes(c)) {
          const rest = t.slice(k + 1);
          out.shortValues.set(c, rest !== '' ? rest : i + 1 < args.length ? (args[++i] as Word).text : '');
          break;
        }
      }
    } else {
      if (spec.stopAtPositional) break;
      out.positionals.push(w);
    }
  }
  return { ...out, next: i };
}

/** `--name` exactly. */
export function hasLong(p: ParsedOpts, ...names: string[]): boolean {
  return p.longs.some((l) => names.includes(l.name));
}

/** `--name` or an abbreviation of it (git and getopt_long accept `--har` for `--hard`); for dangerous options only. */
export function hasLongAbbrev(p: ParsedOpts, ...names: string[]): boolean {
  return p.longs.some((l) => names.some((n) => l.name === n || (l.name.length >= 3 && n.startsWith(l.name))));
}

export function longValue(p: ParsedOpts, name: string): string | null | undefined {
  const hit = p.longs.find((l) => l.name === name || (l.name.length >= 3 && name.startsWith(l.name)));
  return hit ? hit.value : undefined;
}

export function hasShort(p: ParsedOpts, ...letters: string[]): boolean {
  return p.shorts.some((s) => letters.includes(s));
}

/** Lower-cased basename: `/bin/rm`, `RM` and `./rm` all count as rm. */
export function commandName(w: Word): string {
  const t = w.text.replace(/\/+$/, '');
  return t.slice(t.lastIndexOf('/') + 1).toLowerCase();
}

export type Resolved =
  | { kind: 'exec'; name: string; args: Word[] }
  /** Inline script run by a shell: `sh -c`, `eval`, `trap`, `watch`, `env -S`, git `!alias`. */
  | { kind: 'script'; script: Word; via: string }
  /** A shell with no script argument reads its program from stdin. */
  | { kind: 'stdin-shell'; via: string }
  /** A shell running a script file, `source`: not inspectable. */
  | { kind: 'opaque'; name: string }
  /** Command name unknown until run time (`$CMD`, `$(…)`). */
  | { kind: 'dynamic-name'; word: Word }
  | { kind: 'none' };

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'yash', 'posh', 'rbash']);

interface WrapperSpec extends OptSpec {
  /** Positional arguments the wrapper consumes before the command (`timeout 5 cmd`). */
  skip?: number;
}
const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: { shortValue: 'ugCDhprtTU', longValue: ['user', 'group', 'close-from', 'chdir', 'host', 'prompt', 'role', 'type', 'command-timeout', 'other-user'] },
  doas: { shortValue: 'uC' },
  env: { shortValue: 'uCS', longValue: ['unset', 'chdir', 'split-string'] },
  nice: { shortValue: 'n', longValue: ['adjustment'] },
  time: { shortValue: 'fo', longValue: ['format', 'output'] },
  nohup: {},
  command: {},
  builtin: {},
  exec: { shortValue: 'a' },
  stdbuf: { shortValue: 'ioe', longValue: ['input', 'output', 'error'] },
  setsid: {},
  ionice: { shortValue: 'cnpPu', longValue: ['class', 'classdata', 'pid', 'pgid', 'uid'] },
  xargs: { shortValue: 'IiLlnPsdEea', longValue: ['max-args', 'max-procs', 'max-chars', 'delimiter', 'eof', 'replace', 'max-lines', 'arg-file', 'process-slot-var'] },
  timeout: { shortValue: 'sk', longValue: ['signal', 'kill-after'], skip: 1 },
  unbuffer: {},
  fakeroot: { shortValue: 'si' },
  chronic: {},
  busybox: {},
  nocorrect: {},
  noglob: {},
  flock: { shortValue: 'wEc', longValue: ['timeout', 'conflict-exit-code', 'command'], skip: 1 },
  watch: { shortValue: 'nqd', longValue: ['interval', 'differences'] },
};

/** Peels wrappers and shell indirection off one simple command. */
export function resolveCommand(input: readonly Word[]): Resolved {
  let args = [...input];
  for (let guard = 0; guard < 32 && args.length > 0; guard++) {
    const head = args[0] as Word;
    if (head.dynamic || head.glob) return { kind: 'dynamic-name', word: head };
    const name = commandName(head);
    const spec = WRAPPERS[name];
    if (spec) {
      const p = parseOpts(args, { ...spec, stopAtPositional: true }, 1);
      if (name === 'command' && hasShort(p, 'v', 'V')) return { kind: 'none' }; // only prints the path
      if (name === 'env' && (p.shortValues.has('S') || longValue(p, 'split-string'))) {
        const s = p.shortValues.get('S') ?? longValue(p, 'split-string') ?? '';
        return { kind: 'script', script: joinWords([literalWord(s), ...args.slice(p.next)]), via: 'env -S' };
      }
      if (name === 'flock') {
        // `flock [opts] file -c cmd`: the script option may follow the lock file.
        const c = args.findIndex((w, k) => k > 0 && (w.text === '-c' || w.text === '--command'));
        const script = c > 0 ? args[c + 1] : undefined;
        if (script) return { kind: 'script', script, via: 'flock -c' };
      }
      let next = p.next;
      if (name === 'env') while (next < args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test((args[next] as Word).text)) next++;
      next += spec.skip ?? 0;
      const rest = args.slice(next);
      if (rest.length === 0) return { kind: 'none' };
      if (name === 'watch' && !hasShort(p, 'x')) return { kind: 'script', script: joinWords(rest), via: 'watch' };
      // xargs appends words read from stdin: their values are unknown.
      args = name === 'xargs' ? [...rest, unknownWord('<xargs input>')] : rest;
      continue;
    }
    if (SHELLS.has(name)) return resolveShell(name, args);
    if (name === 'eval') return args.length > 1 ? { kind: 'script', script: joinWords(args.slice(1)), via: 'eval' } : { kind: 'none' };
    if (name === 'trap') return args.length > 2 ? { kind: 'script', script: args[1] as Word, via: 'trap' } : { kind: 'none' };
    if (name === 'source' || name === '.') return { kind: 'opaque', name };
    return { kind: 'exec', name, args: args.slice(1) };
  }
  return { kind: 'none' };
}

function resolveShell(name: string, args: Word[]): Resolved {
  let hasC = false;
  for (let i = 1; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (w.dynamic) return { kind: 'script', script: joinWords(args.slice(i)), via: `${name}` };
    if (t === '--' || t === '-') continue;
    if (/^[-+]o$|^[-+]O$/.test(t) || t === '--rcfile' || t === '--init-file') {
      i++;
      continue;
    }
    if (t.startsWith('--')) continue;
    if (/^[-+][A-Za-z]+$/.test(t)) {
      if (t.startsWith('-') && t.includes('c')) hasC = true;
      continue;
    }
    if (hasC) return { kind: 'script', script: w, via: `${name} -c` };
    return { kind: 'opaque', name };
  }
  return hasC ? { kind: 'none' } : { kind: 'stdin-shell', via: name };
}

/** Joins words with spaces into one word (eval semantics). */
export function joinWords(ws: readonly Word[]): Word {
  const w = literalWord(ws.map((x) => x.text).join(' '));
  w.raw = ws.map((x) => x.raw).join(' ');
  w.dynamic = ws.some((x) => x.dynamic);
  w.cmdSubst = ws.some((x) => x.cmdSubst);
  w.substs = ws.flatMap((x) => x.substs);
  w.lookalike = ws.some((x) => x.lookalike);
  return w;
}
