/**
 * Pacing of terminal writes in the renderer, kept free of the DOM so it can be tested alone.
 *
 * - FrameBudget: how many characters the next animation frame may hand to xterm. It is steered by time, not
 *   by a fixed count: a frame that came late after writing shrinks the next budget in proportion, a frame on
 *   time lets it grow, so parse + render stay within the target frame interval whatever this machine's speed.
 * - AckBatcher: write callbacks arrive one per chunk; the host needs only the sum per agent, so acks are
 *   coalesced and sent once per task (a microtask after the burst of callbacks) instead of one message each.
 */

export interface FrameBudgetOptions {
  /** Frame interval to stay under, in ms (the frame-gap goal, with room for the compositor). */
  targetMs: number;
  min: number;
  max: number;
  start?: number;
  /**
   * After a frame that wrote at least `bulkChars`, the next write waits `bulkGapMs`: during a flood the
   * terminals then re-render every other frame or so (each render relayouts and repaints whole panes), while
   * small writes such as a keystroke's echo are never held back.
   */
  bulkChars?: number;
  bulkGapMs?: number;
}

export class FrameBudget {
  private value: number;

  constructor(private readonly opts: FrameBudgetOptions) {
    this.value = opts.start ?? opts.min;
  }

  private bulkAt = -Infinity;

  get chars(): number {
    return this.value;
  }

  /** Records a frame's writes (ms timestamp, characters handed to xterm). */
  wrote(now: number, chars: number): void {
    if (chars >= (this.opts.bulkChars ?? Infinity)) this.bulkAt = now;
  }

  /** Whether a frame at `now` may write (false shortly after a bulk write). */
  ready(now: number): boolean {
    return this.readyIn(now) <= 0;
  }

  /** Ms until a frame may write again (0 or less: now). */
  readyIn(now: number): number {
    return this.bulkAt + (this.opts.bulkGapMs ?? 0) - now;
  }

  /**
   * Feeds the interval since the previous frame, and whether that frame wrote; returns the next budget.
   * Only frames that wrote teach anything: an idle frame says nothing about the cost of writing.
   */
  frame(intervalMs: number, wrote: boolean): number {
    if (!wrote || !(intervalMs > 0)) return this.value;
    const { targetMs, min, max } = this.opts;
    if (intervalMs > targetMs) this.value = Math.max(min, Math.floor(this.value * Math.max(0.25, targetMs / intervalMs)));
    else if (intervalMs < targetMs * 0.75) this.value = Math.min(max, Math.ceil(this.value * 1.25));
    return this.value;
  }
}

export class AckBatcher {
  private readonly pending = new Map<string, number>();
  private queued = false;

  constructor(private readonly send: (agent: string, chars: number) => void) {}

  add(agent: string, chars: number): void {
    this.pending.set(agent, (this.pending.get(agent) ?? 0) + chars);
    if (!this.queued) {
      this.queued = true;
      queueMicrotask(() => this.flush());
    }
  }

  flush(): void {
    this.queued = false;
    if (!this.pending.size) return;
    const all = [...this.pending];
    this.pending.clear();
    for (const [agent, chars] of all) this.send(agent, Math.max(1, chars));
  }
}

export interface TypingYieldOptions {
  /** How long after the person's last keystroke in a pane the other panes keep yielding to it (ms). */
  holdMs: number;
  /** Shortest interval between two writes to the other panes while they yield (ms). */
  otherGapMs: number;
  /** Most characters one such write may hand to xterm. */
  otherChars: number;
  /**
   * After a keystroke, the others' turn waits up to this long for its echo to be written (ms; 0: it does not
   * wait). Apart from that, a turn never comes in the frame that draws an echo (`plan`'s `echoFrame`). Neither
   * holds a turn more than 4 gaps after the last one (a command's output keeps every frame an echo frame).
   */
  echoWaitMs?: number;
}

/** A pane as a frame's plan sees it: when the person last typed into it, and the characters waiting for it. */
export interface PaneDemand {
  typedAt: number;
  queued: number;
}

/**
 * While the person types into a pane, every other pane's output yields to it. A flood keeps the page's one main
 * thread busy (parsing, then relayout and repaint of every pane that scrolled, frame after frame), and a
 * keystroke's echo waits for whatever task or frame is running when it arrives. So, for `holdMs` after a
 * keystroke, the other panes get one small write every `otherGapMs`, one pane at a time, in turn: most frames
 * then draw only the typed pane, and the main thread is mostly idle when the echo comes. The typed pane itself
 * (a command's output the person waits for) keeps the whole room. Nothing is dropped: the other panes' output
 * waits in their queues, unacknowledged, so the host's flow control pauses their programs meanwhile.
 */
export class TypingYield {
  private typedAt = -Infinity;
  private otherAt = -Infinity;
  private turn = 0;
  /** A keystroke whose echo has not been written yet. */
  private awaiting = false;
  /** When the last echo was written (ms timestamp). */
  private echoAt = -Infinity;
  /** Off: the others' turns ignore the echo (the bench compares both; see echoWaitMs). */
  waitForEcho = true;

  constructor(private readonly opts: TypingYieldOptions) {}

  /** The person typed into a pane (ms timestamp). */
  typed(now: number): void {
    this.typedAt = Math.max(this.typedAt, now);
    this.awaiting = true;
  }

  /** The typed pane's output (the echo) was handed to xterm at `now`. */
  echoed(now: number): void {
    this.awaiting = false;
    this.echoAt = Math.max(this.echoAt, now);
  }

  /**
   * Whether the others' turn must wait for the next echo (or for 4 gaps since the last turn). Every frame ticks
   * the compositor for a frame or two after it, and an echo arriving then waits for the next vsync (up to a whole
   * frame interval) where an idle page draws it at once. A turn on its own rhythm lands at a random point between
   * two keystrokes; right after an echo it is drawn, and the ticking over, before the next keystroke comes.
   */
  private locked(now: number): boolean {
    return now - this.echoAt >= this.opts.otherGapMs / 2 && now - this.otherAt < 4 * this.opts.otherGapMs;
  }

  /**
   * Whether the others' turn waits for the echo of the last keystroke: their write (a whole pane that scrolls,
   * parsed and re-rendered) in the frame that draws the echo, or just before it, delays that frame the most.
   */
  private holdsForEcho(now: number): boolean {
    const wait = this.waitForEcho ? (this.opts.echoWaitMs ?? 0) : 0;
    return this.awaiting && now - this.typedAt < wait && now - this.otherAt < 4 * this.opts.otherGapMs;
  }

  /** Whether the other panes yield at `now`. */
  active(now: number): boolean {
    return now - this.typedAt < this.opts.holdMs;
  }

  /** Whether `pane` is one the person is typing into (the others yield to it). */
  typing(pane: PaneDemand, now: number): boolean {
    return now - pane.typedAt < this.opts.holdMs;
  }

  /** Ms until the other panes may write again: their next turn, or the end of the hold, whichever comes first. */
  nextOtherIn(now: number): number {
    let turn = this.otherAt + this.opts.otherGapMs;
    // The echo's arrival asks for a frame itself; without one, the turn comes when the wait for it ends.
    if (this.holdsForEcho(now)) turn = Math.max(turn, Math.min(this.typedAt + (this.opts.echoWaitMs ?? 0), this.otherAt + 4 * this.opts.otherGapMs));
    // Past the window after an echo the turn waits for the next echo, or for the fourth gap: a turn due within the
    // window but found after it (its frame came late) too, as `locked` holds it (else the pump polls it every ms).
    if (Math.max(turn, now) >= this.echoAt + this.opts.otherGapMs / 2) turn = Math.max(turn, this.otherAt + 4 * this.opts.otherGapMs);
    return Math.max(0, Math.min(turn, this.typedAt + this.opts.holdMs) - now);
  }

  /**
   * A frame's writes while the panes yield, within `room` characters: `[pane index, characters]` in the order to
   * write them — the typed panes first, as much as they have, then at most one other pane, unless this frame
   * draws an echo (`echoFrame`) or the last keystroke's echo is still awaited (see echoWaitMs).
   */
  plan(now: number, panes: readonly PaneDemand[], room: number, echoFrame = false): Array<[number, number]> {
    const writes: Array<[number, number]> = [];
    const others: number[] = [];
    let left = room;
    panes.forEach((p, i) => {
      if (!this.typing(p, now)) {
        if (p.queued > 0) others.push(i);
        return;
      }
      const n = Math.min(p.queued, left);
      if (n <= 0) return;
      writes.push([i, n]);
      left -= n;
    });
    if (!others.length || left <= 0 || now - this.otherAt < this.opts.otherGapMs) return writes;
    if ((echoFrame && this.waitForEcho && now - this.otherAt < 4 * this.opts.otherGapMs) || this.holdsForEcho(now) || this.locked(now)) return writes;
    const i = others[this.turn % others.length]!;
    this.turn = (this.turn + 1) % others.length;
    writes.push([i, Math.min(panes[i]!.queued, left, this.opts.otherChars)]);
    this.otherAt = now;
    return writes;
  }
}
