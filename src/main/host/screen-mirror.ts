import serializePkg from '@xterm/addon-serialize';
import unicodePkg from '@xterm/addon-unicode11';
import headlessPkg from '@xterm/headless';
import { FLOW } from '../../contract/api.js';
import { unfinishedTail } from './escape-seam.js';

// The xterm packages are CommonJS bundles: their classes come off the default export under Node's ESM.
const { Terminal } = headlessPkg;
const { SerializeAddon } = serializePkg;
const { Unicode11Addon } = unicodePkg;

/** A screen whose output paused this long is serialized ahead of a view asking for it (ms). */
export const QUIET_MS = 1000;
/** Output parsed since the last serialization that a snapshot still sends raw rather than serializing again. */
const SINCE_LIMIT = 64 * 1024;

/** The screen as a view needs it to start: the serialized state at `seq`, then the stream from `seq` on. */
export interface ScreenSnapshot {
  /** Stream offset the state stands at: the raw `tail` starts here, live output after it. */
  seq: number;
  /** Escape sequences that rebuild the screen, its scrollback, cursor and modes in a reset terminal. */
  state: string;
  /** Output received but not parsed yet, sent raw after the state so nothing is lost or doubled. */
  tail: string;
}

/**
 * A headless terminal that parses one pty's output as the views would, so a view that (re)attaches gets the
 * screen (not the last megabyte of bytes, which may start mid-escape and lose what scrolled or was redrawn).
 * Writes are batched per `batchMs`; each batch is parsed whole and its callback advances `parsed`, so between
 * batches the state is exactly the stream up to `parsed` — the seam a snapshot is taken at.
 */
export class ScreenMirror {
  private readonly term: InstanceType<typeof Terminal>;
  private readonly serializer: InstanceType<typeof SerializeAddon>;
  /** Stream offset the terminal's state has parsed up to. */
  private parsedSeq = 0;
  /**
   * The escape sequence the parsed stream ends inside, if a batch ended mid-sequence (see escape-seam.ts): a
   * screen serialized now is sent with it, so the output after `parsed` completes it instead of printing its rest.
   */
  private open = '';
  /** Batches handed to xterm and not parsed yet (oldest first), then what waits for the next batch. */
  private inflight: string[] = [];
  private waiting: string[] = [];
  private backlogChars = 0;
  private timer: NodeJS.Timeout | null = null;
  private disposed = false;
  /**
   * The screen serialized at `seq`, and the output parsed since (`since`, raw): until that grows past
   * SINCE_LIMIT or the screen is resized, a snapshot is that copy plus the raw output after it — the same
   * screen, without serializing 1000 lines of scrollback again for a few lines of new output.
   */
  private cached: { seq: number; state: string; since: string[]; sinceChars: number } | null = null;
  private quietTimer: NodeJS.Timeout | null = null;

  constructor(
    /** Called after each batch is parsed (the flow gate re-checks the backlog). */
    private readonly onParsed: () => void = () => {},
    // The size a pty is spawned at before any view reports one.
    cols = 120,
    rows = 32,
    private readonly batchMs: number = FLOW.batchMs,
    private readonly quietMs: number = QUIET_MS,
  ) {
    this.term = new Terminal({ cols, rows, scrollback: FLOW.scrollbackLines, allowProposedApi: true });
    this.serializer = new SerializeAddon();
    this.term.loadAddon(this.serializer);
    // The same character widths as the views' terminals, or wide characters would shift the restored screen.
    this.term.loadAddon(new Unicode11Addon());
    this.term.unicode.activeVersion = '11';
  }

  /** Characters received and not parsed yet (the flow gate counts them: the parser must keep up). */
  get backlog(): number {
    return this.backlogChars;
  }

  /** Characters handed to the parser and not parsed yet (tests check they catch that seam). */
  get inParser(): number {
    let n = 0;
    for (const b of this.inflight) n += b.length;
    return n;
  }

  get parsed(): number {
    return this.parsedSeq;
  }

  push(data: string): void {
    if (!data || this.disposed) return;
    this.waiting.push(data);
    this.backlogChars += data.length;
    if (!this.timer) this.timer = setTimeout(() => this.flush(), this.batchMs);
  }

  /** Hands what waits to xterm as one write. */
  private flush(): void {
    this.timer = null;
    if (!this.waiting.length || this.disposed) return;
    const batch = this.waiting.length === 1 ? this.waiting[0]! : this.waiting.join('');
    this.waiting = [];
    this.inflight.push(batch);
    this.term.write(batch, () => {
      if (this.disposed) return;
      this.inflight.shift();
      this.parsedSeq += batch.length;
      this.backlogChars -= batch.length;
      this.open = unfinishedTail(this.open, batch);
      if (this.cached) {
        this.cached.since.push(batch);
        this.cached.sinceChars += batch.length;
        if (this.cached.sinceChars > SINCE_LIMIT) this.cached = null;
      }
      this.onParsed();
      this.serializeWhenQuiet();
    });
  }

  /**
   * Serializes the screen once its output has paused for a while, so a dashboard coming back to a team that is
   * waiting (the usual case: a person returns to agents that finished their turns) gets every screen at once,
   * without serializing 1000 lines of scrollback per pane at that moment. Output that keeps coming re-arms it.
   */
  private serializeWhenQuiet(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => {
      this.quietTimer = null;
      if (!this.disposed && !this.inflight.length && !this.waiting.length) this.serialized(true);
    }, this.quietMs);
    this.quietTimer.unref();
  }

  /** The copy to restore from; `fresh`: serialized at `parsed` (a quiet moment, so `since` starts empty). */
  private serialized(fresh: boolean): { seq: number; state: string; since: string[] } {
    if (!this.cached || (fresh && this.cached.seq !== this.parsedSeq)) {
      const state = this.serializer.serialize({ scrollback: FLOW.scrollbackLines }) + this.open;
      this.cached = { seq: this.parsedSeq, state, since: [], sinceChars: 0 };
      this.serializeCount++;
    }
    return this.cached;
  }

  private serializeCount = 0;

  /** How many times the screen was serialized (tests: ahead of time, and not again while unchanged). */
  get serializations(): number {
    return this.serializeCount;
  }

  /** The screen now: a serialized state and the raw output after it (see ScreenSnapshot). */
  snapshot(): ScreenSnapshot {
    const c = this.serialized(false);
    const tail = c.since.concat(this.inflight, this.waiting).join('');
    return { seq: c.seq, state: c.state, tail };
  }

  /** The pty's new size: the program redraws for it, and the mirror reflows as the views do. */
  resize(cols: number, rows: number): void {
    if (this.disposed || (cols === this.term.cols && rows === this.term.rows)) return;
    this.term.resize(cols, rows);
    // The screen reflowed: what was serialized before no longer stands for it.
    this.cached = null;
    this.serializeWhenQuiet();
  }

  get cols(): number {
    return this.term.cols;
  }

  get rows(): number {
    return this.term.rows;
  }

  /** The terminal's text, line by line (trailing blanks trimmed): tests compare views against it. */
  text(): string {
    return bufferText(this.term);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.timer = null;
    this.cached = null;
    this.term.dispose();
  }
}

/** An xterm buffer's lines as text; the same reading the renderer's terminals expose to tests. */
export function bufferText(term: { buffer: { active: { length: number; getLine(i: number): { translateToString(trim?: boolean): string } | undefined } } }): string {
  const buf = term.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < buf.length; i++) lines.push(buf.getLine(i)?.translateToString(true) ?? '');
  return lines.join('\n');
}
