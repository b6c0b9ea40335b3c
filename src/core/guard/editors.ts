/**
 * Editors with a command language: vim/ex (`-c`/`+cmd`/`--cmd` commands, scripts, write commands, non-interactive
 * editing of files) and ed (commands on stdin). Split from programs.ts, which dispatches to them.
 */
import { parseOpts } from './argv.js';
import { dynamicRule } from './dynamic.js';
import { ADVICE, type Env, type Finding } from './finding.js';
import { firstHit } from './fs-rules.js';
import type { ScriptChecker } from './interp.js';
import { inWorkspace, resolvePath } from './paths.js';
import { literalWord, type Word } from './words.js';

/**
 * A write command as ex reads it: after modifiers (`silent!`, `exe "…"`) and a range, `w`/`wq`/`wn`/`sav`… then
 * `!` or blanks or `>>`, `++opt`s, and the file (`w!file` forces; `w !cmd`, a blank before the `!`, pipes to a shell).
 */
const WRITE_COMMAND =
  /(?:^|[|\n"'])\s*:?\s*(?:(?:sil(?:ent)?!?|noa(?:utocmd)?|keepalt|keepj(?:umps)?|lockm(?:arks)?|exe(?:c(?:ute)?)?)\s+["']?\s*:?\s*)*[.$,;%\d+'<>-]*\s*(?:w|W|wq|x|xit|exit|write|sav|saveas|up|update|wn|wN|wnext|wNext|wp|wprevious)(?:!|(?=\s|>>))\s*(?:\+\+\w+(?:=\S*)?\s+)*(?:>>\s*)?([^\s|!"'][^\s|"']*)/g;

/** Files a write command names (`:w path`, `:saveas path`, ed's `w path` / `W path`): written besides the edited ones. */
function writtenFiles(commands: string): Word[] {
  return [...commands.matchAll(WRITE_COMMAND)].map((m) => literalWord(m[1] as string));
}

export const VIM = new Set(['vim', 'vi', 'nvim', 'ex', 'view', 'vimdiff', 'gvim', 'rvim', 'evim']);

/** vim/ex: `-c`/`+cmd`/`--cmd` commands with `!` shell escapes, and non-interactive editing of files. */
export function vim(name: string, args: Word[], stdin: string | null, env: Env, nested: ScriptChecker): Finding | null {
  const commands: string[] = [];
  const files: Word[] = [];
  /** Written whatever else vim does: `-w`/`-W {scriptout}` (the keys typed), `-V{N}{file}`, `--log`, `--startuptime` (logs), `-i` (viminfo). */
  const scriptOut: Word[] = [];
  let exMode = name === 'ex';
  let readOnly = name === 'view' || name === 'rvim';
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (t === '--cmd') commands.push(args[++i]?.text ?? '');
    else if (t === '--startuptime' || t === '--log') pushWord(scriptOut, args[++i]);
    else if (t.startsWith('+')) commands.push(t.slice(1));
    else if (t === '--') {
      files.push(...args.slice(i + 1));
      break;
    } else if (/^-[a-zA-Z]/.test(t)) {
      // Letters as vim's own scan reads them: one that takes a value ends the word and takes the rest of it
      // (`-c{command}`, `-t{tag}`, `-V{N}{file}`) or, for most, the next word (`-sc CMD`, `-eu NONE`).
      for (let j = 1; j < t.length; j++) {
        const c = t[j] as string;
        const rest = t.slice(j + 1);
        if (/[eEs]/.test(c)) exMode = true;
        else if (c === 'R' || c === 'M') readOnly = true;
        else if (c === 'c' || c === 'S') {
          // `-S` before another option (or at the end) sources Session.vim and lets that option be read.
          if (c === 'S' && !rest && !/^[^-]/.test(args[i + 1]?.text ?? '')) commands.push('so Session.vim');
          else commands.push(rest || (args[++i]?.text ?? ''));
          break;
        } else if (c === 'w' && /^\d/.test(rest)) {
          j += (/^\d+/.exec(rest) as RegExpExecArray)[0].length; // `-w{N}`: the window height; vim reads on (`-w5c CMD`)
        } else if (c === 'w' || c === 'W') {
          const out = rest ? literalWord(rest) : args[++i];
          if (c === 'W' || rest || !/^\d/.test(out?.text ?? '')) pushWord(scriptOut, out); // `-w 5`: the window height
          break;
        } else if (c === 'i') {
          // `-i {viminfo}`: written when vim exits, whatever it edited.
          const info = rest ? literalWord(rest) : args[++i];
          if (info?.text !== 'NONE') pushWord(scriptOut, info);
          break;
        } else if (c === 'V') {
          const log = rest.replace(/^\d*/, '');
          if (log) scriptOut.push(literalWord(log));
          break;
        } else if (/[TuUtq]/.test(c)) {
          if (!rest) i++;
          break;
        }
      }
    } else if (!t.startsWith('-')) files.push(args[i] as Word);
  }
  // Text on stdin is read as commands (ex mode) or typed keys (`:cmd`), unless `-` makes it the edited file.
  if (stdin && !args.some((w) => w.text === '-')) commands.push(...stdin.split('\n').filter((l) => l.trim() !== ''));
  for (const c of commands) {
    const bang = c.indexOf('!');
    if (bang >= 0) {
      const f = nested(c.slice(bang + 1), env);
      if (f && !f.parseError) return { why: `${f.why} (from a ${name} shell escape)`, advice: f.advice };
    }
    const f = vimScript(name, c, scriptOut, env, nested);
    if (f) return f;
  }
  const writes = commands.some((c) => /(^|[|\s:])(w|wq|x|wa|wall|up|update|sav|saveas|write|exit|xit)\b/.test(c)) || ((exMode || commands.length > 0) && !readOnly);
  return editFiles(name, [...scriptOut, ...(writes ? [...files, ...commands.flatMap(writtenFiles)] : [])], env);
}

const VIM_SHELL = /\b(system|systemlist|job_start|jobstart|term_start|termopen)\s*\(|\bexe(c(ute)?)?\b/;
const VIM_FILES = /\b(delete|writefile|rename|mkdir|filecopy)\s*\(/g;
/** The arguments of vim's file functions that name no file: delete()'s and mkdir()'s flags, writefile()'s data and flags. */
const NOT_FILES: Record<string, number[]> = { delete: [1], mkdir: [1, 2], writefile: [0, 2] };
const VIM_LANGUAGE = /(?:^|[|:\s])(lua|luado|luafile|py3?|python3?|pyx|pythonx|py3?do|py3?file|perl|perldo|ruby|rubydo|tcl|tcldo|mzscheme)\b/;

/**
 * A vim command that reaches the shell or the disk without a `!`: the strings given to system()/job functions or
 * `exe` are shell commands, the strings given to delete()/writefile()/rename() are written files (added to
 * `written`), and code in an interface language (:lua, :py3…) is not read.
 */
function vimScript(name: string, c: string, written: Word[], env: Env, nested: ScriptChecker): Finding | null {
  const strings = stringsOf(c);
  if (VIM_SHELL.test(c)) {
    for (const s of [...strings, strings.join(' ')]) {
      const f = nested(s.replace(/^\s*!/, ''), env);
      if (f && !f.parseError) return { why: `${f.why} (from a ${name} shell escape)`, advice: f.advice };
    }
  }
  // Every other string of the command may be a file name (`let f = "src/a.ts" | call delete(f)`).
  if (c.match(VIM_FILES)) written.push(...stringsOf(withoutDataArgs(c)).filter((s) => s !== '').map(literalWord));
  const lang = VIM_LANGUAGE.exec(c)?.[1];
  if (!lang) return null;
  if (env.role === 'lead') return { why: `run ${lang} code inside ${name}, which the guard cannot read`, advice: ADVICE.leadWrite };
  return dynamicRule(`${lang} code inside ${name}`, env.fullText);
}

/** vim script's string literals: `"…"` with backslash escapes, `'…'` with `''` for a quote. */
function stringsOf(c: string): string[] {
  return [...c.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'/g)].map((m) => m[1] ?? m[2] ?? '');
}

/** `c` with the flag and data arguments of its file-function calls blanked (a call without its `)` is kept whole). */
function withoutDataArgs(c: string): string {
  const out = c.split('');
  for (const m of c.matchAll(VIM_FILES)) {
    const args = callArgs(c, m.index + m[0].length);
    for (const i of NOT_FILES[m[1] as string] ?? []) {
      const a = args?.[i];
      if (a) out.fill(' ', a[0], a[1]);
    }
  }
  return out.join('');
}

/** The top-level arguments (start, end) of a call whose `(` ends at `from`, or null when its `)` is missing. */
function callArgs(c: string, from: number): [number, number][] | null {
  const args: [number, number][] = [];
  let depth = 0;
  let start = from;
  let quote = '';
  for (let i = from; i < c.length; i++) {
    const ch = c[i] as string;
    if (quote) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if ('([{'.includes(ch)) depth++;
    else if (ch === ',' && depth === 0) {
      args.push([start, i]);
      start = i + 1;
    } else if (')]}'.includes(ch) && depth-- === 0) {
      args.push([start, i]);
      return args;
    }
  }
  return null;
}

function pushWord(list: Word[], w: Word | undefined): void {
  if (w) list.push(w);
}

function editFiles(name: string, files: Word[], env: Env): Finding | null {
  if (env.role === 'lead') {
    for (const w of files) {
      if (w.dynamic) return { why: `edit files named at run time with ${name}`, advice: ADVICE.dynamic };
      if ((resolvePath(w, env.cwds, env.zones.home) ?? []).some((p) => inWorkspace(p, env.zones))) return { why: `edit ${w.text} non-interactively with ${name} (the lead does not author files)`, advice: ADVICE.leadWrite };
    }
    return null;
  }
  return firstHit(files, env, `edit (${name})`, false);
}

/** ed/red: commands come on stdin; `!cmd` lines run the shell, `w` writes the file. */
export function ed(name: string, args: Word[], stdin: string | null, env: Env, nested: ScriptChecker): Finding | null {
  if (stdin && name === 'ed') {
    for (const m of stdin.matchAll(/(?:^|\n)\s*(?:[.$,;\d+-]*\s*[rwe]\s*)?!([^\n]*)/g)) {
      const f = nested(m[1] as string, env);
      if (f && !f.parseError) return { why: `${f.why} (from an ed shell escape)`, advice: f.advice };
    }
  }
  const p = parseOpts(args, { shortValue: 'p' });
  return editFiles(name, [...p.positionals, ...p.afterDashDash, ...(stdin ? writtenFiles(stdin) : [])], env);
}
