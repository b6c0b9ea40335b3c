import { FitAddon } from '@xterm/addon-fit';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import { Terminal } from '@xterm/xterm';
import { FLOW } from '../contract/api';
import type { HostClient } from './transport';
import { FramePlanner } from './frame-plan';
import { savedOutputLinks } from './saved-output-links';
import { deferTextareaSync } from './textarea-sync';
import { AckBatcher, FrameBudget, TypingYield } from './write-pacing';
import { addHistory, dropQueue, handTo, markResize, newPane, paneText, queuedChars, requeueHistory, resetPane, resetTerm, showAtSize, takeChunk, terminalHint, writeMarks, type Pane } from './pane';

const PANES_PER_FRAME = 2; // most panes written per frame (see pump)
/**
 * Frame interval the writes are paced to (ms): parse + render of one frame's writes, leaving room under the
 * 50 ms frame-gap goal for the compositor and a busy machine. Below ~20 ms the budget cannot grow at 60 Hz.
 */
const TARGET_FRAME_MS = 30;
/**
 * Lines xterm keeps per pane (VS Code's default), as many as the host's screen of the pty restores on attach.
 * Measured: with 5000, filling the scrollback cost ~25 % more parse time in a flood (xterm syncs its scroll
 * area on every new line until the scrollback is full); output.log keeps everything.
 */
const SCROLLBACK = FLOW.scrollbackLines;
/**
 * Bundled fonts (main.tsx loads them before the first terminal opens, so xterm measures the real cell): DejaVu
 * Mono has box drawing, blocks and the agent's symbols (✻ ● ✓ → …); Maple Mono, also monospace, fills what
 * DejaVu lacks (⎿). No system font is needed and nothing is fetched from the network.
 */
const TERMINAL_FONT = '"DejaVu Mono", "Maple Mono", monospace';
/** A keystroke's echo in a pane typed into this recently is written before any flood (ms). */
const TYPING_MS = 1000;
/**
 * After a keystroke, the other panes yield for this long (ms): one small write every TYPING_OTHER_GAP_MS, one pane
 * at a time (see TypingYield). Longer than the pauses of a person typing words and lines.
 */
const TYPING_HOLD_MS = 2000;
const TYPING_OTHER_GAP_MS = 100;
const TYPING_OTHER_CHARS = 32 * 1024;
/** Characters an echo may write past a full frame budget. */
const ECHO_ALLOWANCE = 4096;
/** A box change this soon after a window resize was the person's doing (ms). */
const PERSON_RESIZE_MS = 1000;

/**
 * The renderer's terminals. Every pane keeps a capped history; only mounted (visible) panes own an xterm.
 * Writes to xterm go through one budget shared by all panes, round-robin per animation frame, so eight busy
 * agents cannot queue eight parse slices back to back; each write's callback acknowledges to the host.
 */
export class TerminalManager {
  private readonly panes = new Map<string, Pane>();
  private inflight = 0;
  private frame = 0;
  /** The pump sleeps until the yielding panes' next turn (see FramePlanner). */
  private wakeTimer: ReturnType<typeof setTimeout> | null = null;
  /** Off: the pump asks for a frame every frame while the others yield, as before (the bench compares both). */
  idleWhileYielding = true;
  /** A pane's link to a saved whole output was clicked (the page opens it: context.ts). */
  onSavedOutput: (agent: string, file: string) => void = () => {};
  /** Characters handed to xterm and not yet parsed, across all panes, may not exceed this. */
  private readonly budget = new FrameBudget({ targetMs: TARGET_FRAME_MS, min: 16 * 1024, max: 1024 * 1024, start: 256 * 1024, bulkChars: 16 * 1024, bulkGapMs: 30 });
  private lastFrame = 0;
  private wrote = false;
  private readonly acks: AckBatcher;
  private readonly planner = new FramePlanner(this.budget, new TypingYield({ holdMs: TYPING_HOLD_MS, otherGapMs: TYPING_OTHER_GAP_MS, otherChars: TYPING_OTHER_CHARS, echoWaitMs: TYPING_OTHER_GAP_MS }), {
    echoMs: TYPING_MS, echoChars: ECHO_ALLOWANCE, panesPerFrame: PANES_PER_FRAME,
  });
  /** Characters each pane has rendered (or buffered while hidden): the bench and tests read it. */
  private readonly done = new Map<string, number>();
  /** Who to tell when a pane's own or pty size changes (see sizedElsewhere). */
  private readonly sizeWatchers = new Map<string, Set<() => void>>();
  /** When the window was last resized (by the person: a drag, a rotation). */
  private windowResizedAt = -Infinity;

  constructor(private readonly client: HostClient) {
    this.acks = new AckBatcher((agent, chars) => this.client.fire({ type: 'ack', agent, chars }));
    // Only a real change of the window's size is the person's doing (a page load may fire 'resize' too).
    let win = `${window.innerWidth}x${window.innerHeight}`;
    window.addEventListener('resize', () => {
      const now = `${window.innerWidth}x${window.innerHeight}`;
      if (now === win) return;
      win = now;
      this.windowResizedAt = performance.now();
    });
    document.addEventListener('visibilitychange', () => {
      if (document.hidden) this.releaseQueues();
      else this.refreshStale();
    });
  }

  /** The page is hidden: queued output will not be rendered soon, so acknowledge it now. */
  private releaseQueues(): void {
    for (const p of this.panes.values()) {
      if (!p.queue.length) continue;
      this.dropQueue(p);
      p.stale = true;
    }
  }

  /** Rewrites, from the history, the terminals that missed output while the page was hidden. */
  private refreshStale(): void {
    for (const p of this.panes.values()) {
      if (!p.stale || !p.term) continue;
      p.stale = false;
      // At the pty's size: a size from the host that waited behind the dropped queue was dropped with it.
      resetTerm(p);
      this.requeueHistory(p);
    }
  }

  private pane(agent: string): Pane {
    let p = this.panes.get(agent);
    if (!p) {
      p = newPane(agent);
      this.panes.set(agent, p);
    }
    return p;
  }

  setReadonly(agent: string, readonly: boolean): void {
    const p = this.pane(agent);
    p.readonly = readonly;
    if (p.term) {
      p.term.options.disableStdin = readonly;
      showAtSize(p);
    }
  }

  /**
   * The pty's size (a read-only tail's: its screen's), from the host: this view shows the terminal at it
   * (scrolling when its box is smaller), so the screen the host restores is drawn at the size it was made at.
   */
  ptySize(agent: string, cols: number, rows: number): void {
    const p = this.pane(agent);
    const size = { cols, rows };
    p.pty = size;
    this.sized(agent);
    if (!p.term) return;
    markResize(p, size);
    writeMarks(p);
  }

  /** Output from the host; `reset` when it is a replay (the screen as the host has it: the view starts over). */
  output(agent: string, data: string, reset: boolean): void {
    const p = this.pane(agent);
    // A replay starts the pane over at the size the host sent first: the one this screen was drawn at.
    if (reset) resetPane(p);
    addHistory(p, data);
    if (p.term && !document.hidden) {
      if (data) p.queue.push(data); // an empty screen queues nothing (an empty chunk is never taken)
      // An echo of the person's typing is written now: parsed at once (xterm parses the first write after user
      // input synchronously) and drawn in the coming frame, not one frame later through the pump.
      if (p.queue.length === 1 && data.length <= ECHO_ALLOWANCE && performance.now() - p.typedAt < TYPING_MS) {
        this.writeFrom(p, ECHO_ALLOWANCE);
        this.planner.echoed(performance.now());
      } else this.schedule(this.typedInto(p));
    } else {
      // Hidden pane, or a hidden page (animation frames stop there, so waiting for xterm would stall the
      // agent's pty through flow control): keep it in the history and let the host send more at once.
      if (p.term) p.stale = true;
      this.count(agent, data.length);
      this.acks.add(agent, data.length);
    }
  }

  mount(agent: string, el: HTMLElement): void {
    const p = this.pane(agent);
    this.unmount(agent);
    const term = new Terminal({ convertEol: false, scrollback: SCROLLBACK, fontSize: 12, fontFamily: TERMINAL_FONT, disableStdin: p.readonly, allowProposedApi: true, theme: { background: '#0f1115' } });
    const fit = new FitAddon();
    term.loadAddon(fit);
    // Widths of emoji and East Asian characters as current terminals (and the agents' output) count them.
    term.loadAddon(new Unicode11Addon());
    term.unicode.activeVersion = '11';
    term.open(el);
    deferTextareaSync(term);
    // xterm names its input "Terminal input": the name says whose terminal it is and how to leave it.
    term.textarea?.setAttribute('aria-label', terminalHint(agent));
    savedOutputLinks(term, (file) => this.onSavedOutput(agent, file));
    p.term = term;
    p.fit = fit;
    p.own = null;
    term.onData((data) => {
      if (p.readonly) return;
      p.typedAt = performance.now();
      this.planner.typed(p.typedAt);
      this.client.fire({ type: 'input', agent, data });
    });
    // This view's own size goes to the host; the terminal shows the pty's size (set by the view used last).
    const report = (used: boolean) => {
      const d = fit.proposeDimensions();
      if (!d || !(d.cols >= 2) || !(d.rows >= 1)) return; // not laid out yet
      const own = { cols: Math.min(1000, d.cols), rows: Math.min(500, d.rows) };
      const same = p.own && p.own.cols === own.cols && p.own.rows === own.rows;
      p.own = own;
      if (!same) this.sized(agent);
      if (!same || used) this.client.fire({ type: 'resize', agent, ...own, ...(used ? { active: true } : {}) });
      showAtSize(p);
    };
    // Focusing the terminal is using this view: the pty takes its size.
    term.textarea?.addEventListener('focus', () => report(true));
    // Fitting reads computed styles (a forced layout): only when the box really changed size.
    let box = '';
    p.observer = new ResizeObserver((entries) => {
      const r = entries[entries.length - 1]?.contentRect;
      const next = r ? `${r.width}x${r.height}` : '';
      if (next === box) return;
      const first = box === '';
      box = next;
      report(!first && performance.now() - this.windowResizedAt < PERSON_RESIZE_MS);
    });
    p.observer.observe(el);
    // Shown (again): say its size (the host counts only shown views' sizes); not a use, so no reflow elsewhere.
    report(false);
    if (!p.own) this.client.fire({ type: 'resize', agent, cols: term.cols, rows: term.rows });
    this.requeueHistory(p);
  }

  /**
   * Puts the history (up to 1 MiB, already acknowledged) in front of the terminal's queue, written through the frame
   * budget like live output (never a megabyte in one task); urgent, so a pane shown while the others yield is drawn
   * in the next frame, not at their next turn (up to 400 ms blank).
   */
  private requeueHistory(p: Pane): void {
    if (requeueHistory(p)) this.schedule(true);
  }

  /** Acknowledges (and counts) what is queued for a terminal that will not show it. */
  private dropQueue(p: Pane): void {
    const n = dropQueue(p);
    if (!n) return;
    this.count(p.agent, n);
    this.acks.add(p.agent, n);
  }

  unmount(agent: string): void {
    const p = this.panes.get(agent);
    if (!p?.term) return;
    this.dropQueue(p);
    p.observer?.disconnect();
    this.client.fire({ type: 'unsize', agent });
    p.term.dispose();
    p.term = null;
    p.fit = null;
    p.own = null;
  }

  /** Calls `fn` when the pane's own or pty size changes; returns the way to stop. */
  watchSize(agent: string, fn: () => void): () => void {
    const set = this.sizeWatchers.get(agent) ?? new Set();
    this.sizeWatchers.set(agent, set);
    set.add(fn);
    return () => set.delete(fn);
  }

  private sized(agent: string): void {
    for (const fn of this.sizeWatchers.get(agent) ?? []) fn();
  }

  /** The pty's columns when another view set them and they differ from what this view's box fits; else null. */
  sizedElsewhere(agent: string): number | null {
    const p = this.panes.get(agent);
    if (!p?.term || !p.pty || !p.own || p.pty.cols === p.own.cols) return null;
    return p.pty.cols;
  }

  /** The person asks this view's size to win (as typing into it would): the pty takes what this box fits. */
  fitHere(agent: string): void {
    const own = this.panes.get(agent)?.own;
    if (own) this.client.fire({ type: 'resize', agent, ...own, active: true });
  }

  /** What the pane's box fits while it is shown, else nothing (a hidden pane does not size the pty). */
  size(agent: string): { cols: number; rows: number } | Record<string, never> {
    const p = this.panes.get(agent);
    if (!p?.term) return {};
    return p.own ?? { cols: p.term.cols, rows: p.term.rows };
  }

  /** The pty's size as the host last said it (null before it did); tests wait on it. */
  saidPtySize(agent: string): { cols: number; rows: number } | null {
    return this.panes.get(agent)?.pty ?? null;
  }

  /** The size the pane's terminal is shown at (the pty's, once the host said it). */
  shownSize(agent: string): { cols: number; rows: number } | null {
    const t = this.panes.get(agent)?.term;
    return t ? { cols: t.cols, rows: t.rows } : null;
  }

  focus(agent: string): void {
    this.panes.get(agent)?.term?.focus();
  }

  /** The visible text of a pane (tests and the bench read it). */
  text(agent: string): string {
    const p = this.panes.get(agent);
    return p ? paneText(p) : '';
  }

  written(agent: string): number {
    return this.done.get(agent) ?? 0;
  }

  /** Screens the host has sent for the pane (one per attach): a test waits for them before it drives the pane. */
  replays(agent: string): number {
    return this.panes.get(agent)?.replays ?? 0;
  }

  private count(agent: string, n: number): void {
    this.done.set(agent, (this.done.get(agent) ?? 0) + n);
  }

  /** Characters the next frame may hand to xterm (the bench samples it). */
  get frameBudget(): number {
    return this.budget.chars;
  }

  pending(): number {
    let n = this.inflight;
    for (const p of this.panes.values()) for (const q of p.queue) n += q.length;
    return n;
  }

  /**
   * Asks for an animation frame to run the pump. While the pump sleeps until the yielding panes' next turn (see
   * FramePlanner), only `urgent` work (the typed pane's) asks for one: otherwise every message of a held flood
   * would tick the compositor again and an echo would wait for the next vsync.
   */
  private schedule(urgent = false): void {
    if (this.wakeTimer) {
      if (!urgent) return;
      clearTimeout(this.wakeTimer);
      this.wakeTimer = null;
    }
    if (!this.frame) this.frame = requestAnimationFrame((t) => this.pump(t));
  }

  /** Whether the person typed into the pane recently enough that the others yield to it. */
  private typedInto(p: Pane): boolean {
    return performance.now() - p.typedAt < TYPING_HOLD_MS;
  }

  /**
   * One frame's writes, as FramePlanner decides them. A DOM terminal that scrolls re-renders all its rows,
   * whatever was written, so the frame's budget goes to at most PANES_PER_FRAME panes in turn (bigger writes,
   * fewer renders) instead of a sliver to every busy pane; across frames every pane gets its turn.
   */
  private pump(now: number): void {
    this.frame = 0;
    // The interval since the last frame tells how long the writes handed out then took to parse and render.
    this.budget.frame(this.lastFrame ? now - this.lastFrame : 0, this.inflight > 0 || this.wrote);
    this.wrote = false;
    const panes = [...this.panes.values()].filter((p) => p.term && p.queue.length);
    if (!panes.length) {
      this.lastFrame = this.inflight > 0 ? now : 0;
      return;
    }
    this.lastFrame = now;
    this.planner.idleWhileYielding = this.idleWhileYielding;
    const plan = this.planner.plan(now, panes.map((p) => ({ typedAt: p.typedAt, queued: queuedChars(p) })), this.inflight);
    for (const [i, n] of plan.writes) this.writeFrom(panes[i]!, n);
    if (plan.next === 'frame') this.schedule();
    else if (typeof plan.next === 'number' && !this.wakeTimer) {
      // Asleep until the others' next turn: the interval to that frame says nothing about the cost of writing.
      this.lastFrame = 0;
      // Written from the timer's task: a frame asked for only to write ticks the compositor (see FramePlanner).
      this.wakeTimer = setTimeout(() => {
        this.wakeTimer = null;
        this.pump(performance.now());
      }, plan.next);
    }
  }

  /** Hands up to `max` queued characters of a pane to xterm (≤ WRITE_SLICE a write); returns how many. */
  private writeFrom(p: Pane, max: number): number {
    let left = max;
    for (let next = takeChunk(p, left); next; next = takeChunk(p, left)) {
      const { chunk, preacked: pre } = next;
      const n = chunk.length;
      left -= n;
      this.inflight += n;
      this.wrote = true;
      handTo(p, p.term!, chunk, () => {
        this.inflight -= n;
        if (n > pre) {
          this.count(p.agent, n - pre);
          this.acks.add(p.agent, n - pre);
        }
        this.schedule(this.typedInto(p));
      });
    }
    return max - left;
  }
}
