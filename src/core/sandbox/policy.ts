/**
 * What each role's Bash may write, as data. Pure: paths in, lists out. The OS sandbox enforces the lists;
 * the rules name each area so a refused write can be explained to the model.
 */
import os from 'node:os';
import path from 'node:path';
import type { Role } from '../guard/types.js';
import type { SandboxSettings } from './settings.js';

export interface PolicyInput {
  role: Role;
  /** The lead's checkout (team root), or the project root of a solo agent. Canonical (realpath). */
  workspaceRoot: string;
  /** Where the agent runs (a teammate's worktree). */
  cwd: string;
  agentName?: string;
  /** `git rev-parse --git-common-dir`, absolute; default `<root>/.git`. */
  gitCommonDir?: string;
  home?: string;
  /** Scratch directories (default /tmp, /var/tmp and os.tmpdir()). */
  tmpDirs?: readonly string[];
  /** `--add-dir`: more directories that are the workspace (writable for a solo agent, read-only for the lead). Canonical. */
  additionalDirs?: readonly string[];
}

/** One area of the filesystem and whether the role may write it; the most specific area containing a path decides. */
export interface AreaRule {
  path: string;
  writable: boolean;
  /** Short name of the rule, shown to the model. */
  rule: string;
  /** Completes "writes there are refused: …". */
  why: string;
  instead: string;
}

export interface SandboxPolicy {
  role: Role;
  allowWrite: string[];
  denyWrite: string[];
  /**
   * The entries of denyWrite that are directories: made before a wrap when absent, so the engine binds them
   * read-only in place instead of putting a mount point (an empty file) in the project tree, which a killed
   * process would leave behind.
   */
  denyWriteDirs: string[];
  denyRead: string[];
  /** Absent: network open. */
  allowedDomains?: string[];
  areas: AreaRule[];
  /** A scratch directory that contains the workspace cannot be writable as a whole: a private one is made below it. */
  privateTmpParent?: string;
  /** The repository's shared git directory. */
  gitDir: string;
  /** A teammate's own worktree, whose admin directory under `<gitDir>/worktrees/` stays writable. */
  ownWorktree?: string;
}

/**
 * What a role that writes git history may write in the repository's git directory. Never the directory itself:
 * files there (`commondir`, `config`, `hooks/`, a worktree's `gitdir`) tell git run outside the sandbox — TeamMerge,
 * `git worktree remove`, the person's own git — where its config and hooks are, so a sandboxed command that could
 * create one would run code outside the sandbox.
 */
export const GIT_WRITABLE = ['objects', 'refs', 'logs'] as const;

/** Package-manager and toolchain caches builds write to. */
export const CACHE_DIRS = ['~/.npm', '~/.cache', '~/.yarn', '~/.pnpm-store', '~/.cargo/registry', '~/.cargo/git', '~/go/pkg/mod', '~/.m2/repository', '~/.gradle/caches'] as const;

function within(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function expandHome(p: string, home: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(home, p.slice(1)) : p;
}

/** A teammate's own worktree: the `<root>/.worktrees/<name>` it runs in (a teammate started in the shared checkout has none). */
export function ownWorktree(input: PolicyInput): string | null {
  const base = path.join(input.workspaceRoot, '.worktrees');
  const rel = path.relative(base, input.cwd);
  const first = rel.split(path.sep)[0];
  return first && !rel.startsWith('..') && !path.isAbsolute(rel) ? path.join(base, first) : null;
}

export function policyFor(input: PolicyInput, settings: SandboxSettings): SandboxPolicy {
  const home = input.home ?? os.homedir();
  const root = path.resolve(input.workspaceRoot);
  const gitDir = path.resolve(root, input.gitCommonDir ?? '.git');
  const worktrees = path.join(root, '.worktrees');
  const state = path.join(root, '.thclaws');
  const tmpDirs = [...new Set((input.tmpDirs ?? ['/tmp', '/var/tmp', os.tmpdir()]).map((d) => path.resolve(d)))];
  const scratch = 'scratch files may go to $TMPDIR or /tmp';

  const areas: AreaRule[] = [
    { path: '/', writable: false, rule: 'outside the writable areas', why: `the ${input.role === 'teammate' ? 'teammate' : input.role === 'lead' ? 'team lead' : 'agent'}'s Bash only writes where its role allows`, instead: `Stay inside your working area; ${scratch}.` },
    { path: state, writable: false, rule: '.thclaws/ is read-only from Bash', why: 'it holds team state, settings and sessions, which only the team tools change', instead: 'Use the team tools (SendMessage, TeamTask…, TeamStatus) instead of editing .thclaws/ files.' },
  ];
  const allowWrite: string[] = [];
  const own = input.role === 'teammate' ? ownWorktree(input) : null;

  areas.push({ path: path.join(gitDir, 'hooks'), writable: false, rule: 'git hooks are read-only', why: 'hooks run outside the sandbox, in the lead\'s git and TeamMerge', instead: 'Do not install hooks; ask the person to.' });
  areas.push({ path: path.join(gitDir, 'config'), writable: false, rule: 'the shared git config is read-only', why: 'it is shared by every worktree and read by git outside the sandbox', instead: 'Pass settings per command (git -c key=value) instead.' });
  if (input.role === 'lead') {
    // Never the root, nor a directory that is, holds or lies in the git dir, the worktrees or `.thclaws/`: a
    // "build directory" `.git` would re-open the git dir's control files, `.worktrees/bob` a teammate's work.
    const guarded = [gitDir, worktrees, state];
    const build = settings.sandboxBuildDirs
      .map((d) => path.resolve(root, d))
      .filter((d) => within(d, root) && d !== root && !guarded.some((g) => within(d, g) || within(g, d)));
    allowWrite.push(...GIT_WRITABLE.map((d) => path.join(gitDir, d)), ...build);
    const list = [...GIT_WRITABLE.map((d) => `.git/${d}/`), ...build.map((d) => `${path.relative(root, d)}/`)].join(', ');
    areas.push(
      { path: root, writable: false, rule: "the lead's workspace is read-only", why: 'the team lead is a coordinator and does not change source files', instead: `Delegate the change to the responsible teammate with SendMessage and integrate finished branches with TeamMerge (it runs outside the sandbox). Writable for you: ${list}; ${scratch}.` },
      { path: worktrees, writable: false, rule: "teammates' worktrees are read-only for the lead", why: 'each worktree belongs to a live teammate', instead: 'Message the teammate with SendMessage.' },
      { path: gitDir, writable: false, rule: "git's control files are read-only", why: 'files there (commondir, config, hooks, HEAD) steer git run outside the sandbox', instead: 'Read history with git status/log/diff; objects and refs stay writable; merges go through TeamMerge.' },
      ...GIT_WRITABLE.map((d) => ({ path: path.join(gitDir, d), writable: true, rule: 'git objects and refs', why: '', instead: '' })),
      ...build.map((d) => ({ path: d, writable: true, rule: 'declared build directory', why: '', instead: '' })),
    );
  } else if (input.role === 'teammate' && !own) {
    // A teammate without a worktree of its own works in the shared checkout, but never in the worktrees.
    allowWrite.push(root, gitDir);
    areas.push(
      { path: root, writable: true, rule: 'shared checkout', why: '', instead: '' },
      { path: worktrees, writable: false, rule: "teammates' worktrees are read-only", why: 'another teammate owns that worktree', instead: 'Send the owner a message with SendMessage.' },
    );
  } else if (input.role === 'teammate') {
    // Its own worktree's admin directory (`<gitDir>/worktrees/<id>`) is added at each wrap, found through its `.git` file.
    allowWrite.push(...GIT_WRITABLE.map((d) => path.join(gitDir, d)));
    if (own) allowWrite.push(own);
    const yours = own ? `your worktree ${own}` : 'your own worktree';
    areas.push(
      { path: root, writable: false, rule: "the lead's checkout is read-only for teammates", why: 'the lead owns the main checkout', instead: `Work in ${yours}; the lead integrates your branch with TeamMerge.` },
      { path: worktrees, writable: false, rule: "other teammates' worktrees are read-only", why: 'another teammate owns that worktree', instead: `Send the owner (or the lead) a message with SendMessage; work in ${yours}.` },
      { path: gitDir, writable: false, rule: "git's control files are read-only", why: 'files there (commondir, config, hooks) steer git run outside the sandbox', instead: `Commit, branch and fetch as usual in ${yours}; git writes only objects, refs and your worktree's own metadata.` },
      ...GIT_WRITABLE.map((d) => ({ path: path.join(gitDir, d), writable: true, rule: 'git objects and refs', why: '', instead: '' })),
    );
    if (own) areas.push({ path: own, writable: true, rule: 'own worktree', why: '', instead: '' });
    areas.push({ path: path.join(gitDir, 'worktrees'), writable: false, rule: "other teammates' worktree metadata is read-only", why: "it holds their HEAD, index and logs", instead: 'Change only your own worktree; message the owner with SendMessage.' });
  } else {
    allowWrite.push(root);
    areas.push({ path: root, writable: true, rule: 'project root', why: '', instead: '' });
  }
  // Added directories are the workspace too: as writable as the root is for the role (a teammate gets none).
  const extra = input.role === 'teammate' ? [] : (input.additionalDirs ?? []).map((d) => path.resolve(d));
  for (const d of extra) {
    if (input.role === 'solo') {
      allowWrite.push(d);
      areas.push({ path: d, writable: true, rule: 'added directory (--add-dir)', why: '', instead: '' });
    } else {
      areas.push({ path: d, writable: false, rule: "the lead's workspace is read-only", why: 'the team lead is a coordinator and does not change source files', instead: 'Delegate the change to the responsible teammate with SendMessage.' });
    }
  }

  // Scratch and cache directories, unless one of them holds the workspace (then it would re-open it).
  let privateTmpParent: string | undefined;
  for (const t of tmpDirs) {
    if (within(root, t)) {
      privateTmpParent ??= t;
      areas.push({ path: t, writable: false, rule: 'shared scratch directory', why: 'it contains the workspace, so only a private scratch directory is writable', instead: 'Write scratch files under $TMPDIR.' });
    } else {
      allowWrite.push(t);
      areas.push({ path: t, writable: true, rule: 'scratch directory', why: '', instead: '' });
    }
  }
  for (const c of [...CACHE_DIRS, ...settings.sandboxExtraWrite]) {
    const abs = path.resolve(expandHome(c, home));
    if (within(root, abs) && input.role !== 'solo') continue;
    allowWrite.push(abs);
    areas.push({ path: abs, writable: true, rule: 'cache directory', why: '', instead: '' });
  }
  return {
    role: input.role,
    allowWrite: [...new Set(allowWrite)],
    // Hooks and config of the shared repository run outside the sandbox (the lead's git, TeamMerge): never writable.
    denyWrite: [state, path.join(gitDir, 'hooks'), path.join(gitDir, 'config'), ...(input.role === 'teammate' && !own ? [worktrees] : [])],
    denyWriteDirs: [state, path.join(gitDir, 'hooks'), ...(input.role === 'teammate' && !own ? [worktrees] : [])],
    denyRead: settings.sandboxDenyRead.map((p) => path.resolve(expandHome(p, home))),
    ...(settings.sandboxAllowedDomains ? { allowedDomains: settings.sandboxAllowedDomains } : {}),
    areas,
    ...(privateTmpParent ? { privateTmpParent } : {}),
    gitDir,
    ...(own ? { ownWorktree: own } : {}),
  };
}

/**
 * A teammate's neighbours' worktree metadata (`<gitDir>/worktrees/<other>`: their HEAD, index, logs), given the
 * entries of that directory and the `.git` file of the teammate's own worktree. Unknown own entry: none.
 */
export function otherWorktreeAdmins(policy: SandboxPolicy, entries: readonly string[], ownGitFile: string | null, canon: (p: string) => string = (p) => p): string[] {
  if (policy.role !== 'teammate' || !policy.ownWorktree || !ownGitFile) return [];
  const m = /^gitdir:\s*(.+)$/m.exec(ownGitFile);
  if (!m) return [];
  const mine = canon(path.resolve(policy.ownWorktree, (m[1] as string).trim()));
  const base = path.join(policy.gitDir, 'worktrees');
  return entries.map((e) => path.join(base, e)).filter((d) => d !== mine);
}

/**
 * A teammate's own worktree admin directory (`<gitDir>/worktrees/<id>`: its HEAD, index, logs), found through its
 * worktree's `.git` file; null unless that file points straight below `<gitDir>/worktrees/`.
 */
export function ownWorktreeAdmin(policy: SandboxPolicy, ownGitFile: string | null, canon: (p: string) => string = (p) => p): string | null {
  if (policy.role !== 'teammate' || !policy.ownWorktree || !ownGitFile) return null;
  const m = /^gitdir:\s*(.+)$/m.exec(ownGitFile);
  if (!m) return null;
  // git writes the path it was given (through a symlinked home, macOS's /var); the policy holds real paths.
  const mine = canon(path.resolve(policy.ownWorktree, (m[1] as string).trim()));
  return path.dirname(mine) === path.join(policy.gitDir, 'worktrees') ? mine : null;
}

/** The files of a worktree's admin directory that say where its repository is: never writable from the sandbox. */
export const WORKTREE_POINTERS = ['commondir', 'gitdir', 'config.worktree'] as const;

/** The most specific area holding `p`. */
export function areaOf(policy: SandboxPolicy, p: string): AreaRule {
  let best = policy.areas[0] as AreaRule;
  for (const a of policy.areas) if (within(p, a.path) && a.path.length >= best.path.length) best = a;
  return best;
}
