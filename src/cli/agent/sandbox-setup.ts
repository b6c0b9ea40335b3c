/** Builds the agent's OS sandbox for its role, prints the one start-up warning, and adds `/sandbox`. */
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { Settings } from '../../core/agent/settings.js';
import type { Role } from '../../core/guard/types.js';
import { gitOut } from '../../core/git.js';
import { localSettingsPath, projectSettingsPath, userSettingsPath } from '../../core/agent/settings.js';
import { createRoleSandbox, currentSandboxStatus, describeSandboxStatus, layeredSandboxSettings, quickCheck, sandboxSettings, SandboxSettingsError, setSandboxStatus, type RoleSandbox, type SandboxStatus } from '../../core/sandbox/index.js';
import { readSettingsLayer as readLayer } from '../../core/sandbox/workspace-status.js';
import { CliError } from '../errors.js';
import { registerSlashCommand } from './hooks.js';

function canonical(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** The repository's shared git directory (a worktree's `.git` is a file pointing into it). */
function gitCommonDir(cwd: string): string | undefined {
  const out = gitOut(cwd, ['rev-parse', '--path-format=absolute', '--git-common-dir'], { timeoutMs: 5000 });
  return out ? canonical(out) : undefined;
}

export interface SandboxSetup {
  role: Role;
  cwd: string;
  projectRoot: string;
  agentName?: string;
  settings: Settings;
  interactive?: boolean;
  /** `--add-dir` (canonical): the workspace's other directories. */
  additionalDirs?: readonly string[];
  /** Where the warning goes (stderr). */
  warn?: (line: string) => void;
}

export function setupSandbox(s: SandboxSetup): RoleSandbox & { warm(): Promise<void> } {
  const warn = s.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  let settings;
  try {
    // Validate the merged view first (one error naming the key), then apply the layers' trust rules.
    sandboxSettings(s.settings as Record<string, unknown>);
    // `settings.local.json` sits in the project too: it counts as the project's, trusted folder or not.
    const project = { ...readLayer(projectSettingsPath(s.projectRoot)), ...readLayer(localSettingsPath(s.projectRoot)) };
    const layered = layeredSandboxSettings(readLayer(userSettingsPath()), project);
    settings = layered.settings;
    if (layered.ignored.length > 0) warn(`thclaws: warning: project settings ${layered.ignored.join(', ')} ignored — loosening the sandbox is a user setting (${userSettingsPath()})`);
  } catch (err) {
    if (err instanceof SandboxSettingsError) throw new CliError(err.message);
    throw err;
  }
  const cwd = canonical(s.cwd);
  // The team root even when the project root given is a worktree (`<root>/.worktrees/<name>`).
  const parts = canonical(s.projectRoot).split(path.sep);
  const wt = parts.indexOf('.worktrees');
  const root = wt > 0 && wt < parts.length - 1 ? parts.slice(0, wt).join(path.sep) || path.sep : parts.join(path.sep);
  const common = s.role === 'solo' ? undefined : gitCommonDir(cwd);
  const sandbox = createRoleSandbox(
    { role: s.role, workspaceRoot: root, cwd, ...(s.agentName ? { agentName: s.agentName } : {}), ...(common ? { gitCommonDir: common } : {}), ...(s.additionalDirs?.length ? { additionalDirs: s.additionalDirs } : {}) },
    settings,
  );
  const tail = settings.sandbox === 'required' ? ' Bash is disabled (setting sandbox: "required").' : '';
  // One warning: at once when the platform or a binary is missing, else when the first real probe fails.
  const quick = settings.sandbox === 'off' ? null : quickCheck();
  if (quick) {
    setSandboxStatus(quick);
    warn(`thclaws: warning: ${describeSandboxStatus(quick)}.${tail}`);
  }
  const first = sandbox.ready;
  let warned = quick !== null;
  const ready = (): Promise<SandboxStatus> =>
    first().then((st) => {
      if (st.state === 'guards-only' && !warned) {
        warned = true;
        warn(`thclaws: warning: ${describeSandboxStatus(st)}.${tail}`);
      }
      return st;
    });
  // A person at a REPL (and the dashboard) sees the status soon after start; `-p` runs probe on first Bash.
  // Loading the engine costs ~150 ms of main-thread time: after the prompt is up, not before.
  if (s.interactive && !quick) setTimeout(() => void ready(), 1000).unref();
  // The probe and the wrapped line (~200-500 ms cold; the line does not depend on the command), once. The
  // first sandboxed run makes the mount points of absent protected paths (`.worktrees`), which changes the
  // line: one no-op run and a second wrap settle it, so no real command pays for it.
  let warmed: Promise<void> | undefined;
  const warm = (): Promise<void> =>
    (warmed ??= ready()
      .then(async (st) => {
        if (st.state !== 'os') return;
        const signal = new AbortController().signal;
        const line = await sandbox.wrap(':', signal);
        await new Promise<void>((resolve) => {
          const c = spawn('/bin/sh', ['-c', line], { cwd: s.cwd, stdio: 'ignore' });
          c.on('error', () => resolve());
          c.on('exit', () => resolve());
        });
        await sandbox.wrap(':', signal);
      })
      .catch(() => {}));
  // A teammate waits for work first: warm before its first command, so an approved command starts at once.
  if (s.role === 'teammate' && !s.interactive && !quick) setTimeout(() => void warm(), 0).unref();
  return { ...sandbox, ready, warm, wrap: async (command, signal) => (await ready(), sandbox.wrap(command, signal)) };
}

registerSlashCommand('sandbox', {
  help: 'whether Bash runs in the OS sandbox, and why not',
  run: ({ print }) => print(describeSandboxStatus(currentSandboxStatus())),
});
