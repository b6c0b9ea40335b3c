/**
 * Programs that are not deleters by name but delete or write by kind: compressors and archivers that remove
 * their input, containers that mount the workspace, and programs with a shell escape or an editing mode
 * (awk, sqlite3, cmake -E; vim/ex and ed in editors.ts).
 */
import { hasLong, hasLongAbbrev, hasShort, parseOpts } from './argv.js';
import { dynamicRule } from './dynamic.js';
import { ADVICE, type Env, type Finding } from './finding.js';
import type { ArgvChecker } from './fs-rules.js';
import { checkTarget, firstHit } from './fs-rules.js';
import type { ScriptChecker } from './interp.js';
import { ed, vim, VIM } from './editors.js';
import { literalWord, type Word } from './words.js';


/** Compressors that replace `f` by `f.gz` (deleting `f`) unless told to keep it or write to stdout. */
const DELETE_BY_DEFAULT = new Set(['gzip', 'gunzip', 'bzip2', 'bunzip2', 'xz', 'unxz', 'lzma', 'unlzma', 'lzip', 'pigz', 'unpigz', 'pbzip2', 'compress', 'uncompress']);
/** Compressors that keep their input unless asked to remove it. */
const KEEP_BY_DEFAULT: Record<string, { shorts: string; longs: string[] }> = {
  zstd: { shorts: '', longs: ['rm'] },
  unzstd: { shorts: '', longs: ['rm'] },
  lz4: { shorts: '', longs: ['rm'] },
  brotli: { shorts: 'j', longs: ['rm'] },
  lzop: { shorts: 'U', longs: ['delete'] },
};

function compressor(name: string, args: Word[], env: Env): Finding | null {
  const p = parseOpts(args, { shortValue: 'SoTbBpL', longValue: ['suffix', 'output', 'threads'] });
  const files = [...p.positionals, ...p.afterDashDash].filter((w) => w.text !== '-');
  if (files.length === 0) return null; // stdin to stdout
  const keep = KEEP_BY_DEFAULT[name];
  if (keep) {
    if (!(keep.shorts && hasShort(p, ...keep.shorts.split(''))) && !hasLong(p, ...keep.longs)) return null;
  } else if (hasShort(p, 'c', 'k', 't', 'l', 'h', 'V') || hasLongAbbrev(p, 'stdout', 'to-stdout', 'keep', 'test', 'list', 'help', 'version')) {
    return null;
  }
  const recursive = hasShort(p, 'r') || hasLongAbbrev(p, 'recursive');
  return firstHit(files, env, `replace files by their compressed form (${name}, which deletes the originals)`, recursive);
}

function tarRemoveFiles(args: Word[], env: Env): Finding | null {
  const p = parseOpts(args, { shortValue: 'fCbHKLNTVX', longValue: ['file', 'directory', 'exclude', 'transform', 'files-from'] });
  if (!p.longs.some((l) => l.name.length >= 3 && 'remove-files'.startsWith(l.name))) return null;
  // Old style `tar czf a.tgz src`: the archive is the first positional after the bundled letters.
  const bundled = /^[a-zA-Z]+$/.test(args[0]?.text ?? '') && (args[0]?.text ?? '').includes('f');
  const files = [...(bundled ? p.positionals.slice(2) : p.positionals), ...p.afterDashDash];
  return firstHit(files, env, 'archive files and delete them (tar --remove-files)', true);
}

function zipMove(args: Word[], env: Env): Finding | null {
  const p = parseOpts(args, { shortValue: 'bnOPtTx', longValue: ['temp-path', 'suffixes', 'output-file', 'password'] });
  if (!hasShort(p, 'm') && !hasLongAbbrev(p, 'move')) return null;
  return firstHit([...p.positionals.slice(1), ...p.afterDashDash], env, 'archive files and delete them (zip -m)', hasShort(p, 'r', 'R') || hasLong(p, 'recurse-paths'));
}

function sevenZip(args: Word[], env: Env): Finding | null {
  if (!args.some((w) => w.text === '-sdel')) return null;
  const pos = args.filter((w) => !w.text.startsWith('-'));
  return firstHit(pos.slice(2), env, 'archive files and delete them (7z -sdel)', true);
}

/** `docker|podman|nerdctl run|create`: a writable bind mount of the workspace lets the container delete it. */
function container(args: Word[], env: Env): Finding | null {
  // Global options may take a value (`docker --context ctx run`, `-H host`): the verb is the first run/create word.
  const sub = args.findIndex((w) => ['run', 'create', 'container'].includes(w.text));
  const verb = args[sub]?.text === 'container' ? args[sub + 1]?.text : args[sub]?.text;
  if (verb !== 'run' && verb !== 'create') return null;
  const mounts: Array<{ src: Word; readOnly: boolean }> = [];
  for (let i = sub + 1; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    let spec: Word | undefined;
    if (t === '-v' || t === '--volume') spec = args[++i];
    else if (t.startsWith('--volume=')) spec = { ...w, text: t.slice(9), prefix: w.prefix.slice(9) };
    else if (/^-v[^-]/.test(t)) spec = { ...w, text: t.slice(2), prefix: w.prefix.slice(2) };
    if (spec) {
      const [src = '', , opts = ''] = spec.text.split(':');
      // A named volume is not a host path; a dynamic one ($PWD) may be anything.
      if (spec.dynamic ? spec.prefix === '' || /^[/.~]/.test(spec.prefix) : /^[/.~]/.test(src)) {
        mounts.push({ src: spec.dynamic ? spec : literalWord(src), readOnly: /(^|,)(ro|readonly)(,|$)/.test(opts) });
      }
      continue;
    }
    if (t === '--mount' || t.startsWith('--mount=')) {
      const m = t === '--mount' ? args[++i] : { ...w, text: t.slice(8) };
      if (!m) continue;
      const kv = Object.fromEntries(m.text.split(',').map((x) => [x.split('=')[0], x.split('=').slice(1).join('=') || 'true']));
      const src = kv.source ?? kv.src;
      if ((kv.type ?? 'volume') === 'bind' && src) mounts.push({ src: m.dynamic ? m : literalWord(src), readOnly: kv.readonly === 'true' || kv.ro === 'true' || kv.readonly === '1' });
    }
  }
  for (const m of mounts) {
    if (m.readOnly) continue;
    const f = checkTarget(m.src, env, 'mount writable into a container (anything the container runs can change or delete it)', true);
    if (f) return f;
  }
  return null;
}

/** Double-quoted string literals of awk or SQL text. */
function quoted(code: string): string[] {
  return [...code.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => (m[1] as string).replace(/\\(.)/g, '$1'));
}

const AWK_OPTS = { shortValue: 'fvFiEe', longValue: ['file', 'assign', 'field-separator', 'include', 'exec', 'source'] };

/**
 * Every program text awk runs: each `-e` / `--source` (gawk takes several and runs them all), else the first
 * operand unless `-f` / `--file` reads the program from a file. parseOpts keeps only the last value of a short
 * option, so each `-e` is read as the last one of a prefix of the arguments.
 */
function awkPrograms(args: Word[]): string[] {
  const p = parseOpts(args, AWK_OPTS);
  const texts = new Set(p.longs.filter((l) => l.name === 'source').map((l) => l.value ?? ''));
  for (let end = 1; end <= args.length; end++) {
    const e = parseOpts(args.slice(0, end), AWK_OPTS).shortValues.get('e');
    if (e !== undefined) texts.add(e);
  }
  if (texts.size > 0) return [...texts];
  const fromFile = p.shortValues.has('f') || hasLong(p, 'file');
  const first = p.positionals[0]?.text;
  return fromFile || first === undefined ? [] : [first];
}

function awk(args: Word[], cmd: { stdin?: string | null }, env: Env, nested: ScriptChecker): Finding | null {
  void cmd;
  for (const prog of awkPrograms(args)) {
    const f = awkProgram(prog, env, nested);
    if (f) return f;
  }
  return null;
}

function awkProgram(prog: string, env: Env, nested: ScriptChecker): Finding | null {
  const escapes = /\bsystem\s*\(|\|\s*&?\s*"|"\s*\|\s*&?\s*getline|\|&/.test(prog);
  if (escapes) {
    // `system(cmd)` with a computed argument runs whatever the input holds.
    if (/\bsystem\s*\(\s*[^"\s)]/.test(prog)) {
      if (env.role === 'lead') return { why: 'run shell commands awk builds at run time (system() of a computed string)', advice: ADVICE.dynamic };
      const f = dynamicRule('shell commands built by awk', env.fullText);
      if (f) return f;
    }
    for (const s of quoted(prog)) {
      const f = nested(s, env);
      if (f && !f.parseError) return { why: `${f.why} (from a shell command inside an awk program)`, advice: f.advice };
    }
  }
  for (const m of prog.matchAll(/>>?\s*"([^"]+)"/g)) {
    const f = checkTarget(literalWord(m[1] as string), env, 'write (awk print >)');
    if (f) return f;
  }
  return null;
}

function sqlite(args: Word[], stdin: string | null, env: Env, nested: ScriptChecker): Finding | null {
  const texts = [...args.map((w) => w.text), ...(stdin ? [stdin] : [])];
  for (const t of texts) {
    for (const m of t.matchAll(/(?:^|[\n;])\s*\.(shell|system|sh)\s+([^\n]*)/g)) {
      const f = nested(m[2] as string, env);
      if (f) return { why: `${f.why} (from sqlite3 .${m[1]})`, advice: f.advice };
    }
    for (const m of t.matchAll(/(?:^|[\n;])\s*\.(output|once|save|backup)\s+(?:--?\S+\s+)*([^\n]*)/g)) {
      const rest = (m[2] as string).trim();
      // `.output |cmd args` / `.output '|cmd args'`: the rest of the line is a shell command.
      const pipe = /^(['"]?)\|(.*?)\1$/.exec(rest);
      if (pipe) {
        const f = nested(pipe[2] as string, env);
        if (f) return { why: `${f.why} (from sqlite3 .${m[1]} |)`, advice: f.advice };
        continue;
      }
      const target = (rest.split(/\s+/)[0] as string).replace(/^['"]|['"]$/g, '');
      const f = checkTarget(literalWord(target), env, `write (sqlite3 .${m[1]})`);
      if (f) return f;
    }
  }
  return null;
}

/** `cmake -E <tool>`: the portable file tools, mapped onto the commands they are. */
function cmakeE(args: Word[], env: Env, check: ArgvChecker): Finding | null {
  const at = args.findIndex((w) => w.text === '-E');
  if (at < 0) return null;
  const tool = args[at + 1]?.text ?? '';
  const rest = args.slice(at + 2);
  const run = (name: string, extra: string[] = [], words = rest) => check([literalWord(name), ...extra.map(literalWord), ...words], env);
  switch (tool) {
    case 'rm':
      return run('rm');
    case 'remove':
      return run('rm', [], rest.filter((w) => w.text !== '-f'));
    case 'remove_directory':
      return run('rm', ['-r']);
    case 'rename':
      return run('mv');
    case 'copy':
    case 'copy_if_different':
    case 'copy_directory':
    case 'copy_directory_if_different':
      return run('cp', tool.startsWith('copy_directory') ? ['-r'] : []);
    case 'create_symlink':
    case 'create_hardlink':
      return run('ln');
    case 'touch':
    case 'touch_nocreate':
    case 'make_directory':
      return run('touch');
    case 'tar':
      return run('tar');
    case 'env': {
      let i = 0;
      // cmake sets every word with a `=` (whatever its name) and skips --unset=/--modify options and `--`.
      while (i < rest.length && /=|^--/.test((rest[i] as Word).text)) i++;
      return rest[i] ? check(rest.slice(i), env) : null;
    }
    case 'chdir':
      return rest.length > 1 ? check(rest.slice(1), env) : null;
    case 'time':
      return rest.length > 0 ? check(rest, env) : null;
    default:
      return null;
  }
}

/** Undefined when `name` is none of these programs. */
export function programRule(name: string, args: Word[], stdin: string | null, env: Env, nested: ScriptChecker, check: ArgvChecker): Finding | null | undefined {
  if (DELETE_BY_DEFAULT.has(name) || name in KEEP_BY_DEFAULT) return compressor(name, args, env);
  switch (name) {
    case 'tar':
      return tarRemoveFiles(args, env);
    case 'zip':
      return zipMove(args, env);
    case '7z':
    case '7za':
    case '7zr':
      return sevenZip(args, env);
    case 'docker':
    case 'podman':
    case 'nerdctl':
      return container(args, env);
    case 'awk':
    case 'gawk':
    case 'mawk':
    case 'nawk':
      return awk(args, { stdin }, env, nested);
    case 'sqlite3':
    case 'sqlite':
      return sqlite(args, stdin, env, nested);
    case 'cmake':
      return cmakeE(args, env, check);
    case 'ed':
    case 'red':
      return ed(name, args, stdin, env, nested);
    default:
      return VIM.has(name) ? vim(name, args, stdin, env, nested) : undefined;
  }
}
