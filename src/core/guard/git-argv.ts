/** git's own argv: global options (`-C`, `-c k=v`, `--git-dir`, `--work-tree`) and `-c alias.*` expansion. */
import path from 'node:path';
import { literalWord, type Word } from './words.js';

export interface GitCall {
  kind: 'git';
  sub: string;
  subWord: Word;
  args: Word[];
  /** Directories git acts on (the cwds moved by `-C`, or `--work-tree`); null when a dynamic path hides them. */
  dirs: string[] | null;
  /** Commands given in `-c key=value` (`core.fsmonitor`, `core.pager`…) that git may run: checked besides the call. */
  config: Word[];
}

export type GitParse = GitCall | { kind: 'script'; script: Word; config: Word[] } | { kind: 'dynamic' } | { kind: 'none' };

/**
 * `-c` keys whose value is a command git runs through the shell: the value is checked as a script. (`alias.*`
 * with `!` is expanded below; `credential.helper` only runs a shell when it starts with `!`.)
 */
const COMMAND_KEY = /^(core\.(fsmonitor|pager|editor|sshcommand|askpass|gitproxy|alternaterefscommand)|pager\.[^=]+|sequence\.editor|diff\.external|diff\.[^=]+\.(textconv|command)|difftool\.[^=]+\.cmd|mergetool\.[^=]+\.cmd|merge\.[^=]+\.driver|filter\.[^=]+\.(clean|smudge|process)|gpg\.program|gpg\.[^=]+\.program|uploadpack\.packobjectshook|remote\.[^=]+\.(uploadpack|receivepack)|sendemail\.[^=]+|web\.browser|browser\.[^=]+\.cmd|man\.[^=]+\.cmd)$/;
/** `-c` keys that point git at files or places it then runs or writes, which the guard cannot read: refused. */
const UNREADABLE_KEY = /^(core\.hookspath|core\.worktree|include\.path|includeif\..+|protocol\.[^=]+\.allow|protocol\.allow|core\.sharedrepository|safe\.directory)$/;

/** What a `-c key=value` means to the guard: an embedded script, something it cannot read, or nothing. */
function configEffect(kv: string): Word | 'unreadable' | null {
  const eq = kv.indexOf('=');
  const key = (eq < 0 ? kv : kv.slice(0, eq)).toLowerCase();
  const value = eq < 0 ? '' : kv.slice(eq + 1);
  if (UNREADABLE_KEY.test(key)) return 'unreadable';
  if (key === 'credential.helper' || /^credential\..+\.helper$/.test(key)) return value.startsWith('!') ? literalWord(value.slice(1)) : null;
  if (!COMMAND_KEY.test(key)) return null;
  // `core.fsmonitor=true|false` is the built-in daemon, not a command.
  if (key === 'core.fsmonitor' && /^(true|false|yes|no|on|off|1|0|)$/i.test(value.trim())) return null;
  return literalWord(value);
}

const GLOBAL_WITH_VALUE = new Set(['git-dir', 'work-tree', 'namespace', 'config-env', 'super-prefix', 'attr-source', 'list-cmds', 'exec-path']);

export function parseGit(args: readonly Word[], cwds: readonly string[]): GitParse {
  let dirs: string[] | null = [...cwds];
  const aliases = new Map<string, string>();
  const config: Word[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (!t.startsWith('-') || w.dynamic) break;
    const takeValue = (): Word | undefined => args[++i];
    if (t === '-C' || (t.startsWith('-C') && t.length > 2)) {
      const v = t === '-C' ? takeValue() : literalWord(t.slice(2));
      if (!v || v.dynamic) dirs = null;
      else if (dirs) dirs = dirs.map((d) => path.resolve(d, v.text));
    } else if (t === '-c' || (t.startsWith('-c') && t.length > 2)) {
      const v = t === '-c' ? takeValue() : literalWord(t.slice(2));
      if (!v || v.dynamic) return { kind: 'dynamic' };
      const m = /^alias\.([^=]+)=(.*)$/is.exec(v.text);
      if (m) aliases.set((m[1] as string).toLowerCase(), m[2] as string);
      const effect = configEffect(v.text);
      if (effect === 'unreadable') return { kind: 'dynamic' };
      if (effect) config.push(effect);
    } else if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      const name = eq < 0 ? t.slice(2) : t.slice(2, eq);
      let value: Word | undefined = eq < 0 ? undefined : literalWord(t.slice(eq + 1));
      if (eq < 0 && GLOBAL_WITH_VALUE.has(name) && name !== 'exec-path') value = takeValue();
      if (name === 'config-env') return { kind: 'dynamic' };
      if (name === 'work-tree' || name === 'git-dir') {
        if (!value || value.dynamic) dirs = null;
        else if (dirs) {
          const v = value.text;
          // A worktree's git dir sits at its root (`.worktrees/bob/.git`); the main repo's is `<root>/.git`.
          dirs = dirs.map((d) => (name === 'git-dir' ? path.dirname(path.resolve(d, v)) : path.resolve(d, v)));
        }
      }
    }
  }
  let sub = args[i];
  let rest = args.slice(i + 1);
  if (!sub) return { kind: 'none' };
  if (sub.dynamic) return { kind: 'dynamic' };
  for (let depth = 0; depth < 5; depth++) {
    const alias = aliases.get(sub.text.toLowerCase());
    if (alias === undefined) break;
    if (alias.startsWith('!')) {
      const script = literalWord([alias.slice(1), ...rest.map((w) => w.text)].join(' '));
      script.dynamic = rest.some((w) => w.dynamic);
      return { kind: 'script', script, config };
    }
    const words = alias.trim().split(/\s+/).map(literalWord);
    if (words.length === 0 || !words[0]) break;
    sub = words[0];
    rest = [...words.slice(1), ...rest];
  }
  // git follows alias chains to any depth: one still unexpanded here (a deeper chain, or a loop git refuses) is not checked.
  if (aliases.has(sub.text.toLowerCase())) return { kind: 'dynamic' };
  return { kind: 'git', sub: sub.text.toLowerCase(), subWord: sub, args: rest, dirs, config };
}
