/** Role rules for git: options parsed in any order, flag clusters split, long options by prefix. */
import { hasLong, hasLongAbbrev, hasShort, parseOpts, type ParsedOpts } from './argv.js';
import { ADVICE, type Env, type Finding } from './finding.js';
import type { GitCall } from './git-argv.js';
import { inWorkspace, teammateZone, within } from './paths.js';
import { checkResetTarget, ownBranch } from './git-refs.js';

const SPECS: Record<string, { shortValue?: string; longValue?: string[] }> = {
  checkout: { shortValue: 'bB', longValue: ['orphan', 'conflict', 'pathspec-from-file'] },
  'checkout-index': { longValue: ['prefix', 'stage'] },
  switch: { shortValue: 'cC', longValue: ['create', 'force-create', 'orphan', 'conflict'] },
  restore: { shortValue: 's', longValue: ['source', 'pathspec-from-file'] },
  push: { shortValue: 'o', longValue: ['push-option', 'receive-pack', 'exec', 'repo'] },
  branch: { shortValue: 'u', longValue: ['set-upstream-to', 'contains', 'no-contains', 'points-at', 'merged', 'no-merged', 'sort', 'format'] },
  clean: { shortValue: 'e', longValue: ['exclude'] },
  merge: { shortValue: 'msXF', longValue: ['message', 'strategy', 'strategy-option', 'file', 'into-name'] },
  reset: { longValue: ['pathspec-from-file'] },
  'update-ref': { shortValue: 'm' },
  fetch: { shortValue: 'jo', longValue: ['depth', 'deepen', 'shallow-since', 'shallow-exclude', 'upload-pack', 'refmap', 'jobs', 'server-option', 'negotiation-tip', 'filter', 'recurse-submodules-default'] },
  'symbolic-ref': { shortValue: 'm' },
};

/** Subcommands that never change a worktree (a teammate may aim them at another worktree). */
const READ_ONLY = new Set([
  'status', 'log', 'diff', 'show', 'blame', 'grep', 'ls-files', 'ls-tree', 'rev-parse', 'rev-list', 'describe', 'shortlog',
  'cat-file', 'fetch', 'help', 'version', 'count-objects', 'name-rev', 'whatchanged', 'show-ref', 'for-each-ref', 'merge-base',
  'diff-tree', 'diff-files', 'diff-index', 'check-ignore', 'reflog', 'remote', 'config', 'var', 'show-branch', 'range-diff',
]);

/** Subcommands that move the checked-out branch or rewrite the worktree it is run in. */
const TREE_WRITERS = new Set([
  'reset', 'checkout', 'switch', 'restore', 'clean', 'commit', 'merge', 'rebase', 'cherry-pick', 'revert', 'pull', 'am', 'apply', 'stash', 'rm', 'mv', 'add', 'bisect', 'symbolic-ref', 'update-ref',
]);

const isTeamBranch = (t: string): boolean => /^(refs\/)?(heads\/)?team\//.test(t);
const branchName = (t: string): string => t.replace(/^refs\/heads\//, '').replace(/^heads\//, '');

const dynamicFinding = (what: string): Finding => ({
  why: `run a dynamic ${what} whose words (variables, $(…), backticks or brace lists) cannot be verified`,
  advice: ADVICE.dynamic,
});

function opts(call: GitCall): ParsedOpts {
  return parseOpts(call.args, SPECS[call.sub] ?? {});
}

const anyDynamic = (p: ParsedOpts): boolean => p.dynamic || p.positionals.some((w) => w.dynamic) || p.afterDashDash.some((w) => w.dynamic);

/** `git push`: force, mirror, delete or prune in any spelling, and `+` / `:` refspecs. */
function pushEffects(p: ParsedOpts): { force: boolean; destructive: boolean; targets: Array<{ dst: string; force: boolean; del: boolean }> } {
  const force = hasShort(p, 'f') || hasLongAbbrev(p, 'force', 'force-with-lease', 'force-if-includes');
  const del = hasShort(p, 'd') || hasLongAbbrev(p, 'delete');
  const mirror = hasLongAbbrev(p, 'mirror');
  const prune = hasLongAbbrev(p, 'prune');
  const targets = p.positionals.slice(1).map((w) => {
    const t = w.text;
    const plus = t.startsWith('+');
    const spec = plus ? t.slice(1) : t;
    const colon = spec.indexOf(':');
    const dst = colon < 0 ? spec : spec.slice(colon + 1);
    return { dst: branchName(dst), force: force || plus, del: del || (colon === 0) };
  });
  const destructive = force || del || mirror || prune || targets.some((t) => t.force || t.del);
  return { force: force || mirror, destructive, targets };
}

/**
 * `git fetch <repo> +src:dst` (or `--force`) moves a local branch to whatever src is, dropping its commits,
 * and `--prune` with a refs/heads destination deletes local branches: both are branch rewrites, not reads.
 */
function fetchRewrites(p: ParsedOpts): Array<{ dst: string; dynamic: boolean }> {
  const force = hasShort(p, 'f') || hasLongAbbrev(p, 'force');
  const prune = hasShort(p, 'p') || hasLongAbbrev(p, 'prune');
  const out: Array<{ dst: string; dynamic: boolean }> = [];
  for (const w of p.positionals.slice(1)) {
    const plus = w.text.startsWith('+');
    const spec = plus ? w.text.slice(1) : w.text;
    const colon = spec.indexOf(':');
    if (colon < 0 || colon === spec.length - 1) continue; // no local destination: only FETCH_HEAD / remote-tracking
    const dst = spec.slice(colon + 1);
    // Remote-tracking refs and tags are not branches anyone works on; a bare name lands in refs/heads.
    if (dst.startsWith('refs/') && !dst.startsWith('refs/heads/')) continue;
    if (plus || force || (prune && dst.startsWith('refs/heads/'))) out.push({ dst: dst.includes('*') ? 'team/*' : branchName(dst), dynamic: w.dynamic });
  }
  return out;
}

const DESTRUCTIVE_CAPABLE = new Set(['reset', 'clean', 'push', 'checkout', 'restore', 'branch', 'switch', 'update-ref', 'symbolic-ref', 'stash', 'worktree', 'merge', 'rm']);

/** `git <sub> --help` / `-h` only prints help. */
export function isHelp(call: GitCall): boolean {
  const first = call.args[0]?.text;
  return first === '--help' || (first === '-h' && call.args.length === 1);
}

/** `git symbolic-ref HEAD <ref>` points a worktree's HEAD at another branch without a checkout. */
function symbolicRefWrite(p: ParsedOpts): boolean {
  return p.positionals.length >= 2 || hasShort(p, 'd') || hasLongAbbrev(p, 'delete');
}

export function leadGitRule(call: GitCall, env: Env): Finding | null {
  const p = opts(call);
  const lead = (why: string, advice: string = ADVICE.lead): Finding => ({ why, advice });
  /** Branches the lead must not force-update, rename or delete: team/*, main/master and its own. */
  const guarded = (t: string): boolean => {
    const b = branchName(t);
    return isTeamBranch(b) || (env.ctx.protectedBranches ?? ['main', 'master']).includes(b) || b === env.ctx.branch;
  };
  switch (call.sub) {
    case 'reset':
      // --keep and --merge move the branch and rewrite the worktree like --hard (they only stop on conflicts).
      if (hasLongAbbrev(p, 'hard', 'keep', 'merge')) return lead('discard committed work via a hard reset', `${ADVICE.lead} To move back on your own branch use \`git reset HEAD~N\` (keeps files) after checking with git log.`);
      break;
    case 'clean':
      if (!hasShort(p, 'n') && !hasLongAbbrev(p, 'dry-run')) return lead('delete untracked files (git clean)');
      break;
    case 'push':
      if (pushEffects(p).destructive) return lead('rewrite or delete shared history (force-push, mirror, delete or prune)');
      break;
    case 'fetch': {
      const hit = fetchRewrites(p).find((t) => t.dynamic || guarded(t.dst));
      if (hit) return lead(`force-update or prune a shared branch (${hit.dst}) with git fetch`, `${ADVICE.lead} Merged branches are cleaned up by TeamMerge.`);
      break;
    }
    case 'rebase':
      return lead('rewrite committed history (rebase)');
    case 'filter-branch':
    case 'filter-repo':
      return lead('rewrite the whole history');
    case 'worktree': {
      const action = p.positionals[0]?.text;
      if (action === 'remove' || action === 'prune' || action === 'move') return lead(`${action} a teammate's worktree (it would kill or orphan a live teammate)`, `${ADVICE.lead} Worktrees are cleaned up by the team tools when a teammate is done.`);
      if (p.positionals[0]?.dynamic) return dynamicFinding('git worktree command');
      break;
    }
    case 'checkout': {
      if (hasShort(p, 'f') || hasLongAbbrev(p, 'force')) return lead('discard uncommitted work (git checkout --force)');
      const b = p.shortValues.get('B');
      if (b !== undefined && guarded(b)) return lead(`force-update a shared branch (${b}) with checkout -B`);
      const sides = hasLong(p, 'ours', 'theirs');
      if (!sides && p.sawDashDash && p.afterDashDash.length > 0) return lead('discard uncommitted work (git checkout -- <path>)');
      if (!sides && p.positionals.some((w) => /^(\.\/?|:\/?|\*|:\(top\)\S*)$/.test(w.text) || (w.glob && !w.dynamic))) return lead('discard uncommitted work (git checkout of a whole-tree pathspec)');
      if (!sides && p.positionals.length >= 2) return lead(`overwrite working-tree files with another commit's (git checkout ${p.positionals[0]?.text} <path>)`);
      if (!sides && hasLong(p, 'pathspec-from-file')) return lead('discard uncommitted work (git checkout --pathspec-from-file)');
      if (!sides && checksOutPath(call, p, env)) return lead(`discard uncommitted work (git checkout ${p.positionals[0]?.text}, a path, not a branch)`);
      break;
    }
    case 'checkout-index':
      // -f overwrites modified files with the index's copy; --prefix writes the copies elsewhere instead.
      if ((hasShort(p, 'f') || hasLongAbbrev(p, 'force')) && !hasLong(p, 'prefix')) return lead('discard uncommitted work (git checkout-index --force)');
      break;
    case 'read-tree':
      if (hasShort(p, 'u') && (hasShort(p, 'm') || hasLong(p, 'reset'))) return lead('discard uncommitted work (git read-tree -u rewrites the working tree)');
      break;
    case 'restore': {
      const staged = hasShort(p, 'S') || hasLongAbbrev(p, 'staged');
      const worktree = hasShort(p, 'W') || hasLongAbbrev(p, 'worktree');
      if ((!staged || worktree) && !hasLong(p, 'ours', 'theirs')) return lead('discard uncommitted work (git restore without --staged)', `${ADVICE.lead} To unstage only, use \`git restore --staged <path>\`.`);
      break;
    }
    case 'merge':
      if (hasLongAbbrev(p, 'abort')) return lead('tear down a merge instead of resolving it', ADVICE.leadMerge);
      break;
    case 'branch': {
      const del = hasShort(p, 'D') || ((hasShort(p, 'd') || hasLongAbbrev(p, 'delete')) && (hasShort(p, 'f') || hasLongAbbrev(p, 'force')));
      const force = hasShort(p, 'f', 'M', 'C') || hasLongAbbrev(p, 'force');
      const rename = hasShort(p, 'm', 'M') || hasLong(p, 'move');
      if ((del || force || rename) && p.positionals.some((w) => w.dynamic)) return dynamicFinding('git branch command');
      const team = p.positionals.find((w) => guarded(w.text));
      if (team && (del || force || rename)) return lead(`delete, rename or force-update a shared branch (${team.text})`, `${ADVICE.lead} Merged branches are cleaned up by TeamMerge.`);
      break;
    }
    case 'switch': {
      if (hasShort(p, 'f') || hasLongAbbrev(p, 'force', 'discard-changes')) return lead('discard uncommitted work (git switch --discard-changes)');
      const c = p.shortValues.get('C');
      if (c !== undefined && guarded(c)) return lead(`force-update a shared branch (${c}) with switch -C`);
      break;
    }
    case 'update-ref': {
      const ref = p.positionals[0];
      const branchRef = ref && (ref.dynamic || ref.text === 'HEAD' || ref.text.startsWith('refs/heads/') || guarded(ref.text));
      if (branchRef || hasShort(p, 'd') || hasLongAbbrev(p, 'delete', 'stdin')) return lead('delete or move a branch ref directly');
      break;
    }
    case 'symbolic-ref':
      if (symbolicRefWrite(p)) return lead('repoint HEAD at another branch without a checkout');
      break;
    case 'stash': {
      const action = p.positionals[0]?.text;
      if (action === 'drop' || action === 'clear') return lead('discard stashed work');
      const pushes = action === undefined || action === 'push' || action === 'save';
      if (pushes && (hasShort(p, 'u', 'a') || hasLongAbbrev(p, 'include-untracked', 'all'))) return lead('stash untracked files away (they vanish from the workspace until someone pops them)');
      break;
    }
    case 'rm':
      if ((hasShort(p, 'r') || hasLongAbbrev(p, 'recursive')) && !hasLong(p, 'cached')) return lead('recursively remove tracked files');
      break;
    case 'mv':
      return lead('move source files (authoring)', ADVICE.leadWrite);
    case 'apply':
    case 'am':
      if (!hasLong(p, 'check', 'stat', 'numstat', 'summary')) return lead('apply a patch to source files (authoring)', ADVICE.leadWrite);
      break;
  }
  if (DESTRUCTIVE_CAPABLE.has(call.sub) && anyDynamic(p)) return dynamicFinding(`git ${call.sub} command`);
  return null;
}

export function teammateGitRule(call: GitCall, env: Env): Finding | null {
  const p = opts(call);
  const own = ownBranch(env);
  const others = (why: string): Finding => ({ why, advice: ADVICE.teammateOthers });
  const foreign = (name: string): boolean => {
    const b = branchName(name);
    if (b === own) return false;
    return isTeamBranch(b) || (env.ctx.protectedBranches ?? ['main', 'master']).includes(b);
  };

  if (!READ_ONLY.has(call.sub)) {
    if (call.dirs === null) return dynamicFinding(`git ${call.sub} with a dynamic -C/--work-tree`);
    for (const d of call.dirs) {
      const zone = teammateZone(d, env.zones, false);
      if (zone === 'other-worktree' || zone === 'worktrees-dir') return others(`run git ${call.sub} in another teammate's worktree (${d})`);
      // The workspace root is the lead's checkout of main: `git -C /ws reset --hard HEAD~3` rewrites main.
      const leadTree = TREE_WRITERS.has(call.sub) && env.zones.own !== null && inWorkspace(d, env.zones) && !env.zones.worktrees.some((wt) => within(d, wt));
      if (leadTree) return others(`run git ${call.sub} in the lead's worktree (${d}), whose branch is not yours`);
    }
  }
  switch (call.sub) {
    case 'symbolic-ref':
      if (symbolicRefWrite(p)) return { why: `repoint your worktree's HEAD off your branch ${own}`, advice: ADVICE.teammateSwitch };
      break;
    case 'reset':
      if (hasLongAbbrev(p, 'hard', 'keep', 'merge')) return checkResetTarget(p.positionals[0], p.dynamic && !p.positionals[0]?.dynamic, call, env);
      break;
    case 'checkout':
    case 'switch':
      return switchRule(call, p, env, own);
    case 'branch': {
      const del = hasShort(p, 'd', 'D') || hasLongAbbrev(p, 'delete');
      const force = hasShort(p, 'f', 'C') || hasLongAbbrev(p, 'force');
      const rename = hasShort(p, 'm', 'M') || hasLong(p, 'move');
      if (!(del || force || rename)) break;
      if (p.positionals.some((w) => w.dynamic)) return dynamicFinding('git branch command');
      const hit = p.positionals.find((w) => foreign(w.text));
      if (hit) return others(`delete, rename or force-update a branch that is not yours (${hit.text})`);
      break;
    }
    case 'push': {
      const eff = pushEffects(p);
      if (eff.destructive && (p.dynamic || p.positionals.some((w) => w.dynamic))) return dynamicFinding('git push command');
      if (hasLongAbbrev(p, 'mirror') || (eff.force && hasLong(p, 'all', 'branches'))) return others('force-update every branch on the remote, including other teammates\'');
      if (hasLongAbbrev(p, 'prune')) return others('delete remote branches that have no local counterpart, which may be other teammates\'');
      const hit = eff.targets.find((t) => (t.force || t.del) && foreign(t.dst));
      if (hit) return others(`delete or force-update a branch that is not yours on the remote (${hit.dst})`);
      break;
    }
    case 'fetch': {
      const hit = fetchRewrites(p).find((t) => t.dynamic || foreign(t.dst));
      if (hit) return others(`force-update or prune a branch that is not yours (${hit.dst}) with git fetch`);
      break;
    }
    case 'update-ref': {
      if (hasLong(p, 'stdin')) return dynamicFinding('git update-ref --stdin');
      const hit = p.positionals.find((w) => w.dynamic || foreign(w.text));
      if (hit) return others(`move or delete a branch that is not yours (${hit.text || hit.raw})`);
      break;
    }
    case 'worktree': {
      const action = p.positionals[0]?.text;
      if (action === 'prune') return others("prune worktree metadata other teammates rely on");
      if (action === 'remove' || action === 'move') return others('remove or move a worktree');
      break;
    }
  }
  return null;
}

/**
 * `git checkout <name>` without `--`: git switches when the name is a commit (or a remote branch it would
 * guess a new branch from, or one a fetch earlier in the input may bring) and otherwise restores the path
 * from the index, discarding its changes. Without a git probe, only names that can only be paths count.
 */
function checksOutPath(call: GitCall, p: ParsedOpts, env: Env): boolean {
  const first = p.positionals[0];
  if (p.positionals.length !== 1 || p.sawDashDash || !first || first.dynamic) return false;
  const t = first.text;
  if (t === '-' || t.startsWith('@{-')) return false;
  const git = env.ctx.git;
  if (!git) return t.startsWith('./') || t.endsWith('/');
  const dir = call.dirs?.[0] ?? env.ctx.cwd;
  if (git.resolve(`${t}^{commit}`, dir) !== null) return false;
  if (!hasLong(p, 'no-guess') && (git.remoteBranches?.(t, dir) ?? []).length > 0) return false;
  return !env.fetchFirst;
}

/** Teammate checkout/switch: file restores are fine, moving the worktree off its branch is not. */
function switchRule(call: GitCall, p: ParsedOpts, env: Env, own: string): Finding | null {
  const deny = (target: string): Finding => ({ why: `switch your worktree off your branch ${own} (to ${target})`, advice: ADVICE.teammateSwitch });
  const create = ['b', 'B', 'c', 'C'].find((c) => p.shortValues.has(c));
  if (create) return deny(`new branch ${p.shortValues.get(create)}`);
  if (hasLong(p, 'orphan', 'create', 'force-create')) return deny('a new branch');
  if (hasLong(p, 'detach') || hasShort(p, 'd') && call.sub === 'switch') return deny('a detached HEAD');
  if (call.sub === 'checkout') {
    if (p.sawDashDash || hasShort(p, 'p') || hasLong(p, 'patch', 'ours', 'theirs', 'conflict', 'pathspec-from-file')) return null;
    if (p.positionals.length >= 2) return null; // <tree-ish> <paths…>: restores files
  }
  const first = p.positionals[0];
  if (!first) return null;
  if (first.dynamic) return dynamicFinding(`git ${call.sub} command`);
  const t = first.text;
  if (branchName(t) === own || t === 'HEAD' || t === '@') return null;
  if (t === '-' || t.startsWith('@{-')) return deny('the previous branch');
  if (call.sub === 'checkout' && (/^(\.|\.\/.*|:.*|\.\.\/.*)$/.test(t) || first.glob)) return null;
  const git = env.ctx.git;
  if (call.sub === 'checkout' && git) {
    // Without `--`, git itself decides: a name that is a commit switches, anything else is a path —
    // unless a remote-tracking branch of that name exists (git then creates the branch and switches to it),
    // or a fetch earlier in the input may make it resolve.
    const dir = call.dirs?.[0] ?? env.ctx.cwd;
    if (git.resolve(`${t}^{commit}`, dir) === null) {
      const remote = git.remoteBranches?.(t, dir) ?? [];
      if (remote.length > 0 && !hasLong(p, 'no-guess')) return deny(`a new branch ${t} created from ${remote[0]} (git's guess)`);
      if (env.fetchFirst && !first.glob) return deny(`${t}, which may name a branch once the fetch before it has run`);
      return null;
    }
  }
  return deny(t);
}

