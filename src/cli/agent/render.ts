/** Terminal rendering of a turn: streamed text, tool calls and short tool results. */
import type { LoopEvents } from '../../core/agent/loop.js';
import { LiveTail, type SaveOutput } from './live-tail.js';

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

  private readonly tail: LiveTail;
  /** The last result cut short on screen, whole: what the expander (Ctrl-O) shows. */
  private lastCut: { name: string; text: string } | undefined;

  private inThinking = false;
  private thoughtWords = 0;
  private thoughtTail = '';

  constructor(
    private readonly write: (s: string) => void,
    private readonly paint: Painter,
    /**
     * `full`: every line of tool results and thinking as it streams (--verbose, or no terminal).
     * Otherwise thinking is one live status line that collapses to a summary; /thinking shows it whole.
     */
    private readonly opts: {
      full?: boolean;
      columns?: () => number;
      /** Where a result cut short on screen is saved whole (its path is printed with the result). */
      saveOutput?: SaveOutput;
      /** The key that shows the last cut result whole (the REPL's Ctrl-O); teammates have none. */
      expandKey?: string;
    } = {},
  ) {
    this.tail = new LiveTail(write, paint, () => opts.columns?.() ?? 80);
  }

  private out(s: string): void {
    if (!s) return;
    this.tail.erase();
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

  /** Thinking, dimmed: streamed under a `✻ thinking` header (full), or as one live line that collapses. */
  private thinking(d: string): void {
    if (!this.inThinking) {
      this.inThinking = true;
      this.thoughtWords = 0;
      this.thoughtTail = '';
      if (this.opts.full) this.line(this.paint.dim('✻ thinking'));
      else this.newline();
    }
    this.thoughtWords += d.split(/\s+/).filter(Boolean).length;
    if (this.opts.full) {
      this.out(this.paint.dim(d));
      return;
    }
    const width = Math.max(20, (this.opts.columns?.() ?? 80) - 16);
    this.thoughtTail = (this.thoughtTail + d).replace(/\s+/g, ' ').slice(-width);
    this.tail.erase();
    this.write(`\r\x1b[2K${this.paint.dim(`✻ thinking… ${this.thoughtTail}`)}`);
    this.atLineStart = false;
  }

  private endThinking(): void {
    if (!this.inThinking) return;
    this.inThinking = false;
    if (this.opts.full) return this.newline();
    this.write(`\r\x1b[2K`);
    this.atLineStart = true;
    this.line(this.paint.dim(`✻ thought for ${this.thoughtWords} words · /thinking shows it`));
  }

  private text(d: string): void {
    this.endThinking();
    this.out(d);
  }

  /** A tool's result: its first lines, then how many more and where they are (saved file, expander key). */
  private result(r: { id: string; name: string; content: string; isError: boolean }, streamed: string | undefined): void {
    const lines = r.content.split('\n');
    const max = this.opts.full ? Infinity : RESULT_LINES;
    const shown = lines.slice(0, max).map((l, i) => `${i === 0 ? '  ⎿ ' : '    '}${l}`);
    if (lines.length > max) {
      // What streamed is the command's own output, uncut; the result's last line says how it ended.
      const whole = streamed ? `${streamed.trimEnd()}\n${lines.at(-1)}` : r.content;
      this.lastCut = { name: r.name, text: whole };
      const saved = this.opts.saveOutput?.(whole, r);
      const where = [this.opts.expandKey ? `${this.opts.expandKey} shows them` : '', saved ? `all in ${saved}` : ''].filter(Boolean).join(' · ');
      shown.push(`    … ${lines.length - max} more lines${where ? ` (${where})` : ''}`);
    }
    const text = shown.join('\n');
    this.line(r.isError ? this.paint.red(text) : this.paint.dim(text));
  }

  /** The expander: the last result that was cut short on screen, whole. */
  showLastCut(): void {
    if (!this.lastCut) return this.line(this.paint.dim('(no cut-short tool output to show yet)'));
    const { name, text } = this.lastCut;
    this.line(this.paint.dim(`── ${name} output, whole ──`));
    this.line(text.trimEnd());
    this.line(this.paint.dim(`── end of ${name} output ──`));
  }

  events(): LoopEvents {
    const endThinking = () => this.endThinking();
    return {
      onText: (d) => this.text(d),
      onThinking: (d) => this.thinking(d),
      onResponse: endThinking,
      onToolCall: (c) => {
        endThinking();
        this.line(this.paint.cyan(`● ${c.name}`) + ` ${c.summary}`);
        // The whole output is printed at the end anyway when nothing is cut (--verbose, no terminal).
        if (!this.opts.full) this.tail.begin(c.id);
      },
      onToolOutput: (o) => this.tail.push(o.id, o.chunk),
      onToolResult: (r) => this.result(r, this.tail.end(r.id)),
      onRetry: (i) => this.line(this.paint.dim(`(retry ${i.attempt} in ${(i.delayMs / 1000).toFixed(1)} s: ${i.reason})`)),
      onModelFallback: (f) => this.line(this.paint.dim(`(${f.from} ${f.trigger === 'model_not_found' ? 'is not available' : 'is overloaded'}: this turn goes on with ${f.to})`)),
    };
  }
}
