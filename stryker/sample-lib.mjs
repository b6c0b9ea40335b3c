/**
 * The pure parts of `npm run mutate:sample` (scripts/mutate-sample.mjs): arguments, the seeded draw, the
 * changed lines of a diff, where a mutant sits in the text, what to build and which tests judge a file.
 * Lines are 1-based here; Stryker's mutant locations are 0-based lines and columns.
 */
import { AREAS } from './areas.mjs';

export const USAGE = `usage: npm run mutate:sample -- (--files a.ts,src/dir/,… | --since <ref> | --mutant 'file:line:from=>to' | --id file#id)
  [--n 10] [--seed S] [--timeout 600] [--dry-run] [--no-e2e]`;

/** Command-line arguments → options; throws a one-line error on bad input. */
export function parseArgs(argv) {
  const o = { files: [], since: null, mutants: [], ids: [], n: 10, seed: null, timeoutS: 600, dryRun: false, e2e: true, help: false };
  const value = (i, flag) => {
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) throw new Error(`${flag} needs a value (--help: usage)`);
    return v;
  };
  const count = (v, flag) => {
    if (!/^\d+$/.test(v) || Number(v) < 1) throw new Error(`${flag} takes a positive whole number, not ${JSON.stringify(v)}`);
    return Number(v);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--files') o.files.push(...value(i++, a).split(',').map((f) => f.trim()).filter(Boolean));
    else if (a === '--since') o.since = value(i++, a);
    else if (a === '--mutant') o.mutants.push(parseMutant(value(i++, a)));
    else if (a === '--id') o.ids.push(parseId(value(i++, a)));
    else if (a === '--n') o.n = count(value(i++, a), a);
    else if (a === '--seed') o.seed = count(value(i++, a), a);
    else if (a === '--timeout') o.timeoutS = count(value(i++, a), a);
    else if (a === '--dry-run') o.dryRun = true;
    else if (a === '--no-e2e') o.e2e = false;
    else if (a === '--help' || a === '-h') return { ...o, help: true };
    else throw new Error(`unknown argument ${JSON.stringify(a)} (--help: usage)`);
  }
  const sources = [o.files.length > 0, o.since !== null, o.mutants.length + o.ids.length > 0].filter(Boolean).length;
  if (sources !== 1) throw new Error('give one of --files, --since, --mutant/--id (--help: usage)');
  return o;
}

/** `file:line:from=>to`: replace the first `from` on that line with `to` (split at the first `=>`). */
export function parseMutant(spec) {
  const m = /^([^:]+):(\d+):(.*)$/s.exec(spec);
  const arrow = m ? m[3].indexOf('=>') : -1;
  if (!m || arrow <= 0 || Number(m[2]) < 1) throw new Error(`--mutant takes 'file:line:from=>to', not ${JSON.stringify(spec)}`);
  return { file: m[1], line: Number(m[2]), from: m[3].slice(0, arrow), to: m[3].slice(arrow + 2) };
}

/** `file#id`: one of the instrumenter's mutants of that file, by its id (stable for a given file text). */
export function parseId(spec) {
  const m = /^(.+)#(\d+)$/.exec(spec);
  if (!m) throw new Error(`--id takes 'file#id', not ${JSON.stringify(spec)}`);
  return { file: m[1], id: m[2] };
}

/** mulberry32: a small seeded generator, the same sequence on every machine. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** n items drawn without replacement (a partial Fisher–Yates shuffle); the input order matters, so sort it first. */
export function draw(items, n, seed) {
  const pool = [...items];
  const next = rng(seed);
  const out = [];
  while (out.length < n && pool.length > 0) {
    const j = Math.floor(next() * pool.length);
    out.push(pool[j]);
    pool[j] = pool[pool.length - 1];
    pool.pop();
  }
  return out;
}

/** `git diff -U0` text → file → the set of its lines (1-based, new side) that the change added or altered. */
export function changedLines(diff) {
  const out = new Map();
  let file = null;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) {
      file = line === '+++ /dev/null' ? null : unquote(line.slice(4).replace(/\t$/, '')).replace(/^b\//, '');
      if (file && !out.has(file)) out.set(file, new Set());
      continue;
    }
    const h = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (!h || !file) continue;
    const start = Number(h[1]);
    const count = h[2] === undefined ? 1 : Number(h[2]);
    for (let l = start; l < start + count; l++) out.get(file).add(l);
  }
  return out;
}

/** A path as git's diff header writes it: a name with a space ends in a tab (dropped above), an odd one is C-quoted. */
function unquote(name) {
  if (!name.startsWith('"')) return name;
  const esc = { n: '\n', t: '\t', '"': '"', '\\': '\\' };
  return name.slice(1, -1).replace(/\\(.)/g, (_, c) => esc[c] ?? c);
}

/** A source file the sampler mutates: TypeScript under src/, not a test. */
export function isMutable(file) {
  return /^src\/.*\.tsx?$/.test(file) && !/\.(test|spec)\.tsx?$/.test(file) && !file.endsWith('.d.ts');
}

/** A mutant from the change: it begins on a line the change touched. */
export function onChangedLine(mutant, lines) {
  return lines?.has(mutant.location.start.line + 1) ?? false;
}

/** Offset of a 0-based line and column in text. */
function offsetOf(text, { line, column }) {
  let at = 0;
  for (let l = 0; l < line; l++) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) throw new Error(`line ${line + 1} is past the end of the file`);
    at = nl + 1;
  }
  return at + column;
}

/** An instrumenter mutant as text edits: the original snippet, and the file with the replacement. */
export function applyMutant(text, mutant) {
  const start = offsetOf(text, mutant.location.start);
  const end = offsetOf(text, mutant.location.end);
  return { original: text.slice(start, end), text: text.slice(0, start) + mutant.replacement + text.slice(end) };
}

/** An explicit `--mutant` as text edits; throws when the line does not hold `from`. */
export function applyExplicit(text, { file, line, from, to }) {
  const lines = text.split('\n');
  const at = lines[line - 1]?.indexOf(from) ?? -1;
  if (at < 0) throw new Error(`${file}:${line} does not contain ${JSON.stringify(from)}`);
  lines[line - 1] = lines[line - 1].slice(0, at) + to + lines[line - 1].slice(at + from.length);
  return { original: from, text: lines.join('\n') };
}

/**
 * The shortest command that applies this mutant again: `--mutant` when it sits on one line and is that line's
 * first occurrence of its text, else `--id` (the instrumenter's id, stable while the file is unchanged).
 */
export function reproduce(text, mutant, original) {
  const line = mutant.location.start.line;
  const oneLine = line === mutant.location.end.line && !original.includes('\n') && !mutant.replacement.includes('\n');
  const first = oneLine && text.split('\n')[line].indexOf(original) === mutant.location.start.column;
  const arg = first && original.length > 0 && !original.includes('=>')
    ? `--mutant ${shellQuote(`${mutant.fileName}:${line + 1}:${original}=>${mutant.replacement}`)}`
    : `--id ${shellQuote(`${mutant.fileName}#${mutant.id}`)}`;
  return `npm run mutate:sample -- ${arg}`;
}

/** One POSIX shell word. */
export function shellQuote(s) {
  return `'${s.replace(/'/g, "'\\''")}'`;
}

/** The area row of a file: the longest matching prefix. */
export function areaOf(file, areas = AREAS) {
  return areas.filter((a) => file.startsWith(a.prefix)).sort((a, b) => b.prefix.length - a.prefix.length)[0] ?? { prefix: '', tests: [] };
}

/**
 * What must be rebuilt for the tests to see the mutant: processes run dist/cli.mjs (everything under src/
 * but the renderer, the preload and Electron's main), Chromium runs the built page, Electron its own build.
 */
export function buildsFor(file, withE2e) {
  if (file.startsWith('src/renderer/')) return withE2e ? ['build:renderer'] : [];
  if (file.startsWith('src/preload/') || file.startsWith('src/main/electron/')) return withE2e ? ['build:app'] : [];
  // src/contract is bundled into both the CLI and the page.
  if (file.startsWith('src/contract/')) return withE2e ? ['build:cli', 'build:renderer'] : ['build:cli'];
  return ['build:cli'];
}
