/**
 * git subcommands that run commands of their own (`submodule foreach`, `bisect run`, `rebase --exec`,
 * `difftool --extcmd`, `--upload-pack`, filter-branch filters) and those that destroy git's recovery
 * record (`reflog expire`, `gc --prune=now`, `prune`). Both roles.
 */
import { ADVICE, type Finding } from './finding.js';
import type { GitCall } from './git-argv.js';
import { hasLongAbbrev, hasShort, joinWords, parseOpts } from './argv.js';
import type { Word } from './words.js';

export type Embedded = { kind: 'script'; script: Word; via: string } | { kind: 'argv'; argv: Word[]; via: string };

/** Long options whose value is a command git runs. */
const COMMAND_OPTIONS: Record<string, readonly string[]> = {
  rebase: ['exec'],
  pull: ['upload-pack'],
  fetch: ['upload-pack'],
  clone: ['upload-pack'],
  'ls-remote': ['upload-pack', 'exec'],
  push: ['receive-pack', 'exec'],
  archive: ['exec'],
  difftool: ['extcmd'],
  'filter-branch': ['env-filter', 'tree-filter', 'index-filter', 'parent-filter', 'msg-filter', 'commit-filter', 'tag-name-filter'],
};
/** Short spellings of those options, per subcommand. */
const COMMAND_SHORTS: Record<string, string> = { rebase: 'x', difftool: 'x' };

/** Every command the git call would run besides itself. */
export function embeddedCommands(call: GitCall): Embedded[] {
  const out: Embedded[] = [];
  const args = call.args;
  if (call.sub === 'submodule') {
    const at = args.findIndex((w) => w.text === 'foreach');
    if (at >= 0) {
      let i = at + 1;
      while (i < args.length && /^--?(recursive|quiet|q)$/.test((args[i] as Word).text)) i++;
      const rest = args.slice(i);
      if (rest.length > 0) out.push({ kind: 'script', script: joinWords(rest), via: 'git submodule foreach' });
    }
  }
  if (call.sub === 'bisect' && args[0]?.text === 'run' && args.length > 1) out.push({ kind: 'argv', argv: args.slice(1), via: 'git bisect run' });
  const longs = COMMAND_OPTIONS[call.sub] ?? [];
  const short = COMMAND_SHORTS[call.sub];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (t === '--') break;
    const eq = t.indexOf('=');
    const name = t.startsWith('--') ? t.slice(2, eq < 0 ? undefined : eq) : '';
    const long = name.length >= 2 ? longs.find((l) => l.startsWith(name)) : undefined;
    let value: Word | undefined;
    if (long) value = eq < 0 ? args[++i] : { ...w, text: t.slice(eq + 1) };
    else if (short && t === `-${short}`) value = args[++i];
    else if (short && t.startsWith(`-${short}`) && /^-[a-zA-Z]/.test(t) && t.length > 2) value = { ...w, text: t.slice(2) };
    if (value) out.push({ kind: 'script', script: value, via: `git ${call.sub} ${long ? `--${long}` : `-${short}`}` });
  }
  return out;
}

/** Reflog and unreachable objects are how lost work is found again; expiring them is shared by every worktree. */
export function recoveryRule(call: GitCall): Finding | null {
  const p = parseOpts(call.args, { longValue: ['expire', 'expire-unreachable'] });
  const dry = hasShort(p, 'n') || hasLongAbbrev(p, 'dry-run');
  const deny = (what: string): Finding => ({ why: `${what}, the record that lost commits are recovered from`, advice: `${ADVICE.lead} Leave git's housekeeping to git (its default gc keeps two weeks of history).` });
  const action = p.positionals[0]?.text;
  if (call.sub === 'reflog' && (action === 'expire' || action === 'delete') && !dry) return deny(`${action} reflog entries`);
  if (call.sub === 'gc' && p.longs.some((l) => l.name === 'prune' && l.value !== null)) return deny(`prune unreachable objects now (git gc ${call.args.map((w) => w.text).join(' ')})`);
  if (call.sub === 'prune' && !dry) return deny('delete unreachable objects (git prune)');
  return null;
}
