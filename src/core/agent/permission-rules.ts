/**
 * Scoped "always" rules, as Claude Code writes them: `Bash(npm test:*)` (a command prefix), `Bash(make)`
 * (one exact command), `Write(src/)` / `Edit(src/)` (a path prefix under the project root), or a bare tool
 * name (every call). A command with shell operators never matches a prefix rule: `npm test; rm -rf x`
 * is not `npm test`.
 */
import { filePathOf } from './tool-input.js';
import path from 'node:path';
import { canonicalPath, isInside } from '../fs-paths.js';
import { commandName, resolveCommand } from '../guard/argv.js';
import { parseScript } from '../guard/parse.js';
import type { Word } from '../guard/words.js';
import type { PermissionRequest } from './types.js';

export interface RuleScope {
  cwd: string;
  projectRoot: string;
  /** A teammate's worktree: ask and deny path rules hold relative to it as well as to the project root. */
  worktree?: string;
}

const SHELL_OPERATORS = /[;&|`<>\n]|\$\(/;

/** A plain subcommand word (`test`, `run:build`), not an option, a path or a quoted string. */
const SUBCOMMAND = /^[A-Za-z][\w:.-]*$/;

/** Programs that run whatever their arguments say (interpreters, shells, wrappers): no prefix rule for them. */
const RUNS_ITS_ARGUMENTS = new Set([
  'sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'env', 'sudo', 'doas', 'su', 'xargs', 'eval', 'exec', 'command', 'builtin', 'nohup',
  'time', 'timeout', 'nice', 'ionice', 'setsid', 'stdbuf', 'watch', 'strace', 'python', 'python3', 'node', 'perl', 'ruby', 'php',
  'deno', 'bun', 'npx', 'bunx', 'pnpx', 'tsx', 'ts-node', 'lua', 'awk', 'gawk', 'busybox', 'ssh', 'docker', 'podman', 'find',
]);

/**
 * Programs whose next word is an operand (a file, a process, a URL), not a subcommand: "always" for
 * `rm build.log` must not become `rm build.log:*`, which would allow `rm build.log -rf ~`.
 */
const OPERAND_FIRST = new Set([
  'rm', 'rmdir', 'mv', 'cp', 'ln', 'chmod', 'chown', 'chgrp', 'dd', 'shred', 'truncate', 'tee', 'install', 'rsync', 'scp',
  'kill', 'pkill', 'killall', 'curl', 'wget', 'sed', 'tar', 'unzip', 'zip', 'patch', 'crontab',
]);

/** Package runners spelled as a subcommand (`npm exec x`): like npx, they run whatever follows. */
const RUNNER_SUBCOMMAND = /^(?:npm (?:exec|x)|pnpm (?:dlx|exec)|yarn (?:dlx|exec)|bun x)$/;

function commandOf(req: PermissionRequest): string | undefined {
  const c = (req.input as { command?: unknown } | null)?.command;
  return typeof c === 'string' ? c.trim() : undefined;
}

/** Where a path really lands (symlinks followed, dangling ones to their target); undefined if it cannot be resolved (a loop). */
function landing(abs: string): string | undefined {
  try {
    return canonicalPath(abs);
  } catch {
    return undefined;
  }
}

function rawPathOf(req: PermissionRequest): string | undefined {
  return filePathOf(req.input);
}

/** Path rules decide on the real target: a link under `src/` pointing at `.git/hooks/` is not under `src/`. */
function pathOf(req: PermissionRequest, scope: RuleScope): string | undefined {
  const p = rawPathOf(req);
  return p === undefined ? undefined : landing(path.resolve(scope.cwd, p));
}

/** Rules are written relative to the root's real path; the rule's own words are not followed through links. */
function realRoot(scope: RuleScope): string {
  return landing(scope.projectRoot) ?? path.resolve(scope.projectRoot);
}

/** The rule an "always" answer to this request stores. */
export function ruleFor(req: PermissionRequest, scope: RuleScope): string {
  const command = commandOf(req);
  if (req.tool === 'Bash' && command !== undefined) {
    if (SHELL_OPERATORS.test(command) || req.input === null) return `Bash(${command})`;
    const words = command.split(/\s+/);
    // `python3:*` or `git:*` (from `git -c x=y log`) would allow every program: those get the exact command.
    if (RUNS_ITS_ARGUMENTS.has(words[0]!) || (words[1] !== undefined && !SUBCOMMAND.test(words[1]))) return `Bash(${command})`;
    if (OPERAND_FIRST.has(words[0]!) || RUNNER_SUBCOMMAND.test(`${words[0]} ${words[1]}`)) return `Bash(${command})`;
    return `Bash(${words[0]}${words[1] !== undefined ? ` ${words[1]}` : ''}:*)`;
  }
  const abs = pathOf(req, scope);
  const root = realRoot(scope);
  // A path that cannot be resolved gets a rule for itself alone, never the whole tool.
  if (!abs && rawPathOf(req) !== undefined) return `${req.tool}(${rawPathOf(req)})`;
  if (abs && isInside(abs, root)) {
    const dir = path.relative(root, path.dirname(abs));
    return `${req.tool}(${dir ? `${dir.split(path.sep).join('/')}/` : './'})`;
  }
  // Outside the project: that file alone (a bare tool name would allow every write anywhere).
  if (abs) return `${req.tool}(${abs})`;
  return req.tool;
}

/** A rule: a tool name (MCP tools spell theirs `mcp__server__tool`), optionally with `(its scope)`. */
const RULE_RE = /^([A-Za-z][\w-]*(?:__\*)?)(?:\((.*)\))?$/s;

/** `mcp__server` and `mcp__server__*` name every tool of that server, as in Claude Code. */
export function toolNameMatches(ruleName: string, tool: string): boolean {
  if (ruleName === tool) return true;
  if (!ruleName.startsWith('mcp__')) return false;
  const server = ruleName.endsWith('__*') ? ruleName.slice(0, -3) : ruleName;
  return server.split('__').length === 2 && tool.startsWith(`${server}__`);
}

/** Whether a stored rule allows this request. */
export function ruleMatches(rule: string, req: PermissionRequest, scope: RuleScope): boolean {
  const m = RULE_RE.exec(rule.trim());
  if (!m || !toolNameMatches(m[1]!, req.tool)) return false;
  const arg = m[2];
  if (arg === undefined || arg === '*') return true;
  if (req.tool === 'Bash') {
    const command = commandOf(req);
    if (command === undefined) return false;
    if (!arg.endsWith(':*')) return command === arg.trim();
    const prefix = arg.slice(0, -2).trim();
    return !SHELL_OPERATORS.test(command) && (command === prefix || command.startsWith(`${prefix} `));
  }
  const abs = pathOf(req, scope);
  if (!abs) return false;
  const dir = path.resolve(realRoot(scope), arg.replace(/\/\*\*$/, '/'));
  return arg.endsWith('/') || arg.endsWith('/**') ? isInside(abs, dir) : abs === dir;
}

/** Where a rule puts a call: refused outright, asked whatever allows it, or allowed without asking. */
export interface RuleLists {
  allow?: readonly string[];
  ask?: readonly string[];
  deny?: readonly string[];
}

export type RuleVerdict = { kind: 'deny' | 'ask' | 'allow'; rule: string };

/** Leading `NAME=value` words are environment for the command, not the command. */
const ASSIGNMENT = /^[A-Za-z_]\w*=\S*$/;

/** The simple commands of a line, each as its words: `a && FOO=1 git push; b $(c)` → [a], [git, push], [b], [c]. */
function simpleCommands(command: string): string[][] {
  return command
    .split(/[;&|\n()`]|\$\(/)
    .map((seg) => seg.trim().split(/\s+/).filter(Boolean))
    .map((words) => {
      let i = 0;
      while (i < words.length - 1 && ASSIGNMENT.test(words[i]!)) i++;
      return words.slice(i);
    })
    .filter((w) => w.length > 0);
}

/**
 * Whether an ask or deny rule covers this call. Unlike allow rules these err towards matching: a Bash rule
 * matches when any simple command of the line starts with its words (`Bash(git push:*)` covers
 * `npm test && git   push origin`, `sh -c 'git push'`), so chaining or wrapping a command does not slip past the question.
 */
export function restrictiveRuleMatches(rule: string, req: PermissionRequest, scope: RuleScope): boolean {
  const m = RULE_RE.exec(rule.trim());
  if (!m || !toolNameMatches(m[1]!, req.tool)) return false;
  const arg = m[2];
  if (arg === undefined || arg === '*') return true;
  if (req.tool !== 'Bash') return [scope.projectRoot, ...(scope.worktree ? [scope.worktree] : [])].some((projectRoot) => ruleMatches(rule, req, { ...scope, projectRoot }));
  const command = commandOf(req);
  if (command === undefined) return true;
  const prefix = arg.endsWith(':*');
  const want = (prefix ? arg.slice(0, -2) : arg).trim().split(/\s+/).filter(Boolean);
  return bashRuleCovers(want, prefix, command, 0);
}

/** Whether the words start with (or, without `:*`, are) the rule's words; a word known only at run time could be any. */
function wordsFit(want: readonly string[], prefix: boolean, words: readonly Word[]): boolean {
  if (prefix ? words.length < want.length : words.length !== want.length) return false;
  return want.every((w, i) => {
    const word = words[i]!;
    if (word.dynamic || word.glob) return true;
    return i === 0 ? word.text === w || commandName(word) === w.toLowerCase() : word.text === w;
  });
}

/**
 * The line parsed as the shell will run it: every simple command (substitutions and subshells too), with
 * quotes, escapes and line continuations removed, wrappers (`env`, `sudo`, `timeout 5`, `xargs`…) peeled,
 * and the scripts of `sh -c`, `eval` and a here-doc fed to a shell checked in turn. A command whose name is
 * known only at run time (`$g push`, a shell reading a pipe) could be the rule's, so it counts.
 */
function bashRuleCovers(want: readonly string[], prefix: boolean, command: string, depth: number): boolean {
  let script;
  try {
    script = parseScript(command);
  } catch {
    // Not shell syntax the parser knows: fall back to the words between operators.
    return simpleCommands(command).some((words) =>
      (prefix ? words.length >= want.length : words.length === want.length) && want.every((w, i) => words[i] === w),
    );
  }
  const inner = (text: string) => depth >= 8 || bashRuleCovers(want, prefix, text, depth + 1);
  return script.commands.some((sc) => {
    if (wordsFit(want, prefix, sc.args)) return true;
    const r = resolveCommand(sc.args);
    switch (r.kind) {
      case 'exec':
        return wordsFit(want, prefix, [{ ...sc.args[0]!, text: r.name, dynamic: false, glob: false }, ...r.args]);
      case 'script':
        return r.script.dynamic || inner(r.script.text);
      case 'stdin-shell':
        return sc.stdin?.kind === 'text' && !sc.stdin.word.dynamic ? inner(sc.stdin.word.text) : true;
      case 'dynamic-name':
        return true;
      default:
        return false;
    }
  });
}

/** deny > ask > allow: the first list with a matching rule decides; undefined when no rule matches. */
export function classify(req: PermissionRequest, scope: RuleScope, lists: RuleLists): RuleVerdict | undefined {
  for (const kind of ['deny', 'ask'] as const) {
    const rule = lists[kind]?.find((r) => restrictiveRuleMatches(r, req, scope));
    if (rule) return { kind, rule };
  }
  const rule = lists.allow?.find((r) => ruleMatches(r, req, scope));
  return rule ? { kind: 'allow', rule } : undefined;
}
