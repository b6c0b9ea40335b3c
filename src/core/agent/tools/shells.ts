/**
 * Background shells: Bash `run_in_background` starts one and returns its id, BashOutput reads what it
 * printed since the last read, KillShell ends it. Process groups of foreground commands are tracked too,
 * while they run and after, for children they left running. `killAll` ends every group (SIGKILL) when the
 * agent exits or is told to end; `onGroups` hears of each change, for a record that outlives the process.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { groupAlive, killGroup } from './spawn.js';

const SWEEP_MS = 2000;

/** Unread output kept per shell; older unread output is dropped with a note. */
const KEEP_CHARS = 512 * 1024;

export interface BackgroundShell {
  id: string;
  command: string;
  pid: number | undefined;
  status: 'running' | 'exited' | 'killed';
  exitCode?: number | string;
  unread: string;
  droppedChars: number;
}

export class ShellRegistry {
  private readonly shells = new Map<string, BackgroundShell>();
  /** Groups of foreground commands: running, or left behind with children (`npm run dev &`). */
  private readonly strayGroups = new Set<number>();
  private next = 1;
  private sweeper?: NodeJS.Timeout;
  private listener?: (pgids: number[]) => void;
  private told = '';

  /** Hears the live groups (their leaders' pids) whenever they change; called at once, synchronously. */
  onGroups(listener: (pgids: number[]) => void): void {
    this.listener = listener;
    this.told = '';
    this.changed();
  }

  /** Every group this registry would kill. */
  groups(): number[] {
    const pids = new Set(this.strayGroups);
    for (const s of this.shells.values()) if (s.pid !== undefined && (s.status === 'running' || groupAlive(s.pid))) pids.add(s.pid);
    return [...pids];
  }

  private changed(): void {
    if (!this.listener) return;
    const now = this.groups();
    const key = now.join(',');
    if (key === this.told) return;
    this.told = key;
    this.listener(now);
  }

  /**
   * Forgets groups that no longer exist, so a later pid reuse is never killed by `killAll`. Unref'd: it
   * never keeps the agent alive.
   */
  private sweep(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      for (const pid of this.strayGroups) if (!groupAlive(pid)) this.strayGroups.delete(pid);
      for (const s of this.shells.values()) if (s.pid !== undefined && s.status !== 'running' && !groupAlive(s.pid)) s.pid = undefined;
      if (!this.strayGroups.size && ![...this.shells.values()].some((s) => s.pid !== undefined)) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
      this.changed();
    }, SWEEP_MS);
    this.sweeper.unref();
  }

  add(command: string, child: ChildProcessWithoutNullStreams): BackgroundShell {
    const shell: BackgroundShell = { id: `shell_${this.next++}`, command, pid: child.pid, status: 'running', unread: '', droppedChars: 0 };
    const onData = (b: Buffer) => {
      shell.unread += b.toString('utf8');
      if (shell.unread.length > KEEP_CHARS) {
        shell.droppedChars += shell.unread.length - KEEP_CHARS;
        shell.unread = shell.unread.slice(-KEEP_CHARS);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code, signal) => {
      if (shell.status === 'running') shell.status = 'exited';
      shell.exitCode = code ?? signal ?? undefined;
    });
    child.on('error', (err) => {
      shell.status = 'exited';
      shell.unread += `\n[could not start: ${err.message}]`;
    });
    // A background shell never keeps the agent alive; the agent's exit kills it.
    child.unref();
    (child.stdout as unknown as { unref?(): void }).unref?.();
    (child.stderr as unknown as { unref?(): void }).unref?.();
    this.shells.set(shell.id, shell);
    this.sweep();
    this.changed();
    return shell;
  }

  get(id: string): BackgroundShell | undefined {
    return this.shells.get(id);
  }

  ids(): string[] {
    return [...this.shells.keys()];
  }

  /** New output since the last read, and the status. */
  read(id: string): { shell: BackgroundShell; output: string; dropped: number } | undefined {
    const shell = this.shells.get(id);
    if (!shell) return undefined;
    const out = { shell, output: shell.unread, dropped: shell.droppedChars };
    shell.unread = '';
    shell.droppedChars = 0;
    return out;
  }

  kill(id: string): BackgroundShell | undefined {
    const shell = this.shells.get(id);
    if (!shell) return undefined;
    // An exited shell may have left children in its group: they go too.
    if (shell.status === 'running' || (shell.pid !== undefined && groupAlive(shell.pid))) {
      shell.status = 'killed';
      killGroup(shell.pid, 'SIGTERM');
      // Anything that ignores SIGTERM gets SIGKILL shortly after; unref'd so it never holds the process open.
      setTimeout(() => killGroup(shell.pid, 'SIGKILL'), 500).unref();
    }
    return shell;
  }

  /** A foreground command's group, from its start: killed with the agent even while the command runs. */
  trackGroup(pid: number | undefined): void {
    if (pid === undefined) return;
    this.strayGroups.add(pid);
    this.sweep();
    this.changed();
  }

  /** Synchronous, so it also works from a process `exit` handler. */
  killAll(): void {
    for (const s of this.shells.values()) {
      if (s.status === 'running') s.status = 'killed';
      killGroup(s.pid, 'SIGKILL');
    }
    for (const pid of this.strayGroups) killGroup(pid, 'SIGKILL');
    this.strayGroups.clear();
  }
}
