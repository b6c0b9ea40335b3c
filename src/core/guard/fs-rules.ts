/** Rules for commands that delete or write files: rm, find, redirects, tee, sed -i, cp/mv/ln, dd, truncate… */
import { abbreviates, commandName, hasLong, hasLongAbbrev, hasShort, longValue, optionValues, parseOpts } from './argv.js';
import { ADVICE, type Env, type Finding } from './finding.js';
import { describeZone, inTmp, inWorkspace, isDevice, resolvePath, teammateZone, within } from './paths.js';
import { literalWord, unknownWord, type Word } from './words.js';

/** Re-enters the command checker for argv found inside another command (`find -exec`). */
export type ArgvChecker = (args: Word[], env: Env) => Finding | null;

const dynamicWrite = (verb: string, w: Word): Finding => ({
  why: `${verb} a path computed at run time (${w.raw})`,
  advice: ADVICE.dynamic,
});

const ABSOLUTE_CD = /(^|[\s;&|(`])(cd|pushd)(\s+-\S*)*\s+['"]?[/~]/;

/** One path an agent would write or delete. `recursive`: the whole tree below it goes too. */
export function checkTarget(w: Word, env: Env, verb: string, recursive = false): Finding | null {
  const relative = !w.text.startsWith('/') && !w.text.startsWith('~');
  if (env.homeSet && w.text.startsWith('~')) return dynamicWrite(verb, w);
  if (env.role === 'lead') {
    if (w.dynamic) return dynamicWrite(verb, w);
    const paths = resolvePath(w, env.cwds, env.zones.home) ?? [];
    if (env.unknownCwd && relative) return { why: `${verb} ${w.text} after a cd to a dynamic directory`, advice: ADVICE.dynamic };
    for (const p of paths) {
      if (isDevice(p)) continue;
      if (recursive && !inTmp(p, env.zones)) return { why: `${verb} ${p} recursively (outside a scratch directory)`, advice: ADVICE.lead };
      if (inWorkspace(p, env.zones) || env.zones.roots.some((r) => within(r, p))) return { why: `${verb} ${p} inside the workspace (the lead does not author files)`, advice: ADVICE.leadWrite };
    }
    return null;
  }
  if (w.dynamic || (env.unknownCwd && relative)) {
    // Teammates script a lot: only dynamic paths that point at shared areas are refused.
    const hint = `${w.raw} ${env.unknownCwd ? env.fullText : ''}`;
    // A cd to an absolute place (`cd /ws`) among many cds may be where a relative path lands.
    return /\.worktrees|\.\.|\.thclaws|\.git\b/.test(hint) || env.homeSet || (env.cwdOverflow && relative && ABSOLUTE_CD.test(env.fullText)) ? dynamicWrite(verb, w) : null;
  }
  for (const p of resolvePath(w, env.cwds, env.zones.home) ?? []) {
    const zone = teammateZone(p, env.zones, recursive);
    if (zone) return { why: `${verb}: ${describeZone(zone, p)}`, advice: ADVICE.teammateOthers };
  }
  return null;
}

/** Where a word may point; null for a relative path after a cd to a run-time directory (it may be anywhere). */
function placesOf(w: Word, env: Env): string[] | null {
  if (env.unknownCwd && !w.text.startsWith('/') && !w.text.startsWith('~')) return null;
  if (env.homeSet && w.text.startsWith('~')) return null;
  return resolvePath(w, env.cwds, env.zones.home) ?? [];
}

/** The lead's scratch exemption: every place the word may name is under a temporary directory. */
function inScratch(w: Word, env: Env): boolean {
  return placesOf(w, env)?.every((x) => inTmp(x, env.zones)) ?? false;
}

export function firstHit(words: readonly Word[], env: Env, verb: string, recursive = false): Finding | null {
  for (const w of words) {
    const f = checkTarget(w, env, verb, recursive);
    if (f) return f;
  }
  return null;
}

/** `always`: the command deletes trees whatever its flags (rimraf, del-cli). */
function rmRule(args: Word[], env: Env, always = false): Finding | null {
  const p = parseOpts(args);
  const recursive = always || hasShort(p, 'r', 'R') || hasLongAbbrev(p, 'recursive');
  const targets = [...p.positionals, ...p.afterDashDash];
  if (env.role === 'lead') {
    if (p.dynamic || targets.some((w) => w.dynamic)) return { why: 'remove files named at run time (the words could hold -r or any path)', advice: ADVICE.dynamic };
    if (!recursive) {
      // One named file may go; a pattern may match a whole directory's worth of sources.
      const scratch = (x: string) => inTmp(x, env.zones) || (env.zones.tmp.includes(x) && !inWorkspace(x, env.zones));
      const pattern = targets.find((w) => w.glob && (placesOf(w, env)?.some((x) => !scratch(x)) ?? true));
      return pattern ? { why: `remove every file matching ${pattern.text}`, advice: `${ADVICE.lead} Removing one named file with \`rm <file>\` is allowed.` } : null;
    }
    if (targets.length > 0 && targets.every((w) => inScratch(w, env))) return null;
    return { why: 'recursively remove files', advice: `${ADVICE.lead} Removing a single file with \`rm <file>\` is allowed; scratch trees under /tmp may be removed.` };
  }
  return firstHit(targets, env, 'remove', recursive);
}

const DELETERS = new Set(['rm', 'rmdir', 'unlink', 'shred', 'srm', 'rimraf']);
/** Operands of a simple `cmd [opts] files…` command, `--` included. */
function operands(args: Word[], spec: Parameters<typeof parseOpts>[1] = {}): Word[] {
  const p = parseOpts(args, spec);
  return [...p.positionals, ...p.afterDashDash];
}

/** `tar -x` / `unzip` write the archive's files into a directory. */
function extractRule(name: string, args: Word[], env: Env): Finding | null {
  if (name === 'tar') return tarRule(args, env);
  const p = parseOpts(args, { shortValue: 'dxP', longValue: [] });
  if (hasShort(p, 'l', 't', 'v', 'Z', 'p', 'c', 'z')) return null; // list, test, or to stdout
  const dir = p.shortValues.get('d') ?? '.';
  return checkTarget(literalWord(dir), env, 'extract an archive into');
}

const TAR_VALUES = 'fCbHKLNTVXg';

/** tar: the archive written (`-c`/`-r`/`-u`/`-A` with `-f`), snapshot and index files, the directory extracted into. */
function tarRule(args: Word[], env: Env): Finding | null {
  const first = args[0];
  // Old style: a first word without a dash is option letters, each value letter taking the next word (`tar xCf dir a.tar`).
  let words = args;
  if (first && /^[a-zA-Z]/.test(first.text)) {
    const expanded: Word[] = [];
    let next = 1;
    for (const c of first.text) {
      if (!/[a-zA-Z]/.test(c)) continue;
      expanded.push({ ...first, text: `-${c}` });
      if (TAR_VALUES.includes(c) && next < args.length) expanded.push(args[next++] as Word);
    }
    words = [...expanded, ...args.slice(next)];
  }
  const p = parseOpts(words, { shortValue: TAR_VALUES, longValue: ['file', 'directory', 'exclude', 'transform', 'files-from', 'listed-incremental', 'index-file'] });
  const written = [...optionValues(p, 'g', 'listed-incremental'), ...optionValues(p, '\0', 'index-file')];
  if (hasShort(p, 'c', 'r', 'u', 'A') || hasLongAbbrev(p, 'create', 'append', 'update', 'catenate', 'concatenate')) written.push(...optionValues(p, 'f', 'file'));
  for (const o of written.filter((x) => x !== '' && x !== '-')) {
    const f = checkTarget(literalWord(o), env, 'write (tar)');
    if (f) return f;
  }
  if (!hasShort(p, 'x') && !hasLongAbbrev(p, 'extract', 'get')) return null;
  if (hasShort(p, 'O') || hasLong(p, 'to-stdout')) return null;
  if (hasShort(p, 'P') || hasLongAbbrev(p, 'absolute-names')) return { why: 'extract an archive with absolute member names (-P): its members may land anywhere', advice: ADVICE.dynamic };
  // Each relative -C is taken from the one before (`-C ../bob -C src` extracts into ../bob/src): every step counts.
  const dirs = optionValues(p, 'C', 'directory');
  let dir = '.';
  const steps: string[] = [];
  for (const d of dirs) steps.push((dir = /^[/~]/.test(d) ? d : `${dir}/${d}`));
  for (const d of [...dirs, ...(steps.length ? steps : ['.'])]) {
    const f = checkTarget(literalWord(d), env, 'extract an archive into');
    if (f) return f;
  }
  return null;
}

/** Output files of commands that are not writers by trade: `sort -o`, `curl -o`/`-c`/`-D`, `wget -O`/`-o`. */
function outputOption(name: string, args: Word[], env: Env): Finding | null {
  const spec = name === 'sort' ? { shortValue: 'otkST', longValue: ['output', 'key', 'field-separator', 'buffer-size', 'temporary-directory'] }
    : name === 'curl' ? { shortValue: 'oXHdeuAbcEFrTwxyYzKD', longValue: ['output', 'request', 'header', 'data', 'user', 'user-agent', 'cookie', 'upload-file', 'write-out', 'proxy', 'config', 'output-dir', 'cookie-jar', 'dump-header', 'trace', 'trace-ascii', 'stderr', 'libcurl', 'etag-save', 'hsts', 'alt-svc'] }
    : { shortValue: 'OPaoeiUtTw', longValue: ['config', 'output-document', 'directory-prefix', 'output-file', 'append-output', 'user-agent', 'tries', 'timeout', 'wait', 'execute', 'save-cookies', 'warc-file', 'rejected-log'] };
  const p = parseOpts(args, spec);
  // Every file option counts, each time it is given (curl writes one file per `-o`: `-o a URL1 -o b URL2`);
  // wget's `-o`/`-a` log and curl's cookie jar, header dump and traces are files written too.
  const [shorts, longs] = name === 'wget' ? ['OPoa', ['output-document', 'directory-prefix', 'output-file', 'append-output', 'save-cookies', 'warc-file', 'rejected-log']]
    : name === 'curl' ? ['ocD', ['output', 'output-dir', 'cookie-jar', 'dump-header', 'trace', 'trace-ascii', 'stderr', 'libcurl', 'etag-save', 'hsts', 'alt-svc']]
    : ['o', ['output']];
  // A long option may be abbreviated (`--out`), unless the abbreviation is an option of its own (curl's `--cookie` reads).
  const named = (l: string) => longs.some((n) => l === n || (abbreviates(l, n) && !spec.longValue.includes(l)));
  const outs = [...p.shortValueList.filter((v) => shorts.includes(v.letter)).map((v) => v.value), ...p.longs.filter((l) => named(l.name)).map((l) => l.value)];
  if (name === 'wget') outs.push(...wgetrcOutputs(p));
  // curl's `-w '%output{file}'` (or `%output{>>file}`) sends the rest of the write-out to that file.
  const formats = name === 'curl' ? [...optionValues(p, 'w'), longValue(p, 'write-out') ?? ''] : [];
  for (const f of formats) for (const m of f.matchAll(/%output\{(?:>>)?([^}]*)\}/g)) outs.push(m[1] ?? '');
  // With no file named, `curl -O` and wget write the URL's file into the directory they run in.
  const dirGiven = p.shortValues.has('P') || p.longs.some((l) => named(l.name) && 'directory-prefix'.startsWith(l.name)) || longValue(p, 'output-dir') != null;
  const docGiven = p.shortValues.has('O') || longValue(p, 'output-document') !== undefined || wgetrcOutputs(p, 'outputdocument').length > 0;
  const intoCwd = name === 'curl' ? hasShort(p, 'O') || hasLongAbbrev(p, 'remote-name', 'remote-name-all') : name === 'wget' && !docGiven && !hasLongAbbrev(p, 'spider');
  if (intoCwd && !dirGiven && !wgetrcOutputs(p, 'dirprefix').length) outs.push('.');
  for (const o of outs) {
    if (o == null || o === '-' || o === '') continue;
    const f = checkTarget(literalWord(o), env, `write (${name})`);
    if (f) return f;
  }
  // A config file (`curl -K`, `wget --config`) or a write-out read from a file (`curl -w @f`) may name any file to
  // write (`output = src/a.ts`): what it names is known only when it runs.
  const fromFile = name === 'curl' ? p.shortValues.has('K') || longValue(p, 'config') !== undefined || formats.some((f) => f.startsWith('@'))
    : name === 'wget' && longValue(p, 'config') !== undefined;
  if (fromFile) return checkTarget(unknownWord(`<${name} config file>`), env, `write (${name})`);
  return null;
}

/** Files named by wget's `-e`/`--execute` wgetrc commands (`-e output_document=src/a`); names ignore case, `_` and `-`. */
function wgetrcOutputs(p: ReturnType<typeof parseOpts>, only?: string): string[] {
  const commands = optionValues(p, 'e', 'execute');
  const writers = only ? [only] : ['outputdocument', 'logfile', 'dirprefix', 'savecookies', 'warcfile', 'rejectedlog'];
  return commands.flatMap((c) => {
    const eq = c.indexOf('=');
    const key = c.slice(0, Math.max(eq, 0)).toLowerCase().replace(/[\s_-]/g, '');
    return eq > 0 && writers.includes(key) ? [c.slice(eq + 1).trim()] : [];
  });
}

/** gawk's in-place mode: `awk -i inplace '…' file`. */
function awkInPlace(args: Word[], env: Env): Finding | null {
  const p = parseOpts(args, { shortValue: 'fvFiEe', longValue: ['file', 'assign', 'field-separator', 'include', 'exec', 'source'] });
  // `-i inplace`, `-i inplace.awk` or its path: the same library.
  const isInplace = (v: string | null | undefined) => v != null && /(^|\/)inplace(\.awk)?$/.test(v);
  // The program comes from an option (`-f`/`-E`/`--exec` file, `-e`/`--source` text): every operand is a file.
  const scripted = p.shortValues.has('f') || p.shortValues.has('e') || p.shortValues.has('E') || hasLong(p, 'file', 'source', 'exec');
  // Or the program text includes it: `gawk '@include "inplace"; {…}' file`.
  const texts = [...optionValues(p, 'e'), longValue(p, 'source') ?? '', scripted ? '' : (p.positionals[0]?.text ?? '')];
  const included = texts.some((t) => /@include\s*"([^"]*\/)?inplace(\.awk)?"/.test(t));
  if (!included && !isInplace(p.shortValues.get('i')) && !isInplace(longValue(p, 'include'))) return null;
  const files = [...(scripted ? p.positionals : p.positionals.slice(1)), ...p.afterDashDash].filter((w) => !/^\w+=/.test(w.text));
  return firstHit(files, env, 'rewrite in place (awk -i inplace)');
}

function findRule(args: Word[], env: Env, check: ArgvChecker): Finding | null {
  let i = 0;
  const starts: Word[] = [];
  // Leading options come before the starting points: `find -L /ws/src -delete` starts at /ws/src.
  for (; i < args.length && /^-([HLP]|O\d*|D)$/.test((args[i] as Word).text); i++) if ((args[i] as Word).text === '-D') i++;
  while (i < args.length && !/^[-(!]/.test((args[i] as Word).text)) starts.push(args[i++] as Word);
  if (starts.length === 0) starts.push(literalWord('.'));
  // `-files0-from FILE`: the starting points are read from FILE.
  if (args.some((w) => /^-files0-from(=|$)/.test(w.text))) starts.push(unknownWord('<find -files0-from>'));
  const deletesAll = (how: string): Finding | null => {
    if (env.role === 'teammate') return firstHit(starts, env, how, true);
    const scratch = starts.every((w) => !w.dynamic && inScratch(w, env));
    return scratch ? null : { why: `delete every matched file (${how})`, advice: ADVICE.lead };
  };
  for (; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (t === '-delete') {
      const f = deletesAll('find -delete');
      if (f) return f;
    }
    if (t === '-exec' || t === '-execdir' || t === '-ok' || t === '-okdir') {
      const sub: Word[] = [];
      const named: Word[] = []; // the words that are not the matched file
      for (i++; i < args.length && !/^[;+]$/.test((args[i] as Word).text); i++) {
        const w = args[i] as Word;
        sub.push(w.text.includes('{}') ? unknownWord(w.raw) : w);
        if (!w.text.includes('{}')) named.push(w);
      }
      if (sub[0] && DELETERS.has(commandName(sub[0]))) {
        const f = deletesAll(`find ${t} ${commandName(sub[0])}`);
        if (f) return f;
        // Paths the deleter names itself go too, whatever find matched (`find /tmp/x -exec rm -rf src \;`).
        const rest = named.slice(1);
        const g = rest.some((w) => !w.text.startsWith('-')) ? check([sub[0], ...rest], env) : null;
        if (g) return g;
      } else if (sub.length > 0) {
        const f = check(sub, env);
        if (f) return f;
      }
    }
  }
  return null;
}

function copyLike(name: string, args: Word[], env: Env): Finding | null {
  const spec = name === 'install' ? { shortValue: 'tSmog', longValue: ['target-directory', 'suffix', 'mode', 'owner', 'group'] } : { shortValue: 'tS', longValue: ['target-directory', 'suffix'] };
  const p = parseOpts(args, spec);
  const pos = [...p.positionals, ...p.afterDashDash];
  const tdir = p.shortValues.get('t') ?? longValue(p, 'target-directory');
  const dest = tdir != null ? literalWord(tdir) : pos[pos.length - 1];
  const sources = tdir != null ? pos : pos.slice(0, -1);
  if (p.dynamic && env.role === 'lead') return { why: `run ${name} with options computed at run time`, advice: ADVICE.dynamic };
  if (dest) {
    const f = checkTarget(dest, env, name === 'ln' ? 'link into' : `${name} onto`);
    if (f) return f;
  }
  const movesSources = name === 'mv' || (name === 'rsync' && hasLong(p, 'remove-source-files'));
  return movesSources ? firstHit(sources, env, `${name} away`) : null;
}

/** sed/perl `-i`: every file operand is rewritten in place. */
function inPlace(name: string, args: Word[], env: Env): Finding | null {
  const isI = (t: string) => /^-[^-]*i/.test(t) || t.startsWith('--in-place');
  if (!args.some((w) => isI(w.text))) return null;
  // Drop the backup suffix glued to -i (`-i.bak`) so it is not read as more flags.
  const cleaned = args.map((w) => (/^-[^-]*i/.test(w.text) ? { ...w, text: w.text.slice(0, w.text.indexOf('i') + 1) } : w));
  const p = parseOpts(cleaned, name === 'sed' ? { shortValue: 'efl', longValue: ['expression', 'file', 'line-length'] } : { shortValue: 'eEIM' });
  const scripted = p.shortValues.has('e') || p.shortValues.has('f') || p.shortValues.has('E') || hasLong(p, 'expression', 'file');
  const files = scripted ? p.positionals : p.positionals.slice(1);
  return firstHit([...files, ...p.afterDashDash], env, `rewrite in place (${name} -i)`);
}

/** Returns undefined when `name` is not a file-writing command this module knows. */
export function fsRule(name: string, args: Word[], env: Env, check: ArgvChecker): Finding | null | undefined {
  switch (name) {
    case 'rm':
      return rmRule(args, env);
    case 'rimraf':
    case 'del':
    case 'del-cli':
    case 'trash':
    case 'trash-put':
      return rmRule(args, env, true);
    case 'find':
      return findRule(args, env, check);
    case 'tee':
      return firstHit(operands(args, { longValue: ['output-error'] }), env, 'write (tee)');
    case 'sed':
    case 'perl':
      return inPlace(name, args, env);
    case 'cp':
    case 'mv':
    case 'ln':
    case 'install':
    case 'rsync':
      return copyLike(name, args, env);
    case 'dd': {
      // Every `of=FILE` (the last one wins), and every run-time operand whose static start may still become `of=` (`$X`, `o$X`).
      const outs = args.filter((w) => w.text.startsWith('of=') || (w.dynamic && 'of='.startsWith(w.prefix)));
      return firstHit(outs.map((w) => ({ ...w, text: w.text.slice(3) })), env, 'write (dd)');
    }
    case 'truncate':
    case 'shred':
      return firstHit(operands(args, { shortValue: 'srn', longValue: ['size', 'reference', 'iterations', 'random-source'] }), env, name);
    case 'unlink':
      return firstHit(operands(args), env, 'unlink');
    case 'rmdir':
    case 'touch':
    case 'mkdir':
      return env.role === 'teammate' ? firstHit(operands(args, { shortValue: 'mdrt' }), env, name) : null;
    case 'chmod':
    case 'chown':
    case 'chgrp': {
      // The first operand is the mode or owner. Lead: recursive changes in the workspace; teammate: its zones.
      const p = parseOpts(args, { longValue: ['reference', 'from'] });
      const files = [...p.positionals.slice(hasLong(p, 'reference') ? 0 : 1), ...p.afterDashDash];
      const recursive = hasShort(p, 'R') || hasLongAbbrev(p, 'recursive');
      if (env.role === 'lead' && !recursive) return null;
      return firstHit(files, env, `${name}${recursive ? ' -R' : ''}`);
    }
    case 'rename': {
      // perl `rename EXPR files…` or util-linux `rename FROM TO files…`: the leading strings are not paths;
      // with perl's `-e EXPR` every operand is a file.
      const p = parseOpts(args, { shortValue: 'e' });
      if (p.shortValues.has('e')) return firstHit([...p.positionals, ...p.afterDashDash], env, 'rename');
      const ops = [...p.positionals, ...p.afterDashDash].slice(1);
      const files = ops.length >= 2 && !ops[0]?.text.includes('/') ? ops.slice(1) : ops;
      return firstHit(files, env, 'rename');
    }
    case 'tar':
    case 'unzip':
      return extractRule(name, args, env);
    case 'sort':
    case 'curl':
    case 'wget':
      return outputOption(name, args, env);
    case 'awk':
    case 'gawk':
      return awkInPlace(args, env);
    case 'patch': {
      const p = parseOpts(args, { shortValue: 'pdioDFrBYzVgs', longValue: ['directory', 'input', 'output'] });
      if (env.role === 'lead' && !hasLong(p, 'dry-run')) return { why: 'patch source files (authoring)', advice: ADVICE.leadWrite };
      return null;
    }
    default:
      return undefined;
  }
}
