import type { TeamStore } from '../../store/index.js';
import type { LaunchedTeammate, SpawnRequest, TeammateLauncher } from '../launcher.js';
import { resolveEnv } from './env.js';
import type { PtyExit, PtyProcess } from './pty-process.js';

/** Controls of a running pty, for whoever shows it (the desktop host's terminal: typing, resizing, flow control). */
export interface PtyInput {
  readonly mode: { kind: 'pty'; pid: number };
  pause(): void;
  resume(): void;
  write(data: string): void;
  resize(cols: number, rows: number): void;
}

/** Where a pty's output goes besides output.log, and who takes its input. */
export interface PtyView {
  push(data: string): void;
  setInput(input: PtyInput | null): void;
}

export interface PtyLauncherHooks {
  /** The view of the agent's output (the desktop host's terminal); none without one. */
  terminal?(agent: string): PtyView;
  /** Called once the child and its output tail are fully read and output.log is closed. */
  exited?(agent: string, spawn: SpawnRequest, exit: PtyExit): void;
}

interface Running extends LaunchedTeammate {
  readonly request: SpawnRequest;
}

/**
 * The one pty launcher: each teammate in a pseudo-terminal (node-pty) through the tail-safe PtyProcess, its
 * output appended to output.log through the store (and pushed to a view when the host shows it); exit is
 * reported only once the log holds every byte. Used by the host (`thclaws host`, the dashboard's).
 */
export class PtyLauncher implements TeammateLauncher {
  readonly kind = 'host';
  private readonly running = new Map<string, Running>();
  /** Names between the check and the start (node-pty is loaded in between): a second launch of one is refused. */
  private readonly starting = new Set<string>();

  constructor(
    private readonly store: TeamStore,
    private readonly hooks: PtyLauncherHooks = {},
  ) {}

  async launch(req: SpawnRequest): Promise<LaunchedTeammate> {
    const existing = this.running.get(req.agent);
    if (existing) throw new Error(`${req.agent} is already running in this host (pid ${existing.pid})`);
    // Two launches at once (Resume clicked twice) both passed the check and left a second process untracked.
    if (this.starting.has(req.agent)) throw new Error(`${req.agent} is already starting in this host`);
    this.starting.add(req.agent);
    let PtyProcess: typeof import('./pty-process.js').PtyProcess;
    try {
      // Loaded on first use: node-pty is native and most CLI runs never need it.
      ({ PtyProcess } = await import('./pty-process.js'));
    } finally {
      this.starting.delete(req.agent);
    }
    let proc: PtyProcess;
    try {
      proc = new PtyProcess(req.argv, { cwd: req.cwd, env: resolveEnv(req), cols: req.cols ?? 120, rows: req.rows ?? 32 });
    } catch (err) {
      throw new Error(`cannot start ${req.agent}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const view = this.hooks.terminal?.(req.agent);
    const log = this.store.outputs.append(req.agent, req.spawn_id);
    proc.onData((d) => {
      log.write(d);
      view?.push(d);
    });
    view?.setInput({
      mode: { kind: 'pty', pid: proc.pid },
      pause: () => proc.pause(),
      resume: () => proc.resume(),
      write: (d) => proc.write(d),
      resize: (c, r) => proc.resize(c, r),
    });
    const exited = proc.exited.then(async (exit) => {
      await log.close();
      this.running.delete(req.agent);
      view?.setInput(null);
      this.hooks.exited?.(req.agent, req, exit);
      return exit;
    });
    const launched: Running = { agent: req.agent, spawn_id: req.spawn_id, pid: proc.pid, exited, request: req, kill: (signal) => proc.kill(signal) };
    this.running.set(req.agent, launched);
    return launched;
  }

  live(): LaunchedTeammate[] {
    return [...this.running.values()];
  }

  get(agent: string): Running | undefined {
    return this.running.get(agent);
  }

  /** SIGTERM to every child (its process group), SIGKILL after 3 s; resolves once all have exited. */
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
