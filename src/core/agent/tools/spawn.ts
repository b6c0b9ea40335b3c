/**
 * The one place a shell command is spawned (foreground and background): `sh -c` without a terminal, in its
 * own process group (so a kill reaches everything it started), after the OS sandbox's wrap if any.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { ToolContext } from '../types.js';

/**
 * The agent's own model credentials. A command has no use for them, and with the network open a command the
 * model writes could send them anywhere: they are not passed on (a project whose tests need a key sets its own).
 */
const AGENT_SECRETS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'] as const;

/** Environment that keeps tools from waiting on a person: no pagers, no editors, no prompts. */
function commandEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of AGENT_SECRETS) delete env[k];
  return {
    ...env,
    CI: '1',
    TERM: 'dumb',
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    GIT_TERMINAL_PROMPT: '0',
    NPM_CONFIG_YES: 'true',
    EDITOR: 'true',
    VISUAL: 'true',
    GIT_EDITOR: 'true',
  };
}

export async function spawnShell(command: string, ctx: Pick<ToolContext, 'cwd' | 'sandbox'>, signal: AbortSignal): Promise<ChildProcessWithoutNullStreams> {
  command = ctx.sandbox ? await ctx.sandbox.wrap(command, signal) : command;
  // `detached` makes the shell a process-group leader (setsid) on POSIX; stdin stays closed.
  return spawn('/bin/sh', ['-c', command], { cwd: ctx.cwd, env: commandEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true }) as unknown as ChildProcessWithoutNullStreams;
}

/** Signals a whole process group; a group already gone is fine. */
/** Whether process group `pid` has a member (EPERM: it has one this user may not signal). */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
