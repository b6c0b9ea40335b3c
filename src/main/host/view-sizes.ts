export interface TermSize {
  cols: number;
  rows: number;
}

/**
 * Which view sizes a pty that several views (windows, tabs, a phone) show at once. A pty has one size; the
 * rule is tmux's `window-size latest`: the view the person used last — typed into it, focused it, or resized
 * its window — sets the size, and the others show the terminal at that size (scrolling if they are smaller).
 * A view that merely attaches or re-lays out its page never takes the size from one in use, so a phone opening
 * the dashboard does not reflow the desktop's terminal. Before anyone used any view, the first view to show
 * the terminal sets it. A view counts only while it shows the terminal (it stops on `hide`, e.g. another tab).
 */
export class ViewSizes<V> {
  /** Shown views and their own size (what their box fits). */
  private readonly sizes = new Map<V, TermSize>();
  /** When each view was last used (a counter: later is larger); 0 for never. */
  private readonly used = new Map<V, number>();
  /** The order views first showed the terminal in, for the tie before anyone used one. */
  private readonly firstShown = new Map<V, number>();
  private clock = 0;

  /** A view's own size (it shows the terminal); `used` when the person caused it (focus, window resize). */
  set(view: V, size: TermSize, used = false): void {
    this.sizes.set(view, { cols: size.cols, rows: size.rows });
    if (!this.firstShown.has(view)) this.firstShown.set(view, ++this.clock);
    if (used) this.use(view);
  }

  /** The person used this view (typed into the terminal). */
  use(view: V): void {
    this.used.set(view, ++this.clock);
  }

  /** The view stopped showing the terminal; it keeps its place in the order of use. */
  hide(view: V): boolean {
    return this.sizes.delete(view);
  }

  /** The view is gone. */
  remove(view: V): void {
    this.sizes.delete(view);
    this.used.delete(view);
    this.firstShown.delete(view);
  }

  /** The size the pty should have, or null when no view shows the terminal (the pty then keeps its size). */
  pick(): TermSize | null {
    let best: V | null = null;
    for (const v of this.sizes.keys()) {
      if (best === null || this.rank(v) > this.rank(best)) best = v;
    }
    return best === null ? null : this.sizes.get(best)!;
  }

  /** Last use first; among views never used, the one that showed the terminal first. */
  private rank(v: V): number {
    const used = this.used.get(v) ?? 0;
    return used > 0 ? used : -(this.firstShown.get(v) ?? 0);
  }
}
