/** Interpreter one-liners (`python -c`, `node -e`, `perl -e`, …): tree deletion, file writes, and shell calls inside them. */
import { dynamicRule, hasDestructiveMarker } from './dynamic.js';
import { ADVICE, type Env, type Finding } from './finding.js';
import { describeZone, inTmp, resolvePath, teammateZone } from './paths.js';
import { literalWord, type Word } from './words.js';

/** Re-enters the shell checker for a command string found in code. */
export type ScriptChecker = (script: string, env: Env) => Finding | null;

const TREE_DELETE = /rmtree|rm_rf|\brm_r\b|remove_tree|rmSync|rmdirSync|\brimraf\b|\bfs\.rm\b|fs\.promises\.rm\b|fsPromises\.rm\b|removedirs|FileUtils\.rm|\brmdir\s*\(/i;
const WRITES = /writeFileSync|appendFileSync|\bwriteFile\s*\(|\.write_text\s*\(|\.write_bytes\s*\(|\bopen\s*\([^)]*,\s*['"][wax]b?\+?['"]|copyFileSync|renameSync|unlinkSync|\bunlink\s*\(|os\.(remove|unlink|rename|replace)\s*\(|shutil\.(copy\w*|move)\s*\(|File\.(write|open|delete)\s*\(|IO\.write|file_put_contents|\bcreateWriteStream\b/;
/** Deleting calls named without parentheses or passed as a function: `unlink glob "src/*"`, `map(os.remove, …)`, `File.unlink f`. */
const DELETE_CALL = /\bunlink\b|\bos\.(remove|unlink|rmdir)\b|\bFile\.(unlink|delete)\b|\bFileUtils\.(rm|remove)\w*/;
const SHELL_OUT = /os\.system|os\.popen|subprocess|child_process|\bexecSync\b|\bspawnSync\b|\bexecFileSync\b|\bexec\s*\(|\bspawn\s*\(|\bsystem\s*\(|\bpopen\b|Popen|check_call|check_output|shell_exec|passthru|proc_open|Open3|`|\bqx\b/;

export function interpreterKind(name: string): string | null {
  if (/^(python|pypy)[0-9.]*$/.test(name)) return 'python';
  if (name === 'node' || name === 'nodejs' || name === 'bun' || name === 'deno') return 'node';
  if (name === 'perl' || name === 'ruby' || name === 'php' || /^lua[0-9.]*$/.test(name)) return name.replace(/[0-9.]+$/, '');
  return null;
}

/**
 * Per interpreter: option letters that carry code, letters that take a value (glued or the next word), and
 * letters whose value is the rest of the cluster. A letter whose glued value is only digits or one letter
 * (`perl -l0`, `-0777`, `ruby -W0`, `-Ku`) is in none of them: the cluster goes on (`perl -le CODE` is -l -e).
 */
const LETTERS: Record<string, { code: string; value: string; glued: string }> = {
  python: { code: 'c', value: 'WXQ', glued: '' },
  node: { code: 'ep', value: 'rC', glued: '' },
  perl: { code: 'eE', value: 'I', glued: 'MmDdxiF' },
  ruby: { code: 'e', value: 'rICE', glued: 'xF' },
  php: { code: 'r', value: 'dcz', glued: '' },
  lua: { code: 'e', value: 'l', glued: '' },
};

/** The code an interpreter would run from its argv: null if it runs a script file or module. */
function inlineCode(kind: string, args: Word[]): Word[] | 'stdin' | null {
  if (kind === 'node' && args[0]?.text === 'eval') return args.slice(1, 2);
  const letters = LETTERS[kind] ?? { code: 'e', value: '', glued: '' };
  const code: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (/^--(eval|print)=/.test(t)) code.push(literalWord(t.slice(t.indexOf('=') + 1)));
    else if (/^--(eval|print)$/.test(t)) {
      if (args[i + 1]) code.push(args[i + 1] as Word);
      i++;
    } else if (/^--(require|import|loader|experimental-loader|input-type|conditions|title|encoding)$/.test(t)) {
      i++; // a long option's separate value, not the script
    } else if (t === '--') {
      break;
    } else if (/^-[^-]/.test(t)) {
      // A cluster as getopt reads it: `-rfileutils` is -r with the value "fileutils", `-pe CODE` is -p -e.
      for (let k = 1; k < t.length; k++) {
        const c = t[k] as string;
        // `python -m mod` runs a module; code given before it (`-c CODE -m x`: x is an argument) still runs.
        if (kind === 'python' && c === 'm') return code.length > 0 ? code : null;
        const rest = t.slice(k + 1);
        if (letters.code.includes(c)) {
          // `-pe CODE` (node): the rest of the cluster is more code flags, the code is the next word.
          const flagsOnly = Array.from(rest).every((r) => letters.code.includes(r));
          const v = flagsOnly ? args[i + 1] : { ...w, text: rest };
          if (v) code.push(v);
          // A next word that is itself an option (`node -p -e CODE`) is read as one too, besides being checked as code.
          if (flagsOnly && !(v && /^-./.test(v.text) && !v.dynamic)) i++;
          break;
        }
        if (letters.value.includes(c)) {
          if (rest === '') i++;
          break;
        }
        if (letters.glued.includes(c)) break;
      }
    } else if (!t.startsWith('-')) {
      // A script file: its words are its own. (`-` alone, code from stdin, is an option word: the loop goes on.)
      return code.length > 0 ? code : null;
    }
  }
  return code.length > 0 ? code : 'stdin';
}

/** String literals in code; their concatenation catches `['rm', '-rf', 'src']`. */
function literals(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

const FOLD_MAX = 16_000;
const LITERAL = /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g;

/**
 * Strings assembled from pieces, folded to what they evaluate to: `'r'+'m'`, `'r' 'm'`, `''.join(['r','m'])`,
 * `['r','m'].join('')`, `chr(114)`, `String.fromCharCode(114, 109)`.
 */
export function foldStrings(code: string): string {
  // The folds are quadratic on adversarial input: very long code is checked as written (the OS sandbox backs it).
  if (code.length > FOLD_MAX) return code;
  let out = code
    .replace(/\bchr\s*\(\s*(\d{1,7})\s*\)/g, (_m, n: string) => JSON.stringify(String.fromCodePoint(Number(n))))
    .replace(/String\.fromCharCode\s*\(\s*([\d\s,]+)\)/g, (_m, ns: string) => JSON.stringify(String.fromCharCode(...ns.split(',').map((x) => Number(x.trim())))));
  for (let round = 0; round < 32; round++) {
    const next = out
      .replace(/(['"])((?:(?!\1)[^\\])*)\1\s*\+?\s*(['"])((?:(?!\3)[^\\])*)\3/g, (_m, _q, a: string, _q2, b: string) => JSON.stringify(a + b))
      .replace(/(['"])\1\s*\.\s*join\s*\(\s*[[(]\s*((?:(['"])[^'"\\]*\3\s*(?:,\s*)?)*)[\])]\s*\)/g, (_m, _q, items: string) => JSON.stringify([...items.matchAll(/(['"])([^'"\\]*)\1/g)].map((x) => x[2]).join('')))
      .replace(/\[\s*((?:(['"])[^'"\\]*\2\s*(?:,\s*)?)*)\]\s*\.\s*join\s*\(\s*(['"])\3\s*\)/g, (_m, items: string) => JSON.stringify([...items.matchAll(/(['"])([^'"\\]*)\1/g)].map((x) => x[2]).join('')));
    if (next === out) break;
    out = next;
  }
  return out;
}

/** Literals used as names (`getattr(m, 'rmtree')`, `fs['rmSync']`, `__import__('shutil')`) count as code, other literals are data. */
const NAME_POSITION = /(?:array_map\s*\(|array_walk\s*\(|array_filter\s*\(|call_user_func(?:_array)?\s*\(|getattr\s*\(\s*[\w.]+\s*,|__import__\s*\(|import_module\s*\(|require\s*\(|\[|\bsend\s*\(|public_send\s*\(|\bmethod\s*\(|Reflect\.get\s*\(\s*[\w.]+\s*,)\s*$/;
function codeView(code: string): string {
  let out = '';
  let last = 0;
  for (const m of code.matchAll(LITERAL)) {
    const at = m.index ?? 0;
    const before = code.slice(last, at);
    out += before;
    out += NAME_POSITION.test(code.slice(Math.max(0, at - 60), at)) ? ` ${m[1] ?? m[2] ?? m[3] ?? ''} ` : "''";
    last = at + m[0].length;
  }
  return out + code.slice(last);
}

const DECODES = /b64decode|base64|\batob\s*\(|fromhex|unhexlify|codecs\.decode|rot_?13|decompress|Buffer\.from\s*\([^)]*,\s*['"](base64|hex)|\.reverse\s*\(|\[::-1\]|\bunpack\s*\(/i;
const RUNS_CODE = /\beval\s*\(|\bexec\s*\(|\bFunction\s*\(|\bcompile\s*\(|instance_eval|class_eval/;
/** A file or process function picked by a computed name: `getattr(shutil, n)`, `fs[n]`, `__import__(m)`. */
const DYNAMIC_DISPATCH = /getattr\s*\(\s*[\w.]+\s*,\s*[^'"\s)]|\b(fs|os|shutil|pathlib|child_process|subprocess|cp|FileUtils|fsp|promises)\s*\[\s*[^'"\s\]]|__import__\s*\(\s*[^'"\s)]|import_module\s*\(\s*[^'"\s)]|\b(send|public_send)\s*\(\s*[^'":\s)]/;

/** Modules whose functions delete files or run commands, and a call through a computed member (`f[name](…)`). */
const DANGER_MODULE = /require\s*\(\s*['"](node:)?(fs|fs\/promises|child_process)['"]|\bimport\s+(os|shutil|subprocess|pathlib)\b|from\s+(os|shutil|subprocess)\s+import|FileUtils/;
const COMPUTED_CALL = /\w\s*\[\s*[^'"\s\]][^;]*?\]\s*\(/;

/** Path-like string literals in code (`src/a.ts`, `../bob/*`), resolved where the command runs. */
function literalPaths(code: string, env: Env): string[] | null {
  const paths = literals(code).filter((s) => /[/.]/.test(s) && !/\s/.test(s));
  if (paths.length === 0) return null;
  return paths.flatMap((s) => resolvePath(literalWord(s), env.cwds, env.zones.home) ?? []);
}

const MAX_COMMAND_LITERALS = 40;

export function checkCode(raw: string, env: Env, checkScript: ScriptChecker): Finding | null {
  const code = foldStrings(raw);
  const view = codeView(code);
  if (env.role === 'teammate') {
    // A teammate may write its own files from code; any path it names in another worktree or team state is refused.
    const tree = TREE_DELETE.test(view);
    if (tree || DELETE_CALL.test(view) || WRITES.test(code)) {
      for (const p of literalPaths(code, env) ?? []) {
        const zone = teammateZone(p, env.zones, tree);
        if (zone) return { why: `write or delete from interpreter code: ${describeZone(zone, p)}`, advice: ADVICE.teammateOthers };
      }
    }
  }
  if (env.role === 'lead') {
    if (TREE_DELETE.test(view)) return { why: 'delete a directory tree from an interpreter one-liner', advice: ADVICE.lead };
    if (DECODES.test(code) && (SHELL_OUT.test(view) || RUNS_CODE.test(view))) return { why: 'run commands or code decoded at run time from an interpreter one-liner — it cannot be verified', advice: ADVICE.dynamic };
    if (DYNAMIC_DISPATCH.test(view) || (DANGER_MODULE.test(code) && COMPUTED_CALL.test(view))) return { why: 'call a file or process function chosen at run time from an interpreter one-liner — it cannot be verified', advice: ADVICE.dynamic };
    if (WRITES.test(code) || DELETE_CALL.test(view)) {
      const paths = literalPaths(code, env);
      const scratch = paths !== null && paths.every((p) => inTmp(p, env.zones));
      if (!scratch) return { why: 'write or delete files from an interpreter one-liner (the lead does not author files)', advice: ADVICE.leadWrite };
    }
  }
  if (SHELL_OUT.test(code)) {
    // Each literal as a command line, and every run of literals as an argv (`spawnSync('rm', ['-rf', 'src'])`):
    // quadratic, so only the first MAX_COMMAND_LITERALS are read. What runs could be in the rest: code with more
    // is refused for the lead, and for a teammate when the line carries a destructive verb (teammates script a lot).
    const all = literals(code);
    if (all.length > MAX_COMMAND_LITERALS && (env.role === 'lead' || hasDestructiveMarker(env.fullText))) {
      return { why: `run shell commands from interpreter code with more than ${MAX_COMMAND_LITERALS} strings — too many to check`, advice: ADVICE.dynamic };
    }
    const lits = all.slice(0, MAX_COMMAND_LITERALS);
    const candidates = [...lits, ...lits.map((_, i) => lits.slice(i).join(' '))];
    for (const s of candidates) {
      const f = checkScript(s, env);
      // A string in code that is not valid shell is just a string.
      if (f && !f.parseError) return { why: `${f.why} (from a shell command inside interpreter code)`, advice: f.advice };
    }
  }
  return null;
}

export function interpreterRule(kind: string, args: Word[], stdinCode: string | null | 'unknown', env: Env, checkScript: ScriptChecker): Finding | null {
  const code = inlineCode(kind, args);
  if (code === null) return null;
  if (code === 'stdin') {
    if (stdinCode === null) return null;
    if (stdinCode === 'unknown') return dynamicRule(`${kind} code read from a pipe`, env.fullText);
    return checkCode(stdinCode, env, checkScript);
  }
  for (const w of code) {
    if (w.dynamic) {
      const f = dynamicRule(`${kind} code`, env.fullText);
      if (f) return f;
    }
    const f = checkCode(w.text, env, checkScript);
    if (f) return f;
  }
  return null;
}

