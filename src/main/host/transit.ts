/**
 * Output a view has been sent but not yet received, per view. A WebSocket is one ordered pipe: a keystroke's
 * echo queues behind every byte already in it (the kernel's socket buffers, the browser's), so on a busy page
 * an echo waited behind megabytes of seven floods. Bulk output is held in the host while a view has more than
 * `max` characters in transit, where the scheduler can still let an echo go first. Only views that report
 * receipt (`received`) are counted: a view that never does is never held.
 */
export class TransitWindow<V> {
  private readonly inTransit = new Map<V, number>();

  constructor(readonly max: number) {}

  sent(view: V, chars: number): void {
    const n = this.inTransit.get(view);
    if (n !== undefined) this.inTransit.set(view, n + chars);
  }

  /** The view received `chars`; its first report enrols it (what it was sent before is not counted). */
  received(view: V, chars: number): void {
    this.inTransit.set(view, Math.max(0, (this.inTransit.get(view) ?? chars) - chars));
  }

  remove(view: V): void {
    this.inTransit.delete(view);
  }

  /** Some view has more than `max` characters on its way: bulk output waits. */
  get congested(): boolean {
    for (const n of this.inTransit.values()) if (n > this.max) return true;
    return false;
  }
}
