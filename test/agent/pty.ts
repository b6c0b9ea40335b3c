/** Drives the real CLI in a pseudo-terminal: wait for text after the last match, type, check exit. */
import pty from '@lydell/node-pty';
import { BIN } from './helpers.js';

export class PtySession {
  private buf = '';
  private mark = 0;
  private readonly proc: pty.IPty;
  readonly exited: Promise<{ exitCode: number; signal?: number }>;

  constructor(args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }) {
    this.proc = pty.spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd,
      env: { TERM: 'xterm-256color', ...opts.env } as Record<string, string>,
      cols: 120,
      rows: 40,
    });
    this.proc.onData((d) => (this.buf += d));
    this.exited = new Promise((resolve) => this.proc.onExit(resolve));
  }

  get output(): string {
    return this.buf;
  }

  /** Resolves when `text` appears after the previous match; the error shows what was seen instead. */
  async waitFor(text: string, timeoutMs = 15_000): Promise<void> {
    const t0 = Date.now();
    for (;;) {
      const i = this.buf.indexOf(text, this.mark);
      if (i >= 0) {
        this.mark = i + text.length;
        return;
      }
      if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${JSON.stringify(text)}; output since last match:\n${JSON.stringify(this.buf.slice(this.mark))}`);
      await new Promise((f) => setTimeout(f, 20));
    }
  }

  /** Text after the previous match, not consumed. */
  pending(): string {
    return this.buf.slice(this.mark);
  }

  type(s: string): void {
    this.proc.write(s);
  }

  kill(): void {
    try {
      this.proc.kill('SIGKILL');
    } catch {
      // already exited
    }
  }
}
