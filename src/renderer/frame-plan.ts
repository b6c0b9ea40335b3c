import type { FrameBudget, PaneDemand, TypingYield } from './write-pacing';

export interface FramePlanOptions {
  /** A pane typed into this recently gets its echo written first, past the budget and the bulk gap (ms). */
  echoMs: number;
  /** Characters of such an echo written past the budget. */
  echoChars: number;
  /** Most panes written per frame outside typing (see TerminalManager.pump). */
  panesPerFrame: number;
  /**
   * While the other panes yield to the person typing and only they have output waiting, ask for no animation
   * frame until their next turn (`next` is a wait in ms) instead of one every frame. The bench turns it off to
   * compare (TerminalManager.idleWhileYielding).
   */
  idleWhileYielding?: boolean;
}

/** One frame's decision: what to write, and when the pump should run again. */
export interface FramePlan {
  /** `[pane index, characters]` in the order to hand them to xterm. */
  writes: Array<[number, number]>;
  /**
   * `'frame'`: the next animation frame; a number: ask for a frame after that many ms (the others' next turn
   * while they yield); `'idle'`: nothing to do (new output or a write callback asks again).
   */
  next: 'frame' | 'idle' | number;
}

/**
 * What the renderer's pump writes in one animation frame, kept free of the DOM. The echo of the person's typing
 * first; then, unless a bulk write just went out, the frame budget: while the person types the other panes yield
 * (TypingYield), else panes are served in turn. Why it also decides when to run again: a page that asks for an
 * animation frame every frame keeps the compositor ticking, and an echo arriving then waits for the next vsync
 * (up to a whole frame interval); a page that asked for none gets a frame at once when the echo asks (Chromium
 * starts it without waiting for the next vsync). So while only the yielding panes have output, the pump sleeps
 * until their next turn.
 */
export class FramePlanner {
  private rr = 0;
  /** See FramePlanOptions.idleWhileYielding. */
  idleWhileYielding: boolean;
  /** An echo was handed to xterm outside a plan since the last one: the coming frame draws it. */
  private echoOutside = false;

  constructor(
    private readonly budget: FrameBudget,
    private readonly typing: TypingYield,
    private readonly opts: FramePlanOptions,
  ) {
    this.idleWhileYielding = opts.idleWhileYielding ?? true;
  }

  /** The person typed into a pane (ms timestamp): the other panes yield for a while. */
  typed(now: number): void {
    this.typing.typed(now);
  }

  /** The manager wrote a typed pane's echo on arrival (not through a plan): the next frame draws it. */
  echoed(now: number): void {
    this.echoOutside = true;
    this.typing.echoed(now);
  }

  /** Off: the others' turns ignore the echo (TypingYield.waitForEcho; the bench compares both). */
  get echoFirst(): boolean {
    return this.typing.waitForEcho;
  }

  set echoFirst(on: boolean) {
    this.typing.waitForEcho = on;
  }

  /** `panes`: each visible pane's last keystroke and characters queued (not modified); `inflight`: handed to xterm, not parsed. */
  plan(now: number, panes: readonly PaneDemand[], inflight: number): FramePlan {
    const left = panes.map((p) => p.queued);
    const writes: Array<[number, number]> = [];
    const write = (i: number, n: number): number => {
      const k = Math.min(n, left[i]!);
      if (k <= 0) return 0;
      writes.push([i, k]);
      left[i]! -= k;
      return k;
    };
    let echoed = 0;
    panes.forEach((p, i) => {
      if (now - p.typedAt < this.opts.echoMs) echoed += write(i, this.opts.echoChars);
    });
    // This frame draws an echo: the others' turn waits for the next one (see TypingYield.plan).
    const echoFrame = echoed > 0 || this.echoOutside;
    this.echoOutside = false;
    if (echoed > 0) this.typing.echoed(now);
    // A bulk write just went out: let this frame render; while the others yield, wait for the gap without ticking.
    if (!this.budget.ready(now)) return { writes, next: this.yielding(now) ? this.budget.readyIn(now) : 'frame' };
    const room = this.budget.chars - inflight - echoed;
    if (room <= 0) return { writes, next: 'idle' }; // xterm is still parsing; its callbacks ask again
    let rest = room;
    const live = panes.map((p, i) => ({ ...p, queued: left[i]! }));
    if (this.typing.active(now)) {
      for (const [i, n] of this.typing.plan(now, live, room, echoFrame)) rest -= write(i, n);
    } else {
      const busy = live.flatMap((p, i) => (p.queued > 0 ? [i] : []));
      let count = 0;
      while (rest > 0 && count < Math.min(this.opts.panesPerFrame, busy.length)) {
        rest -= write(busy[(this.rr + count) % busy.length]!, rest);
        count++;
      }
      this.rr = (this.rr + count) % Math.max(1, busy.length);
    }
    this.budget.wrote(now, room - rest);
    return { writes, next: this.next(now, panes, left) };
  }

  /** The other panes yield to the person typing, and the pump may sleep meanwhile. */
  private yielding(now: number): boolean {
    return this.idleWhileYielding && this.typing.active(now);
  }

  private next(now: number, panes: readonly PaneDemand[], left: number[]): FramePlan['next'] {
    if (!left.some((n) => n > 0)) return 'idle';
    if (!this.yielding(now)) return 'frame';
    // The typed pane still has output (a command's): keep writing it frame after frame.
    if (panes.some((p, i) => left[i]! > 0 && this.typing.typing(p, now))) return 'frame';
    // Due now but held by this frame (an echo's): the pump runs again just after it, from a timer, not in a frame
    // of its own (see TerminalManager.pump).
    return Math.max(1, this.typing.nextOtherIn(now));
  }
}
