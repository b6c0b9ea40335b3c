import { FLOW } from '../../contract/api.js';

/**
 * Ack-based flow control of one terminal, as VS Code's pty host does it: each attached view acknowledges the
 * characters it has rendered; the source is paused while the slowest view (plus what is still queued in the
 * host) is above the high-water mark, and resumed once everything is below the low-water mark.
 */
export class FlowGate<V> {
  private readonly unacked = new Map<V, number>();
  /** When each view last acknowledged (or attached), ms: a view silent too long while over the mark is behind. */
  private readonly lastAck = new Map<V, number>();
  private paused = false;

  constructor(
    private readonly onPause: () => void,
    private readonly onResume: () => void,
    private readonly high: number = FLOW.highWater,
    private readonly low: number = FLOW.lowWater,
    /** A consumer of the same output that is not a view (the host's own screen parser): its backlog. */
    private readonly parserBacklog: () => number = () => 0,
  ) {}

  attach(view: V): void {
    if (!this.unacked.has(view)) this.unacked.set(view, 0);
    this.lastAck.set(view, Date.now());
  }

  detach(view: V, queued = 0): void {
    this.unacked.delete(view);
    this.lastAck.delete(view);
    this.check(queued);
  }

  sent(view: V, chars: number, queued = 0): void {
    const n = this.unacked.get(view);
    if (n === undefined) return;
    this.unacked.set(view, n + chars);
    this.check(queued);
  }

  /** An ack larger than what is outstanding is clamped: a buggy view cannot make the gate go negative. */
  ack(view: V, chars: number, queued = 0): void {
    const n = this.unacked.get(view);
    if (n === undefined) return;
    this.unacked.set(view, Math.max(0, n - chars));
    this.lastAck.set(view, Date.now());
    this.check(queued);
  }

  /** Views over the high-water mark that have acknowledged nothing for `stallMs`: they hold the source for nothing. */
  stalled(stallMs: number, now = Date.now()): V[] {
    return [...this.unacked].filter(([v, n]) => n > this.high && now - (this.lastAck.get(v) ?? now) >= stallMs).map(([v]) => v);
  }

  /** Re-evaluates with the host's own queue length (characters waiting for the shared budget). */
  check(queued: number): void {
    let worst = 0;
    for (const n of this.unacked.values()) worst = Math.max(worst, n);
    // The parser reads the same characters the views are sent: it holds the source as one more view would.
    const load = Math.max(worst + queued, this.parserBacklog());
    if (!this.paused && load > this.high) {
      this.paused = true;
      this.onPause();
    } else if (this.paused && load < this.low) {
      this.paused = false;
      this.onResume();
    }
  }

  get isPaused(): boolean {
    return this.paused;
  }

  outstanding(view: V): number | undefined {
    return this.unacked.get(view);
  }
}
