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

  constructor(
    private readonly write: (s: string) => void,
    private readonly paint: Painter,
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

  events(): LoopEvents {
    return {
      onText: (d) => this.out(d),
      onToolCall: (c) => this.line(this.paint.cyan(`● ${c.name}`) + ` ${c.summary}`),
      onToolResult: (r) => {
        const lines = r.content.split('\n');
        const shown = lines.slice(0, RESULT_LINES).map((l, i) => `${i === 0 ? '  ⎿ ' : '    '}${l}`);
        if (lines.length > RESULT_LINES) shown.push(`    … ${lines.length - RESULT_LINES} more lines`);
        const text = shown.join('\n');
        this.line(r.isError ? this.paint.red(text) : this.paint.dim(text));
      },
      onRetry: (i) => this.line(this.paint.dim(`(retry ${i.attempt} in ${(i.delayMs / 1000).toFixed(1)} s: ${i.reason})`)),
    };
  }
}
