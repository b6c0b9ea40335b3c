/**
 * checkCommand: parse the whole input, then run the role rules on every simple command in it (and on
 * scripts nested in `sh -c`, `eval`, heredocs, pipes into a shell, interpreter code). Pure: git
 * questions go through ctx.git. The caller runs nothing unless this allows it, and checks the whole command before any part of it runs.
 */
import path from 'node:path';
import { parseOpts, resolveCommand } from './argv.js';
import { dynamicRule } from './dynamic.js';
import { ADVICE, type Env, type Finding } from './finding.js';
import { checkTarget, fsRule, type ArgvChecker } from './fs-rules.js';
import { programRule } from './programs.js';
import { parseGit } from './git-argv.js';
import { embeddedCommands, recoveryRule } from './git-exec.js';
import { isHelp, leadGitRule, teammateGitRule } from './git-rules.js';
import { interpreterKind, interpreterRule } from './interp.js';
import { ShellParseError, parseScript, type SimpleCommand } from './parse.js';
import { zonesFor } from './paths.js';
import type { GuardContext, GuardVerdict, Role } from './types.js';
import { ansiC, fold, type Word } from './words.js';

const MAX_DEPTH = 8;
const MAX_CWDS = 16;
/** Tools whose output is made to be eval'd (environment setup); any other `eval "$(…)"` is opaque. */
const ENV_EMITTERS = /^\s*(ssh-agent|direnv|pyenv|rbenv|nodenv|goenv|brew|opam|conda|fnm|zoxide|starship|mise|rtx)(\s|$)/;
const MAX_LENGTH = 200_000;
/** Producers that turn opaque text into a script (`echo cm0g… | base64 -d | sh`). */
const DECODERS = /^(base64|base32|basenc|xxd|uudecode|openssl|rev|tr|gunzip|gzip|zcat|bzcat|bunzip2|xzcat|unxz|zstdcat|unzstd)$/;

interface Hit extends Finding {
  raw: string;
}

export function checkCommand(role: Role, command: string, ctx: GuardContext): GuardVerdict {
  if (role === 'solo') return { allowed: true };
  const label = role === 'lead' ? 'team lead' : 'teammate';
  if (command.length > MAX_LENGTH) {
    return { allowed: false, reason: `${label} may not run this command: it is too long to verify (${command.length} characters).`, advice: ADVICE.parse };
  }
  const env: Env = { role, ctx, zones: zonesFor(ctx), cwds: [startCwd(command, ctx.cwd)], unknownCwd: false, homeSet: /\bHOME=/.test(command), fullText: splitLikeIfs(fold(command)), depth: 0, fetchFirst: FETCHES.test(command) };
  const hit = checkScript(command, env);
  if (!hit) return { allowed: true };
  const shown = hit.raw.length > 160 ? `${hit.raw.slice(0, 157)}...` : hit.raw;
  return { allowed: false, reason: `${label} may not run \`${shown}\`: it would ${hit.why}.`, advice: hit.advice };
}

/**
 * `cd /abs && …` where every later command is joined by `&&` (no `;`, `||`, `&`, newline anywhere): if the cd
 * fails nothing runs, so the start cwd is never a cwd of the rest (`cd /tmp/a && rm -rf build` is scratch).
 */
function startCwd(command: string, cwd: string): string {
  const m = /^\s*cd\s+(\/[\w./-]*)\s*&&/.exec(command);
  if (!m || /[;\n]|\|\||(^|[^&])&($|[^&])/.test(command.slice(m[0].length))) return path.resolve(cwd);
  return path.resolve(m[1] as string);
}

/** A git command that may move refs (`FETCH_HEAD`, remote-tracking branches) before later commands run. */
const FETCHES = /\bgit\b[^;&|\n]*\b(fetch|pull|remote\s+update)\b/;
const IFS_ASSIGN = /\bIFS=(\$'(?:[^'\\]|\\.)*'|'[^']*'|"[^"]*"|[^\s;&|)]*)/g;

/**
 * With `IFS` set, run-time words split at its characters (`IFS=,; c=rm,-rf,src; $c`), so the dynamic-command
 * rule reads the text with those characters as blanks; a value it cannot read makes every punctuation mark one.
 */
function splitLikeIfs(text: string): string {
  let out = text;
  for (const m of text.matchAll(IFS_ASSIGN)) {
    const v = m[1] as string;
    const value = v.startsWith("$'") ? ansiC(v.slice(2, -1)) : /^['"]/.test(v) ? v.slice(1, -1) : v;
    const seps = value.includes('$') || value.includes('`') ? '' : value.replace(/\s/g, '');
    out = seps === '' && value.trim() !== '' ? out.replace(/[^\w\s$`{}'"-]/g, ' ') : out.replace(new RegExp(`[${seps.replace(/[\]\\^-]/g, '\\$&')}]`, 'g'), (c) => (seps ? ' ' : c));
  }
  return out;
}

function checkScript(text: string, env: Env): Hit | null {
  if (env.depth > MAX_DEPTH) return { raw: text, why: 'nest shells too deeply to verify', advice: ADVICE.parse };
  let script;
  try {
    script = parseScript(text);
  } catch (err) {
    if (!(err instanceof ShellParseError)) throw err;
    // Fail closed: what cannot be parsed cannot be checked.
    return { raw: text, why: `run input the shell parser rejects (${err.message})`, advice: ADVICE.parse, parseError: true };
  }
  trackCd(script.commands, env);
  for (const cmd of script.commands) {
    for (const r of cmd.redirects) {
      const f = r.kind === 'write' && r.target ? checkTarget(r.target, env, 'write (redirect)') : null;
      if (f) return { ...f, raw: cmd.raw };
    }
    const f = checkSimple(cmd, env);
    if (f) return { ...f, raw: f.raw ?? cmd.raw, why: cmd.args.some((w) => w.lookalike) ? `${f.why} (spelled with Unicode look-alike characters)` : f.why };
  }
  for (const r of script.redirects) {
    const f = r.kind === 'write' && r.target ? checkTarget(r.target, env, 'write (redirect)') : null;
    if (f) return { ...f, raw: `> ${r.target?.raw ?? ''}` };
  }
  return null;
}

/**
 * Every literal `cd` target becomes a possible cwd for the whole input (order is not modelled: conservative).
 * Distinct relative cds double the list; past MAX_CWDS the real cwd may be any of them, so relative paths
 * become unknown (as after `cd "$D"`) rather than the list being cut, which could drop the real one.
 */
function trackCd(commands: SimpleCommand[], env: Env, depth = 0): void {
  for (const cmd of commands) {
    const r = resolveCommand(cmd.args);
    // eval, trap handlers (a DEBUG trap runs before every command) and source run in this shell: a cd inside
    // them moves the commands after them.
    if (r.kind === 'script' && (r.via === 'eval' || r.via === 'trap')) trackEval(r.script, env, depth);
    if (r.kind === 'opaque' && (r.name === 'source' || r.name === '.')) env.unknownCwd = true;
    if (r.kind !== 'exec' || (r.name !== 'cd' && r.name !== 'pushd')) continue;
    const opts = parseOpts(r.args);
    const target = opts.positionals[0] ?? opts.afterDashDash[0]; // `cd -- ../bob` is `cd ../bob`
    if (env.homeSet && (!target || target.text.startsWith('~'))) env.unknownCwd = true;
    else if (!target) addCwds(env, [env.zones.home]);
    // With CDPATH set, `cd name` (not `./name`) may land in any directory CDPATH lists; with cdable_vars, where
    // the variable `name` points.
    else if (target.dynamic || target.text === '-' || (BARE_CD.test(env.fullText) && !/^[./]/.test(target.text))) env.unknownCwd = true;
    else {
      const t = target.text.startsWith('~') ? env.zones.home + target.text.slice(1) : target.text;
      addCwds(env, env.cwds.map((c) => path.resolve(c, t)));
    }
  }
}

const BARE_CD = /\b(CDPATH|cdable_vars)\b/;

function trackEval(script: Word, env: Env, depth: number): void {
  // Run-time text (`eval "$(ssh-agent -s)"`) is judged by the dynamic-command rule, not read here.
  if (script.dynamic) return;
  if (depth >= MAX_DEPTH) {
    env.unknownCwd = true;
    return;
  }
  try {
    trackCd(parseScript(script.text).commands, env, depth + 1);
  } catch (err) {
    if (!(err instanceof ShellParseError)) throw err; // refused when the eval itself is checked
  }
}

function addCwds(env: Env, more: string[]): void {
  const next = [...new Set([...env.cwds, ...more])];
  if (next.length > MAX_CWDS) env.unknownCwd = env.cwdOverflow = true;
  else env.cwds = next;
}

type SubHit = (Finding & { raw?: string }) | null;

function nested(script: string, env: Env): Hit | null {
  return checkScript(script, { ...env, depth: env.depth + 1 });
}

function checkSimple(cmd: SimpleCommand, env: Env): SubHit {
  const r = resolveCommand(cmd.args);
  switch (r.kind) {
    case 'none':
    case 'opaque':
      return null;
    case 'dynamic-name':
      if (r.word.cmdSubst) return { why: `run a command whose name comes from a command substitution (${r.word.raw})`, advice: ADVICE.dynamic };
      return dynamicRule(`a command named by ${r.word.raw}`, env.fullText);
    case 'script':
      if (r.script.cmdSubst && !r.script.substs.every((b) => ENV_EMITTERS.test(b))) return { why: `run a script given to ${r.via} that comes from a command substitution — it cannot be verified`, advice: ADVICE.dynamic };
      if (r.script.dynamic) return dynamicRule(`a script given to ${r.via}`, env.fullText);
      return nested(r.script.text, env);
    case 'stdin-shell': {
      const code = stdinText(cmd);
      if (code === null) return null;
      if (code === 'unknown') {
        const from = cmd.stdin?.kind === 'pipe' ? cmd.stdin.from : null;
        const producer = from ? resolveCommand(from.args) : null;
        if (producer?.kind === 'exec' && DECODERS.test(producer.name)) return { why: `run a script decoded by ${producer.name} and piped into ${r.via} — it cannot be verified`, advice: ADVICE.dynamic };
        return dynamicRule(`a script piped into ${r.via}`, env.fullText);
      }
      return nested(code, env);
    }
    case 'exec':
      return checkExec(r.name, r.args, cmd, env);
  }
}

/** A script fed on stdin: heredoc/here-string text, or the output of a literal echo/printf. */
function stdinText(cmd: SimpleCommand): string | 'unknown' | null {
  const s = cmd.stdin;
  if (!s) return null;
  if (s.kind === 'text') return s.word.dynamic ? 'unknown' : s.word.text;
  const from = s.from;
  if (!from) return 'unknown';
  const r = resolveCommand(from.args);
  if (r.kind === 'exec' && (r.name === 'echo' || r.name === 'printf') && !r.args.some((w) => w.dynamic)) {
    return r.args.filter((w) => !/^-[neE]+$/.test(w.text)).map((w) => w.text.replace(/\\n/g, '\n')).join(' ');
  }
  return 'unknown';
}

function checkExec(name: string, args: Word[], cmd: SimpleCommand | null, env: Env): SubHit {
  if (name === 'git') {
    const g = parseGit(args, env.cwds);
    if (g.kind === 'none') return null;
    if (g.kind === 'dynamic') return { why: 'run a git command whose subcommand or config is computed at run time, or whose config points git at hooks, files or places the guard cannot read', advice: ADVICE.dynamic };
    for (const c of g.config) {
      const f = c.dynamic ? dynamicRule('a command given in git -c', env.fullText) : nested(c.text, env);
      if (f) return { ...f, why: `${f.why} (through git -c)` };
    }
    if (g.kind === 'script') return g.script.dynamic ? dynamicRule('a git shell alias', env.fullText) : nested(g.script.text, env);
    if (isHelp(g)) return null;
    for (const e of embeddedCommands(g)) {
      if (e.kind === 'argv') {
        const inner = resolveCommand(e.argv);
        const f = inner.kind === 'exec' ? checkExec(inner.name, inner.args, null, env) : inner.kind === 'script' ? (inner.script.dynamic ? dynamicRule(`a script given to ${inner.via}`, env.fullText) : nested(inner.script.text, env)) : inner.kind === 'dynamic-name' ? dynamicRule(`a command named by ${inner.word.raw}`, env.fullText) : null;
        if (f) return { ...f, why: `${f.why} (through ${e.via})` };
      } else {
        const f = e.script.dynamic ? dynamicRule(`a command given to ${e.via}`, env.fullText) : nested(e.script.text, env);
        if (f) return { ...f, why: `${f.why} (through ${e.via})` };
      }
    }
    const lost = recoveryRule(g);
    if (lost) return env.role === 'lead' ? lost : { ...lost, advice: ADVICE.teammateOthers };
    return env.role === 'lead' ? leadGitRule(g, env) : teammateGitRule(g, env);
  }
  const kind = interpreterKind(name);
  if (kind) {
    const code = cmd ? stdinText(cmd) : null;
    const f = interpreterRule(kind, args, code, env, (s, e) => nested(s, e));
    if (f) return f;
    if (name !== 'perl') return null;
  }
  if (name === 'alias') {
    for (const w of args) {
      const eq = w.text.indexOf('=');
      if (eq > 0) {
        const f = w.dynamic ? dynamicRule('an alias', env.fullText) : nested(w.text.slice(eq + 1), env);
        if (f) return f;
      }
    }
    return null;
  }
  const argv: ArgvChecker = (sub, e) => {
    const inner = resolveCommand(sub);
    if (inner.kind === 'exec') return checkExec(inner.name, inner.args, null, e);
    if (inner.kind === 'script') return inner.script.dynamic ? dynamicRule(`a script given to ${inner.via}`, e.fullText) : nested(inner.script.text, e);
    if (inner.kind === 'dynamic-name') return dynamicRule(`a command named by ${inner.word.raw}`, e.fullText);
    return null;
  };
  const stdin = cmd ? stdinText(cmd) : null;
  const p = programRule(name, args, stdin === 'unknown' ? null : stdin, env, (s, e) => nested(s, e), argv);
  if (p) return p;
  return fsRule(name, args, env, argv) ?? null;
}

