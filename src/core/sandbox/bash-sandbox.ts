/** The OS sandbox bound to one agent's role: what the Bash tool calls right before it spawns a command. */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BashSandbox } from '../agent/types.js';
import { explainRefusal } from './explain.js';
import { otherWorktreeAdmins, policyFor, type PolicyInput, type SandboxPolicy } from './policy.js';
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

/** Read at every wrap: worktrees come and go while a teammate runs. */
function neighbourAdmins(policy: SandboxPolicy): string[] {
  if (policy.role !== 'teammate' || !policy.ownWorktree) return [];
  let entries: string[] = [];
  let ownGit: string | null = null;
  try {
    entries = readdirSync(path.join(policy.gitDir, 'worktrees'));
    ownGit = readFileSync(path.join(policy.ownWorktree, '.git'), 'utf8');
  } catch {
    return [];
  }
  return otherWorktreeAdmins(policy, entries, ownGit);
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
      const neighbours = neighbourAdmins(policy);
      // A deny under a directory that does not exist yet would make the engine block the directory itself (a
      // solo project without `.git` could not `git init`): it applies once its parent exists (the key follows).
      const denyWrite = [...policy.denyWrite.filter((p) => existsSync(path.dirname(p))), ...neighbours];
      const key = [...allowWrite, ...denyWrite, ...policy.denyRead].map((p) => (existsSync(p) ? '1' : '0')).join('') + neighbours.join('\0');
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
