/**
 * Output a view has been sent but not yet received, per view. A WebSocket is one ordered pipe: a keystroke's
 * echo queues behind every byte already in it (the kernel's socket buffers, the browser's), so on a busy page
 * an echo waited behind megabytes of seven floods. Bulk output is held in the host while a view has more than
 * `max` characters in transit, where the scheduler can still let an echo go first. Only views that report
 * receipt (`received`) are counted: a view that never does is never held.
 */
export class TransitWindow<V> {
  private readonly inTransit = new Map<V, number>();
  /** When each view last reported receipt, ms. */
  private readonly lastAt = new Map<V, number>();

  /** `stallMs`: a view silent that long is behind (a frozen tab): it no longer holds bulk output for every pane. */
  constructor(
    readonly max: number,
    readonly stallMs = Infinity,
  ) {}

  sent(view: V, chars: number): void {
    const n = this.inTransit.get(view);
    if (n !== undefined) this.inTransit.set(view, n + chars);
  }

  /** The view received `chars`; its first report enrols it (what it was sent before is not counted). */
  received(view: V, chars: number): void {
    this.inTransit.set(view, Math.max(0, (this.inTransit.get(view) ?? chars) - chars));
    this.lastAt.set(view, Date.now());
  }

  remove(view: V): void {
    this.inTransit.delete(view);
    this.lastAt.delete(view);
  }

  /** Some live view has more than `max` characters on its way: bulk output waits. */
  get congested(): boolean {
    const now = Date.now();
    for (const [v, n] of this.inTransit) if (n > this.max && now - (this.lastAt.get(v) ?? now) < this.stallMs) return true;
    return false;
  }
}
