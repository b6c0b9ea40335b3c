/**
 * Background shells: Bash `run_in_background` starts one and returns its id, BashOutput reads what it
 * printed since the last read, KillShell ends it. Process groups of finished foreground commands whose
 * children kept running are tracked too. `killAll` ends every group (SIGKILL) when the agent exits.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { killGroup } from './spawn.js';

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
  /** Groups left behind by foreground commands (`npm run dev &`). */
  private readonly strayGroups = new Set<number>();
  private next = 1;

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
    if (shell.status === 'running') {
      shell.status = 'killed';
      killGroup(shell.pid, 'SIGTERM');
      // Anything that ignores SIGTERM gets SIGKILL shortly after; unref'd so it never holds the process open.
      setTimeout(() => killGroup(shell.pid, 'SIGKILL'), 500).unref();
    }
    return shell;
  }

  trackStray(pid: number | undefined): void {
    if (pid !== undefined) this.strayGroups.add(pid);
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
