import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import { FLOW } from '../shared/api';
import type { HostClient } from './transport';
import { AckBatcher, FrameBudget } from './write-pacing';

const WRITE_SLICE = 64 * 1024;
/** Most panes written per frame (see pump). */
const PANES_PER_FRAME = 2;
/**
 * Frame interval the writes are paced to (ms): parse + render of one frame's writes, leaving room under the
 * 50 ms frame-gap goal for the compositor and a busy machine. Below ~20 ms the budget cannot grow at 60 Hz.
 */
const TARGET_FRAME_MS = 30;
/**
 * Lines xterm keeps per pane (VS Code's default). Measured: with 5000, filling the scrollback cost ~25 % more
 * parse time in a flood (xterm syncs its scroll area on every new line until the scrollback is full); the
 * host still replays 1 MiB on attach and output.log keeps everything.
 */
const SCROLLBACK = 1000;

interface Pane {
  agent: string;
  /** Everything received, capped like the host's scrollback: the headless buffer of a hidden pane. */
  history: string[];
  historyChars: number;
  /** Waiting to be written to the visible terminal. */
  queue: string[];
  /** Leading characters of the queue already acknowledged and counted (history rewritten into a terminal). */
  preacked: number;
  term: Terminal | null;
  fit: FitAddon | null;
  observer: ResizeObserver | null;
  readonly: boolean;
  /** Output went to the history only while the page was hidden: the terminal is rewritten on return. */
  stale: boolean;
}

/**
 * The renderer's terminals. Every pane keeps a capped history; only mounted (visible) panes own an xterm.
 * Writes to xterm go through one budget shared by all panes, round-robin per animation frame, so eight busy
 * agents cannot queue eight parse slices back to back; each write's callback acknowledges to the host.
 */
export class TerminalManager {
  private readonly panes = new Map<string, Pane>();
  private inflight = 0;
  private frame = 0;
  private rr = 0;
  /** Characters handed to xterm and not yet parsed, across all panes, may not exceed this. */
  private readonly budget = new FrameBudget({ targetMs: TARGET_FRAME_MS, min: 16 * 1024, max: 1024 * 1024, start: 256 * 1024, bulkChars: 16 * 1024, bulkGapMs: 30 });
  private lastFrame = 0;
  private wrote = false;
  private readonly acks: AckBatcher;
  /** Characters each pane has rendered (or buffered while hidden): the bench and tests read it. */
  private readonly done = new Map<string, number>();

  constructor(private readonly client: HostClient) {
    this.acks = new AckBatcher((agent, chars) => this.client.fire({ type: 'ack', agent, chars }));
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
      p.term.reset();
      this.requeueHistory(p);
    }
  }

  private pane(agent: string): Pane {
    let p = this.panes.get(agent);
    if (!p) {
      p = { agent, history: [], historyChars: 0, queue: [], preacked: 0, term: null, fit: null, observer: null, readonly: true, stale: false };
      this.panes.set(agent, p);
    }
    return p;
  }

  setReadonly(agent: string, readonly: boolean): void {
    const p = this.pane(agent);
    p.readonly = readonly;
    if (p.term) p.term.options.disableStdin = readonly;
  }

  /** Output from the host; `reset` when it is a replay (the stream starts over). */
  output(agent: string, data: string, reset: boolean): void {
    const p = this.pane(agent);
    if (reset) {
      p.history = [];
      p.historyChars = 0;
      p.queue = [];
      p.preacked = 0;
      p.term?.reset();
    }
    p.history.push(data);
    p.historyChars += data.length;
    while (p.historyChars - (p.history[0]?.length ?? 0) >= FLOW.scrollback && p.history.length > 1) p.historyChars -= p.history.shift()!.length;
    if (p.term && !document.hidden) {
      p.queue.push(data);
      this.schedule();
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
    const term = new Terminal({ convertEol: false, scrollback: SCROLLBACK, fontSize: 12, disableStdin: p.readonly, theme: { background: '#0f1115' } });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(el);
    p.term = term;
    p.fit = fit;
    term.onData((data) => {
      if (!p.readonly) this.client.fire({ type: 'input', agent, data });
    });
    term.onResize(({ cols, rows }) => this.client.fire({ type: 'resize', agent, cols, rows }));
    const doFit = () => {
      try {
        fit.fit();
      } catch {
        // not laid out yet
      }
    };
    // Fitting reads computed styles (a forced layout): only when the box really changed size.
    let box = '';
    p.observer = new ResizeObserver((entries) => {
      const r = entries[entries.length - 1]?.contentRect;
      const next = r ? `${r.width}x${r.height}` : '';
      if (next === box) return;
      box = next;
      doFit();
    });
    p.observer.observe(el);
    doFit();
    // Shown again at the size it had: no resize event, so say it (the host counts only shown views' sizes).
    this.client.fire({ type: 'resize', agent, cols: term.cols, rows: term.rows });
    this.requeueHistory(p);
  }

  /**
   * Puts the history (up to 1 MiB, already acknowledged) in front of the terminal's queue: it is written through
   * the frame budget like live output, so showing a pane again never parses a megabyte in one task.
   */
  private requeueHistory(p: Pane): void {
    const text = p.history.join('');
    p.history = text ? [text] : [];
    p.queue = text ? [text] : [];
    p.preacked = text.length;
    if (text) this.schedule();
  }

  /** Acknowledges (and counts) what is queued for a terminal that will not show it. */
  private dropQueue(p: Pane): void {
    let pre = p.preacked;
    for (const chunk of p.queue) {
      const skip = Math.min(pre, chunk.length);
      pre -= skip;
      if (chunk.length > skip) {
        this.count(p.agent, chunk.length - skip);
        this.acks.add(p.agent, chunk.length - skip);
      }
    }
    p.queue = [];
    p.preacked = 0;
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
  }

  /** The pane's terminal size while it is shown, else nothing (a hidden pane does not size the pty). */
  size(agent: string): { cols: number; rows: number } | Record<string, never> {
    const t = this.panes.get(agent)?.term;
    return t ? { cols: t.cols, rows: t.rows } : {};
  }

  focus(agent: string): void {
    this.panes.get(agent)?.term?.focus();
  }

  /** The visible text of a pane (tests and the bench read it). */
  text(agent: string): string {
    const t = this.panes.get(agent)?.term;
    if (!t) return this.panes.get(agent)?.history.join('') ?? '';
    const buf = t.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < buf.length; i++) lines.push(buf.getLine(i)?.translateToString(true) ?? '');
    return lines.join('\n');
  }

  written(agent: string): number {
    return this.done.get(agent) ?? 0;
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

  private schedule(): void {
    if (!this.frame) this.frame = requestAnimationFrame((t) => this.pump(t));
  }

  /**
   * One frame's writes. A DOM terminal that scrolls re-renders all its rows, whatever was written, so the
   * frame's budget goes to at most PANES_PER_FRAME panes in turn (bigger writes, fewer renders) instead of a
   * sliver to every busy pane; across frames every pane gets its turn.
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
    if (!this.budget.ready(now)) {
      this.schedule(); // a bulk write went out less than bulkGapMs ago: let this frame render without new writes
      return;
    }
    const room = this.budget.chars - this.inflight;
    if (room <= 0) return; // xterm is still parsing earlier writes; their callbacks schedule the next frame
    // Panes in turn, each filled as far as the room allows, so a pane with little queued does not waste the frame.
    let left = room;
    let count = 0;
    while (left > 0 && count < Math.min(PANES_PER_FRAME, panes.length)) {
      const p = panes[(this.rr + count) % panes.length]!;
      count++;
      while (left > 0 && p.queue.length) {
        let chunk = p.queue.shift()!;
        const max = Math.min(left, WRITE_SLICE);
        if (chunk.length > max) {
          p.queue.unshift(chunk.slice(max));
          chunk = chunk.slice(0, max);
        }
        left -= chunk.length;
        this.inflight += chunk.length;
        this.wrote = true;
        const n = chunk.length;
        const pre = Math.min(p.preacked, n);
        p.preacked -= pre;
        p.term!.write(chunk, () => {
          this.inflight -= n;
          if (n > pre) {
            this.count(p.agent, n - pre);
            this.acks.add(p.agent, n - pre);
          }
          this.schedule();
        });
      }
    }
    this.budget.wrote(now, room - left);
    this.rr = (this.rr + count) % Math.max(1, panes.length);
    if ([...this.panes.values()].some((p) => p.term && p.queue.length)) this.schedule();
  }
}
