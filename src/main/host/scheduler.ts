import { FLOW } from '../../contract/api.js';
import { TransitWindow } from './transit.js';

/** Something with output waiting to be sent to its views. */
export interface OutputSource {
  /** Characters waiting. */
  readonly queued: number;
  /** Sends at most `max` characters to the views; returns how many were sent. */
  drain(max: number): number;
  /** The person typed into it just now: its small writes (an echo) go out at once, before any bulk. */
  readonly interactive?: boolean;
}

/** Largest write of an interactive source sent at once, outside the batch and the shared budget. */
export const ECHO_MAX = 4096;

/**
 * One write budget shared by every pane: every `batchMs` the budget is split round-robin among the sources
 * with output waiting, so eight busy agents each get a fair slice and none can monopolise the transport or
 * the renderer's frame. Output arriving within one window is sent as one batch (≈ 5 ms, like VS Code).
 * A source the person is typing into sends its small writes at once; bulk output waits while a view has
 * too much in transit (see TransitWindow), so that echo is never queued behind a flood.
 */
export class OutputScheduler {
  private readonly waiting = new Set<OutputSource>();
  private timer: NodeJS.Timeout | null = null;
  /** The timer is the stall check of held bulk output, not a batch: a receipt or a view leaving runs it now. */
  private heldTimer = false;
  private start = 0;
  /** Output sent to each view and not yet received by it. */
  readonly transit = new TransitWindow<unknown>(FLOW.transit, FLOW.stallMs);

  constructor(
    private readonly budgetPerTick: number = 1024 * 1024,
    private readonly batchMs: number = FLOW.batchMs,
    private readonly maxChunk: number = FLOW.maxChunk,
  ) {}

  wake(source: OutputSource): void {
    if (source.interactive && source.queued <= ECHO_MAX) {
      source.drain(ECHO_MAX);
      return;
    }
    this.waiting.add(source);
    if (!this.timer) this.timer = setTimeout(() => this.tick(), this.batchMs);
  }

  /** A view received output: bulk held back for it may go now. */
  received(view: unknown, chars: number): void {
    const was = this.transit.congested;
    this.transit.received(view, chars);
    if (was && !this.transit.congested && this.waiting.size) this.tickSoon();
  }

  private tickSoon(): void {
    if (this.timer && this.heldTimer) clearTimeout(this.timer);
    else if (this.timer) return;
    this.heldTimer = false;
    this.timer = setTimeout(() => this.tick(), 0);
  }

  /** A view is gone: nothing is held for it any more. */
  removeView(view: unknown): void {
    this.transit.remove(view);
    if (this.waiting.size) this.tickSoon();
  }

  forget(source: OutputSource): void {
    this.waiting.delete(source);
  }

  private tick(): void {
    this.timer = null;
    this.heldTimer = false;
    let budget = this.budgetPerTick;
    // While a view has too much in transit only interactive sources send; \`received\` wakes the rest.
    const held = this.transit.congested;
    const sources = [...this.waiting].filter((s) => !held || s.interactive);
    // Rotate the starting point so the first source is not always served first.
    this.start = sources.length ? (this.start + 1) % sources.length : 0;
    const order = sources.slice(this.start).concat(sources.slice(0, this.start));
    let progressed = true;
    while (budget > 0 && progressed) {
      progressed = false;
      const live = order.filter((s) => s.queued > 0);
      if (!live.length) break;
      const share = Math.max(1, Math.min(this.maxChunk, Math.floor(budget / live.length)));
      for (const s of live) {
        const n = s.drain(Math.min(share, budget));
        budget -= n;
        if (n > 0) progressed = true;
        if (budget <= 0) break;
      }
    }
    for (const s of sources) if (s.queued === 0) this.waiting.delete(s);
    if (this.waiting.size && !this.timer) {
      // Held for a congested view: `received` wakes the rest, or, if that view has gone silent, the stall check does.
      const held = this.transit.congested && ![...this.waiting].some((s) => s.interactive);
      this.heldTimer = held;
      this.timer = setTimeout(() => this.tick(), held ? FLOW.stallMs : this.batchMs);
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.waiting.clear();
  }
}
