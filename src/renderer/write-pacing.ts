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
    return now - this.bulkAt >= (this.opts.bulkGapMs ?? 0);
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
