/** Terminal rendering of a turn: streamed text, tool calls and short tool results. */
import type { LoopEvents } from '../../core/agent/loop.js';

const RESULT_LINES = 6;

export interface Painter {
  dim(s: string): string;
  red(s: string): string;
  cyan(s: string): string;
}

export function painter(color: boolean): Painter {
  const wrap = (code: number) => (s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
  return { dim: wrap(2), red: wrap(31), cyan: wrap(36) };
}

export class TurnRenderer {
  private atLineStart = true;

  private inThinking = false;

  constructor(
    private readonly write: (s: string) => void,
    private readonly paint: Painter,
    /** `full`: every line of tool results (--verbose). */
    private readonly opts: { full?: boolean } = {},
  ) {}

  private out(s: string): void {
    if (!s) return;
    this.write(s);
    this.atLineStart = s.endsWith('\n');
  }

  /** Starts a fresh line if the cursor is mid-line. */
  newline(): void {
    if (!this.atLineStart) this.out('\n');
  }

  line(s: string): void {
    this.newline();
    this.out(`${s}\n`);
  }

  /** Thinking is shown dimmed under a `✻ thinking` header; the answer text starts on a fresh line after it. */
  private thinking(d: string): void {
    if (!this.inThinking) {
      this.line(this.paint.dim('✻ thinking'));
      this.inThinking = true;
    }
    this.out(this.paint.dim(d));
  }

  private text(d: string): void {
    if (this.inThinking) {
      this.inThinking = false;
      this.newline();
    }
    this.out(d);
  }

  events(): LoopEvents {
    const endThinking = () => {
      if (this.inThinking) this.inThinking = false;
    };
    return {
      onText: (d) => this.text(d),
      onThinking: (d) => this.thinking(d),
      onResponse: endThinking,
      onToolCall: (c) => (endThinking(), this.line(this.paint.cyan(`● ${c.name}`) + ` ${c.summary}`)),
      onToolResult: (r) => {
        const lines = r.content.split('\n');
        const max = this.opts.full ? Infinity : RESULT_LINES;
        const shown = lines.slice(0, max).map((l, i) => `${i === 0 ? '  ⎿ ' : '    '}${l}`);
        if (lines.length > max) shown.push(`    … ${lines.length - max} more lines`);
        const text = shown.join('\n');
        this.line(r.isError ? this.paint.red(text) : this.paint.dim(text));
      },
      onRetry: (i) => this.line(this.paint.dim(`(retry ${i.attempt} in ${(i.delayMs / 1000).toFixed(1)} s: ${i.reason})`)),
    };
  }
}
