import type { TeamStore } from '../../core/team/index.js';
import type { LaunchedTeammate, SpawnRequest, TeammateLauncher } from '../../core/teams/launcher.js';
import { resolveEnv } from '../../core/teams/launchers/env.js';
import { PtyProcess, type PtyExit } from '../../core/teams/launchers/pty-process.js';
import type { AgentTerminal } from './terminal.js';

export interface PtyLauncherHooks {
  /** The terminal the agent's output goes to (created on first use). */
  terminal(agent: string): AgentTerminal;
  /** Called once the child and its output tail are fully read. */
  exited(agent: string, spawn: SpawnRequest, exit: PtyExit): void;
}

interface Running extends LaunchedTeammate {
  readonly request: SpawnRequest;
}

/**
 * The host's TeammateLauncher: every teammate runs in a node-pty the host owns; its output goes to its
 * terminal (views) and to `agents/<name>/output.log` (the record) through the store.
 */
export class PtyLauncher implements TeammateLauncher {
  readonly kind = 'desktop';
  private readonly running = new Map<string, Running>();

  constructor(
    private readonly store: TeamStore,
    private readonly hooks: PtyLauncherHooks,
  ) {}

  async launch(req: SpawnRequest & { inherit_env?: string[] }): Promise<LaunchedTeammate> {
    const existing = this.running.get(req.agent);
    if (existing) throw new Error(`${req.agent} is already running in this host (pid ${existing.pid})`);
    let proc: PtyProcess;
    try {
      proc = new PtyProcess(req.argv, { cwd: req.cwd, env: resolveEnv(req), cols: req.cols, rows: req.rows });
    } catch (err) {
      throw new Error(`cannot start ${req.agent}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const terminal = this.hooks.terminal(req.agent);
    const log = this.store.outputs.append(req.agent, req.spawn_id);
    proc.onData((d) => {
      log.write(d);
      terminal.push(d);
    });
    terminal.setInput({
      mode: { kind: 'pty', pid: proc.pid },
      pause: () => proc.pause(),
      resume: () => proc.resume(),
      write: (d) => proc.write(d),
      resize: (c, r) => proc.resize(c, r),
    });
    const exited = proc.exited.then(async (exit) => {
      await log.close();
      this.running.delete(req.agent);
      terminal.setInput(null);
      this.hooks.exited(req.agent, req, exit);
      return exit;
    });
    const launched: Running = {
      agent: req.agent,
      spawn_id: req.spawn_id,
      pid: proc.pid,
      exited,
      request: req,
      kill: (signal) => proc.kill(signal),
    };
    this.running.set(req.agent, launched);
    return launched;
  }

  live(): LaunchedTeammate[] {
    return [...this.running.values()];
  }

  get(agent: string): Running | undefined {
    return this.running.get(agent);
  }

  async dispose(): Promise<void> {
    const all = [...this.running.values()];
    for (const r of all) r.kill('SIGTERM');
    const killTimer = setTimeout(() => {
      for (const r of all) r.kill('SIGKILL');
    }, 3000);
    await Promise.all(all.map((r) => r.exited));
    clearTimeout(killTimer);
  }
}
