import { FLOW, type HostEvent, type TerminalMode } from '../../contract/api.js';
import { FlowGate } from './flow.js';
import type { OutputScheduler, OutputSource } from './scheduler.js';
import { ScreenMirror } from './screen-mirror.js';
import { ViewSizes } from './view-sizes.js';

/** A connected view as a terminal sees it. */
export interface TerminalView {
  send(event: HostEvent): void;
}

/** Where a terminal's bytes come from: a pty the host owns, or a tail of someone else's output.log. */
export interface TerminalInput {
  readonly mode: TerminalMode;
  pause(): void;
  resume(): void;
  write?(data: string): void;
  resize?(cols: number, rows: number): void;
}

/**
 * One agent's terminal in the host: a stream of characters numbered by `seq`, its screen kept by a headless
 * terminal and restored to views that attach, batched sending through the shared scheduler, and per-view flow
 * control.
 */
export class AgentTerminal implements OutputSource {
  /** Characters ever emitted; `seq` of the next character. */
  private total = 0;
  private readonly screen: ScreenMirror;
  private pending: string[] = [];
  private pendingChars = 0;
  /** `seq` of the first pending character. */
  private pendingSeq = 0;
  private readonly views = new Set<TerminalView>();
  /** Each shown view's size; the pty gets the size of the view used last (see ViewSizes). */
  private readonly sizes = new ViewSizes<TerminalView>();
  private applied: { cols: number; rows: number } | null = null;
  private readonly gate: FlowGate<TerminalView>;
  /**
   * Views that fell behind (see FLOW.stallMs), with what they still have to acknowledge: sent nothing, left
   * out of the gate; once they have caught up they get the screen again, as on attach.
   */
  private readonly behind = new Map<TerminalView, number>();
  private stallTimer: NodeJS.Timeout | null = null;
  private input: TerminalInput | null = null;
  /** When a view last wrote to the terminal (the person typing), ms. */
  private typedAt = -Infinity;
  /** The last bytes the source printed, raw (escapes included): what a program drew last, not its look. */
  private lastRaw = '';

  constructor(
    readonly agent: string,
    private readonly scheduler: OutputScheduler,
  ) {
    this.gate = new FlowGate(
      () => {
        this.input?.pause();
        this.armStall();
      },
      () => this.input?.resume(),
      FLOW.highWater,
      FLOW.lowWater,
      () => this.screen.backlog,
    );
    this.screen = new ScreenMirror(() => this.gate.check(this.pendingChars));
  }

  /** The host's screen of this terminal (tests and the bench compare views against it). */
  get mirror(): ScreenMirror {
    return this.screen;
  }

  get mode(): TerminalMode | null {
    return this.input?.mode ?? null;
  }

  /** Typed into within the last second: what it prints now is most likely the echo the person waits for. */
  get interactive(): boolean {
    return Date.now() - this.typedAt < 1000;
  }

  get queued(): number {
    return this.pendingChars;
  }

  get seq(): number {
    return this.total;
  }

  /** The last (up to 256) characters of output, raw. */
  get recent(): string {
    return this.lastRaw;
  }

  setInput(input: TerminalInput | null): void {
    this.input = input;
    if (input && this.gate.isPaused) input.pause();
    // A new process (respawn) starts at the views' size, not at the spawn default.
    this.applied = null;
    this.applySize();
  }

  /** New output from the source. */
  push(data: string): void {
    if (!data) return;
    if (!this.pending.length) this.pendingSeq = this.total;
    this.total += data.length;
    this.lastRaw = (this.lastRaw + data).slice(-256);
    this.pending.push(data);
    this.pendingChars += data.length;
    this.screen.push(data);
    if (this.views.size) {
      this.scheduler.wake(this);
      this.gate.check(this.pendingChars);
    } else {
      this.dropPending();
    }
  }

  /** Sends up to `max` pending characters to every view as one output event (the batch). */
  drain(max: number): number {
    if (!this.pending.length || max <= 0) return 0;
    const parts: string[] = [];
    let taken = 0;
    while (this.pending.length && taken < max) {
      const head = this.pending[0]!;
      if (head.length > max - taken) {
        parts.push(head.slice(0, max - taken));
        this.pending[0] = head.slice(max - taken);
        taken = max;
      } else {
        parts.push(head);
        this.pending.shift();
        taken += head.length;
      }
    }
    const chunk = parts.length === 1 ? parts[0]! : parts.join('');
    const seq = this.pendingSeq;
    this.pendingSeq += taken;
    this.pendingChars -= taken;
    for (const v of this.views) {
      if (this.behind.has(v)) continue;
      v.send({ type: 'output', agent: this.agent, seq, data: chunk });
      this.gate.sent(v, taken, this.pendingChars);
    }
    return taken;
  }

  /**
   * Attaches a view: it gets the screen as the host's headless terminal has it (a `replay` that resets the
   * view's terminal), the output not parsed yet, then live output; every character exactly once.
   */
  attach(view: TerminalView): void {
    if (this.views.has(view)) this.views.delete(view);
    this.behind.delete(view);
    const { seq, state, tail } = this.screen.snapshot();
    this.gate.attach(view);
    // The size first: the view's terminal takes it before it writes the screen drawn at it — before any view sized
    // it, the screen's own (the pty's first) size, and a read-only tail's too: written into a view of fewer rows,
    // a screen serialized at more scrolled its content out of view and the pane showed blank rows.
    const shown = this.applied ?? { cols: this.screen.cols, rows: this.screen.rows };
    if (shown) view.send({ type: 'pty_size', agent: this.agent, ...shown });
    view.send({ type: 'replay', agent: this.agent, seq, data: state });
    // The tail runs from `seq` to `total`: what is pending for the other views is part of it.
    for (let i = 0; i < tail.length; i += FLOW.maxChunk) view.send({ type: 'output', agent: this.agent, seq: seq + i, data: tail.slice(i, i + FLOW.maxChunk) });
    this.gate.sent(view, state.length + tail.length, this.pendingChars);
    // Pending output is in this view's tail; send it now to the others only, so the next batch starts at `total`.
    if (this.pending.length) {
      const others = [...this.views].filter((v) => !this.behind.has(v));
      const chunks = this.pending.join('');
      const pendingSeq = this.pendingSeq;
      this.dropPending();
      for (const v of others) {
        for (let i = 0; i < chunks.length; i += FLOW.maxChunk) v.send({ type: 'output', agent: this.agent, seq: pendingSeq + i, data: chunks.slice(i, i + FLOW.maxChunk) });
        this.gate.sent(v, chunks.length, this.pendingChars);
      }
    }
    this.views.add(view);
  }

  detach(view: TerminalView): void {
    this.behind.delete(view);
    this.sizes.remove(view);
    if (!this.views.delete(view)) return;
    if (!this.views.size) this.dropPending();
    this.gate.detach(view, this.pendingChars);
    this.applySize();
  }

  ack(view: TerminalView, chars: number): void {
    const owed = this.behind.get(view);
    if (owed === undefined) return this.gate.ack(view, chars, this.pendingChars);
    // A view that was behind is back: once it has drawn nearly all it was sent, it gets today's screen.
    if (owed - chars > FLOW.lowWater) return void this.behind.set(view, owed - chars);
    this.attach(view);
  }

  /** While the source is paused, looks every FLOW.stallMs for views that hold it without acknowledging. */
  private armStall(): void {
    if (this.stallTimer) return;
    this.stallTimer = setTimeout(() => {
      this.stallTimer = null;
      if (!this.gate.isPaused) return;
      for (const v of this.gate.stalled(FLOW.stallMs)) {
        this.behind.set(v, this.gate.outstanding(v) ?? 0);
        this.gate.detach(v, this.pendingChars);
      }
      if (this.gate.isPaused) this.armStall();
    }, FLOW.stallMs);
    this.stallTimer.unref?.();
  }

  write(data: string): boolean {
    if (!this.input?.write) return false;
    this.typedAt = Date.now();
    this.input.write(data);
    return true;
  }

  /**
   * A view's own terminal size (what its pane fits), `used` when the person caused it (focused the terminal,
   * resized the window). The pty takes the size of the view used last (tmux's `window-size latest`); every
   * view is told the pty's size (`pty_size`) and shows the terminal at it.
   */
  resize(view: TerminalView, cols: number, rows: number, used = false): void {
    if (!this.views.has(view)) return;
    this.sizes.set(view, { cols, rows }, used);
    this.applySize();
  }

  /** The person typed into the terminal in this view: its size becomes the pty's. */
  use(view: TerminalView): void {
    if (!this.views.has(view)) return;
    this.sizes.use(view);
    this.applySize();
  }

  /** The view no longer shows the terminal; the pty keeps its size until a showing view sets another. */
  unsize(view: TerminalView): void {
    if (this.sizes.hide(view)) this.applySize();
  }

  /** The size the pty has been given (null before any view reported one). */
  get size(): { cols: number; rows: number } | null {
    return this.applied;
  }

  private applySize(): void {
    const next = this.sizes.pick();
    if (!next) return;
    if (this.applied && this.applied.cols === next.cols && this.applied.rows === next.rows) return;
    this.applied = next;
    // The screen is kept at the size the program draws for (a read-only tail: the size its views fit).
    this.screen.resize(next.cols, next.rows);
    this.input?.resize?.(next.cols, next.rows); // a read-only tail has no pty; its views still show its screen's size
    for (const v of this.views) v.send({ type: 'pty_size', agent: this.agent, ...next });
  }

  get paused(): boolean {
    return this.gate.isPaused;
  }

  private dropPending(): void {
    this.pending = [];
    this.pendingChars = 0;
    this.pendingSeq = this.total;
    this.scheduler.forget(this);
    this.gate.check(this.pendingChars);
  }

  /** Stops the screen's parser (the terminal is gone for good). */
  dispose(): void {
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.screen.dispose();
  }
}
