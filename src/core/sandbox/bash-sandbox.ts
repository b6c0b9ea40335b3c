/** The OS sandbox bound to one agent's role: what the Bash tool calls right before it spawns a command. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { BashSandbox } from '../agent/types.js';
import { explainRefusal } from './explain.js';
import { ensureDenyDir } from './mount-points.js';
import { otherWorktreeAdmins, ownWorktreeAdmin, policyFor, WORKTREE_POINTERS, type PolicyInput, type SandboxPolicy } from './policy.js';
import { probeSandbox, wrapCommand } from './runtime.js';
import type { SandboxSettings } from './settings.js';
import { describeSandboxStatus, setSandboxStatus, type SandboxStatus } from './status.js';

export class SandboxUnavailableError extends Error {
  override name = 'SandboxUnavailableError';
}

export interface RoleSandbox extends BashSandbox {
  readonly policy: SandboxPolicy;
  /** Runs the probe (once) and resolves with whether the OS sandbox runs here. */
  ready(): Promise<SandboxStatus>;
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** The variable the command travels in, and the constant script that runs it inside the sandbox. */
const COMMAND_VAR = 'THCLAWS_SANDBOXED_COMMAND';
const RUN_FROM_ENV = `__thclaws_cmd=$${COMMAND_VAR}; unset ${COMMAND_VAR}; eval "$__thclaws_cmd"`;

/**
 * Read at every wrap (worktrees come and go while a teammate runs): the neighbours' admin directories, and the
 * teammate's own — writable for its HEAD, index and logs, but not the files in it that say where the repository
 * is, nor the worktree's `.git` file (git outside the sandbox follows them).
 */
function worktreeAdmins(policy: SandboxPolicy): { neighbours: string[]; own: string | null; pointers: string[] } {
  const none = { neighbours: [], own: null, pointers: [] };
  if (policy.role !== 'teammate' || !policy.ownWorktree) return none;
  let entries: string[] = [];
  let ownGit: string | null = null;
  try {
    entries = readdirSync(path.join(policy.gitDir, 'worktrees'));
    ownGit = readFileSync(path.join(policy.ownWorktree, '.git'), 'utf8');
  } catch {
    return none;
  }
  const canon = (p: string): string => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  const own = ownWorktreeAdmin(policy, ownGit, canon);
  const pointers = own ? [path.join(policy.ownWorktree, '.git'), ...WORKTREE_POINTERS.map((f) => path.join(own, f)).filter((f) => existsSync(f))] : [];
  return { neighbours: otherWorktreeAdmins(policy, entries, ownGit, canon), own, pointers };
}

/**
 * The loose ref files of branches checked out elsewhere (the lead's checkout, other teammates' worktrees): a
 * sandboxed command writes `refs/` for its own commits, but must not move those (`main` moved by a teammate
 * skips TeamMerge). Only loose files can be held: a branch that is only in `packed-refs` would need a
 * placeholder file, which git cannot read; `packed-refs` itself is read-only with the git dir.
 */
function othersBranchRefs(policy: SandboxPolicy, ownAdmin: string | null): string[] {
  if (policy.role === 'solo' || (policy.role === 'teammate' && !ownAdmin)) return [];
  const rootHead = path.join(policy.gitDir, 'HEAD');
  const heads = [rootHead];
  try {
    for (const e of readdirSync(path.join(policy.gitDir, 'worktrees'))) heads.push(path.join(policy.gitDir, 'worktrees', e, 'HEAD'));
  } catch {
    // No worktrees.
  }
  const mine = policy.role === 'lead' ? rootHead : path.join(ownAdmin as string, 'HEAD');
  const out = new Set<string>();
  for (const h of heads) {
    if (h === mine) continue;
    let text: string;
    try {
      text = readFileSync(h, 'utf8');
    } catch {
      continue;
    }
    const m = /^ref:\s*(refs\/heads\/\S+)\s*$/m.exec(text);
    if (!m) continue;
    const ref = path.join(policy.gitDir, m[1] as string);
    if (!path.relative(path.join(policy.gitDir, 'refs', 'heads'), ref).startsWith('..') && existsSync(ref) && statSync(ref).isFile()) out.add(ref);
  }
  return [...out];
}

export function createRoleSandbox(input: PolicyInput, settings: SandboxSettings, probe: () => Promise<SandboxStatus> = probeSandbox): RoleSandbox {
  const policy = policyFor(input, settings);
  let probed: Promise<SandboxStatus> | null = null;
  // Probed on first use, not at start-up: loading the runtime and running a test command costs ~200 ms.
  const ready = (): Promise<SandboxStatus> => {
    probed ??= (settings.sandbox === 'off' ? Promise.resolve<SandboxStatus>({ state: 'off', reason: 'setting sandbox is "off"' }) : probe()).then((s) => {
      setSandboxStatus(s);
      return s;
    });
    return probed;
  };
  let privateTmp: string | null = null;
  let cached: { key: string; line: string } | null = null;
  return {
    policy,
    ready,
    async wrap(command, signal) {
      const status = await ready();
      if (status.state !== 'os') {
        if (settings.sandbox === 'required') {
          throw new SandboxUnavailableError(`Bash is disabled: the setting sandbox is "required" and ${describeSandboxStatus(status)}`);
        }
        return command;
      }
      let inner = RUN_FROM_ENV;
      const allowWrite = [...policy.allowWrite];
      if (policy.privateTmpParent) {
        if (!privateTmp) {
          privateTmp = mkdtempSync(path.join(policy.privateTmpParent, 'thclaws-tmp-'));
          policy.areas.push({ path: privateTmp, writable: true, rule: 'private scratch directory', why: '', instead: '' });
        }
        allowWrite.push(privateTmp);
        // The shared scratch directory holds the workspace, so this agent's scratch space is a directory of its own.
        inner = `export TMPDIR=${shellQuote(privateTmp)}; ${RUN_FROM_ENV}`;
      }
      // The wrapped line depends on the policy and on which of its paths exist, not on the command: it is
      // computed once per state of those paths (~25 ms each) and the command travels in the environment.
      const { neighbours, own, pointers } = worktreeAdmins(policy);
      const branches = othersBranchRefs(policy, own);
      for (const b of branches) {
        if (!policy.areas.some((a) => a.path === b)) policy.areas.push({ path: b, writable: false, rule: 'a branch checked out elsewhere is read-only', why: "it belongs to the lead's checkout or another teammate's worktree", instead: 'Commit on your own branch; the lead integrates it with TeamMerge.' });
      }
      if (own && !allowWrite.includes(own)) {
        allowWrite.push(own);
        if (!policy.areas.some((a) => a.path === own)) {
          policy.areas.push({ path: own, writable: true, rule: 'own worktree metadata', why: '', instead: '' });
          for (const f of pointers) policy.areas.push({ path: f, writable: false, rule: 'where git finds your repository is read-only', why: 'git run outside the sandbox (TeamMerge, git worktree remove) follows this file', instead: 'Leave .git, commondir and gitdir as they are; use git commands in your worktree.' });
        }
      }
      for (const d of policy.denyWriteDirs) ensureDenyDir(d);
      // A deny under a directory that does not exist yet would make the engine block the directory itself (a
      // solo project without `.git` could not `git init`): it applies once its parent exists (the key follows).
      const denyWrite = [...policy.denyWrite.filter((p) => existsSync(path.dirname(p))), ...neighbours, ...pointers, ...branches];
      const key = [...allowWrite, ...denyWrite, ...policy.denyRead].map((p) => (existsSync(p) ? '1' : '0')).join('') + [...neighbours, ...pointers, ...branches].join('\0');
      if (!cached || cached.key !== key) {
        const line = await wrapCommand(inner, { allowWrite, denyWrite, denyRead: policy.denyRead }, policy.allowedDomains, signal);
        // A line that refers to descriptors the engine opened for this one wrap (`--args`) is not reusable.
        cached = /\s--args\s/.test(line) ? null : { key, line };
        return `export ${COMMAND_VAR}=${shellQuote(command)}; ${line}`;
      }
      return `export ${COMMAND_VAR}=${shellQuote(command)}; ${cached.line}`;
    },
    explain(output, cwd) {
      return explainRefusal(output, cwd, policy);
    },
  };
}
