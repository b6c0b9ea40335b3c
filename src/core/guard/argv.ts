/** argv helpers: option parsing in any order, and peeling wrappers (`sudo`, `env`, `xargs`, …) off a command. */
import { literalWord, unknownWord, type Word } from './words.js';

export interface ParsedOpts {
  /** Every short flag letter, clusters split (`-xfd` → x, f, d). */
  shorts: string[];
  /** Long options without `--`, with their inline or separate value. */
  longs: Array<{ name: string; value: string | null }>;
  /** Values of short options that take one, by letter. */
  shortValues: Map<string, string>;
  /** Every short option value in order, repeats included (`curl -o a URL -o b URL`); shortValues keeps the last. */
  shortValueList: Array<{ letter: string; value: string }>;
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
  const out: ParsedOpts = { shorts: [], longs: [], shortValues: new Map(), shortValueList: [], positionals: [], afterDashDash: [], sawDashDash: false, dynamic: false };
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
      // getopt_long takes any unambiguous prefix (`--output-d x` is `--output-document x`): a prefix of a
      // value-taking option takes the next word too, as `longValue()` reads it.
      const takesValue = spec.longValue?.some((n) => abbreviates(name, n));
      if (value === null && takesValue && i + 1 < args.length) value = (args[++i] as Word).text;
      out.longs.push({ name, value });
    } else if (t.startsWith('-') && t.length > 1) {
      for (let k = 1; k < t.length; k++) {
        const c = t[k] as string;
        out.shorts.push(c);
        if (spec.shortValue?.includes(c)) {
          const rest = t.slice(k + 1);
          const value = rest !== '' ? rest : i + 1 < args.length ? (args[++i] as Word).text : '';
          out.shortValues.set(c, value);
          out.shortValueList.push({ letter: c, value });
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

/**
 * `--name` or any prefix of it: git and getopt_long accept every unambiguous prefix (`git reset --h` is
 * `--hard`), and an ambiguous one makes git fail anyway. For dangerous options only.
 */
export function hasLongAbbrev(p: ParsedOpts, ...names: string[]): boolean {
  return p.longs.some((l) => l.name !== '' && names.some((n) => n.startsWith(l.name)));
}

/** `typed` names the long option `full`: the whole name, or a prefix of 3 or more characters as getopt_long takes it. */
export const abbreviates = (typed: string, full: string): boolean => typed === full || (typed.length >= 3 && full.startsWith(typed));

export function longValue(p: ParsedOpts, name: string): string | null | undefined {
  const hit = p.longs.find((l) => abbreviates(l.name, name));
  return hit ? hit.value : undefined;
}

/** Every value given to `-letter` and to `--long` (or its abbreviation), in order, repeats included. */
export function optionValues(p: ParsedOpts, letter: string, long?: string): string[] {
  const shorts = p.shortValueList.filter((v) => v.letter === letter).map((v) => v.value);
  return long === undefined ? shorts : [...shorts, ...p.longs.filter((l) => abbreviates(l.name, long)).map((l) => l.value ?? '')];
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
  flock: { shortValue: 'wE', longValue: ['timeout', 'conflict-exit-code'], skip: 1 },
  watch: { shortValue: 'nqd', longValue: ['interval', 'differences'] },
  toybox: {},
  runuser: { shortValue: 'ugGw', longValue: ['user', 'group', 'supp-group', 'whitelist-environment'] },
  strace: { shortValue: 'abeEIoOpPsSuUX', longValue: ['output', 'attach', 'user', 'env', 'signal', 'trace', 'string-limit', 'trace-path'] },
  ltrace: { shortValue: 'aAeFlnopsuxXDw', longValue: ['output', 'library', 'config'] },
  unshare: { shortValue: 'SGRw', longValue: ['setuid', 'setgid', 'root', 'wd', 'map-user', 'map-group'] },
  nsenter: { shortValue: 'tSG', longValue: ['target', 'setuid', 'setgid'] },
  chroot: { longValue: ['userspec', 'groups'], skip: 1 },
  'systemd-run': { shortValue: 'pEuHMs', longValue: ['property', 'unit', 'description', 'slice', 'uid', 'gid', 'nice', 'working-directory', 'setenv', 'machine', 'host', 'on-active', 'on-calendar', 'service-type'] },
  taskset: { skip: 1 },
  chrt: { skip: 1 },
  firejail: {},
  /** GNU parallel: the command comes first, its arguments after `:::` (values unknown here). */
  parallel: { shortValue: 'jSnNLIEdaC', longValue: ['jobs', 'sshlogin', 'max-args', 'delimiter', 'arg-file', 'colsep', 'joblog', 'results', 'workdir'] },
  /** Package runners: the binary is fetched and run by name (`npx rimraf src`). */
  npx: { shortValue: 'p', longValue: ['package'] },
  bunx: { shortValue: 'p', longValue: ['package'] },
  pnpx: { shortValue: 'p', longValue: ['package'] },
};

/** `npm exec`, `pnpm dlx`, `yarn dlx`, `bun x`: two-word spellings of a package runner. */
const RUNNER_SUBCOMMANDS: Record<string, readonly string[]> = { npm: ['exec', 'x'], pnpm: ['dlx', 'exec'], yarn: ['dlx', 'exec'], bun: ['x'] };
/** Wrappers whose script option may follow other arguments: `su user -c cmd`, `flock file -c cmd`. */
const SCRIPT_OPTION: Record<string, readonly string[]> = { flock: ['-c', '--command'], su: ['-c', '--command'], runuser: ['-c', '--command'], script: ['-c', '--command'], npx: ['-c', '--call'] };

/** `-c script`, `-cscript`, `-qc script`, `--command=script` anywhere after the wrapper name. */
function scriptOption(args: readonly Word[], names: readonly string[], optionsFirst: boolean): Word | undefined {
  const short = names.find((n) => n.length === 2)?.[1];
  for (let k = 1; k < args.length; k++) {
    const w = args[k] as Word;
    const t = w.text;
    if (optionsFirst && !t.startsWith('-')) return undefined; // npx: what follows the binary is the binary's
    if (optionsFirst && (t === '-p' || t === '--package')) {
      k++;
      continue;
    }
    if (names.includes(t)) return args[k + 1];
    const long = names.find((n) => n.startsWith('--') && t.startsWith(`${n}=`));
    if (long) return { ...w, text: t.slice(long.length + 1) };
    // getopt: what follows `-c` in the same word is its value (`-c'rm -rf x'`).
    if (short && t.startsWith(`-${short}`) && t.length > 2) return { ...w, text: t.slice(2) };
    if (short && /^-[A-Za-z]+$/.test(t) && t.endsWith(short)) return args[k + 1];
    if (t === '--') return undefined;
  }
  return undefined;
}

/** Wrappers peeled off one command (`nice nice … rm`); each pass peels one. */
const MAX_WRAPPERS = 32;

/** Peels wrappers and shell indirection off one simple command. */
export function resolveCommand(input: readonly Word[]): Resolved {
  let args = [...input];
  for (let guard = 0; guard < MAX_WRAPPERS && args.length > 0; guard++) {
    const head = args[0] as Word;
    if (head.dynamic || head.glob) return { kind: 'dynamic-name', word: head };
    if (head.text === '--') {
      args = args.slice(1); // `time -- rm -rf x`: bash's time keyword takes `--` too
      continue;
    }
    let name = commandName(head);
    if (RUNNER_SUBCOMMANDS[name]?.includes(args[1]?.text ?? '')) {
      args = args.slice(1);
      name = 'npx';
    }
    const scriptVia = SCRIPT_OPTION[name];
    if (scriptVia) {
      const script = scriptOption(args, scriptVia, name === 'npx');
      if (script) return { kind: 'script', script, via: `${name} ${scriptVia[0]}` };
      if (name === 'su' || name === 'script') return { kind: 'none' }; // an interactive shell or a recording
    }
    const spec = WRAPPERS[name];
    if (spec) {
      const p = parseOpts(args, { ...spec, stopAtPositional: true }, 1);
      if (name === 'command' && hasShort(p, 'v', 'V')) return { kind: 'none' }; // only prints the path
      if (name === 'env' && (p.shortValues.has('S') || longValue(p, 'split-string'))) {
        const s = p.shortValues.get('S') ?? longValue(p, 'split-string') ?? '';
        return { kind: 'script', script: joinWords([literalWord(s), ...args.slice(p.next)]), via: 'env -S' };
      }
      // `sudo -- rm -rf x`: the command follows the `--`.
      let next = p.sawDashDash ? args.length - p.afterDashDash.length : p.next;
      // `env A=1 cmd`, `sudo A=1 cmd`: assignments before the command (sudo(8) takes them too).
      if (name === 'env' || name === 'sudo') while (next < args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test((args[next] as Word).text)) next++;
      if (!((name === 'taskset' || name === 'chrt') && hasShort(p, 'p'))) next += spec.skip ?? 0;
      let rest = args.slice(next);
      if (rest.length === 0) return name === 'parallel' ? { kind: 'stdin-shell', via: 'parallel' } : { kind: 'none' };
      if (name === 'watch' && !hasShort(p, 'x')) return { kind: 'script', script: joinWords(rest), via: 'watch' };
      if (name === 'parallel') {
        const sep = rest.findIndex((w) => /^:::+\+?$/.test(w.text));
        if (sep >= 0) rest = rest.slice(0, sep);
        // One word with spaces is a command line of its own (`parallel 'rm -rf {}' ::: a`).
        if (rest.length === 1) return { kind: 'script', script: joinWords([...rest, unknownWord('<parallel input>')]), via: 'parallel' };
      }
      // xargs and parallel append words read from their input: their values are unknown.
      args = name === 'xargs' || name === 'parallel' ? [...rest, unknownWord(`<${name} input>`)] : rest;
      continue;
    }
    if (SHELLS.has(name)) return resolveShell(name, args);
    if (name === 'eval') return args.length > 1 ? { kind: 'script', script: joinWords(args.slice(1)), via: 'eval' } : { kind: 'none' };
    if (name === 'trap') return args.length > 2 ? { kind: 'script', script: args[1] as Word, via: 'trap' } : { kind: 'none' };
    if (name === 'source' || name === '.') return { kind: 'opaque', name };
    return { kind: 'exec', name, args: args.slice(1) };
  }
  // Words left after the last pass: a chain of more wrappers than are peeled hides what runs (fail closed).
  return args.length > 0 ? { kind: 'dynamic-name', word: unknownWord(`<a command behind more than ${MAX_WRAPPERS} wrappers>`) } : { kind: 'none' };
}

function resolveShell(name: string, args: Word[]): Resolved {
  let hasC = false;
  for (let i = 1; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (w.dynamic) return { kind: 'script', script: joinWords(args.slice(i)), via: `${name}` };
    if (t === '--' || t === '-') continue;
    if (/^\/(dev\/stdin|dev\/fd\/0|proc\/self\/fd\/0)$/.test(t)) return hasC ? { kind: 'script', script: w, via: `${name} -c` } : { kind: 'stdin-shell', via: name };
    if (t === '--rcfile' || t === '--init-file') {
      i++;
      continue;
    }
    if (t.startsWith('--')) continue;
    if (/^[-+][A-Za-z]+$/.test(t)) {
      if (t.startsWith('-') && t.includes('c')) hasC = true;
      // Each o or O takes the next word as its option name, in a cluster too (`bash -eo pipefail -c …`).
      i += (t.match(/[oO]/g) ?? []).length;
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
