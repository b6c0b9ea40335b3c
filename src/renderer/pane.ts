import type { FitAddon } from '@xterm/addon-fit';
import type { Terminal } from '@xterm/xterm';
import { FLOW } from '../contract/api';

/** Characters handed to xterm in one write. */
export const WRITE_SLICE = 64 * 1024;

export interface Size {
  cols: number;
  rows: number;
}

/** One agent's pane in the renderer: its history, the queue to its terminal (if shown) and its sizes. */
export interface Pane {
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
  /** What this view's box fits (reported to the host), and the pty's size (the view used last sets it). */
  own: Size | null;
  pty: Size | null;
  /**
   * Sizes from the host not applied yet, each after the queued characters ahead of it (`ahead`): output drawn
   * at a size is parsed at that size (a screen restored at 32 rows, resized to 23 before it was parsed, lost its
   * last screen out of view).
   */
  resizes: Array<{ ahead: number; size: Size }>;
  /** When the person last typed into this pane's terminal (performance.now()). */
  typedAt: number;
  /** Screens (replays) the host has sent: one per attach. */
  replays: number;
  /** Writes (output, sizes, a reset) handed to its terminal and not parsed yet: none, and xterm's queue is empty. */
  parsing: number;
}

/** What focus reaching an agent's terminal tells the person (its accessible name, and a hint on the pane). */
export const terminalHint = (agent: string): string => `${agent} terminal — keys go to the agent; F6 to leave`;

export function newPane(agent: string): Pane {
  return { agent, history: [], historyChars: 0, queue: [], preacked: 0, term: null, fit: null, observer: null, readonly: true, stale: false, own: null, pty: null, resizes: [], typedAt: -Infinity, replays: 0, parsing: 0 };
}

export function queuedChars(p: Pane): number {
  return p.queue.reduce((n, q) => n + q.length, 0);
}

/** Keeps `data` in the history, dropping the oldest chunks past the host's scrollback. */
export function addHistory(p: Pane, data: string): void {
  p.history.push(data);
  p.historyChars += data.length;
  while (p.historyChars - (p.history[0]?.length ?? 0) >= FLOW.scrollback && p.history.length > 1) p.historyChars -= p.history.shift()!.length;
}

/** A replay: the view starts over with the screen as the host has it. */
export function resetPane(p: Pane): void {
  p.replays++;
  p.history = [];
  p.historyChars = 0;
  p.queue = [];
  p.resizes = [];
  p.preacked = 0;
  resetTerm(p);
}

/**
 * Starts the pane's terminal over at the pty's size, after what xterm was handed already is parsed: that output
 * (and the sizes written for it) belongs to the screen being replaced (parsed after the reset, it was drawn over the
 * new one; a size of it applied after, the new screen was drawn at that older size). With nothing being parsed, at
 * once: the next write (a key's echo) is then parsed on arrival, not behind a timer of xterm's.
 */
export function resetTerm(p: Pane): void {
  const term = p.term;
  if (!term) return;
  if (!p.parsing) {
    term.reset();
    return showAtSize(p);
  }
  const want = p.pty ?? p.own;
  handTo(p, term, '', () => {
    if (p.term !== term) return;
    term.reset();
    if (want) term.resize(want.cols, want.rows); // xterm ignores its own size
  });
}

/** Writes to the pane's terminal, counted in `parsing` until xterm has parsed it (then `done` runs). */
export function handTo(p: Pane, term: Terminal, data: string, done: () => void): void {
  p.parsing++;
  term.write(data, () => {
    p.parsing--;
    done();
  });
}

/** A size from the host, applied after what is queued now (that output was drawn at the size before). */
export function markResize(p: Pane, size: Size): void {
  const ahead = queuedChars(p) - p.resizes.reduce((n, r) => n + r.ahead, 0);
  p.resizes.push({ ahead, size });
}

/** Applies the sizes due (nothing queued ahead of them), in order with xterm's parsing of earlier writes. */
export function writeMarks(p: Pane): void {
  while (p.term && p.resizes[0]?.ahead === 0) {
    const { size } = p.resizes.shift()!;
    const term = p.term;
    handTo(p, term, '', () => {
      if (p.term === term && (term.cols !== size.cols || term.rows !== size.rows)) term.resize(size.cols, size.rows);
    });
  }
}

/** Shows the terminal at the pty's size (or, before the host said it, at what its box fits). */
export function showAtSize(p: Pane): void {
  const want = p.pty ?? p.own;
  if (!p.term || !want || (p.term.cols === want.cols && p.term.rows === want.rows)) return;
  p.term.resize(want.cols, want.rows);
}

/**
 * Takes the next chunk to write, at most `left` characters and never across a pending size mark; returns it
 * and how many of its leading characters were acknowledged already (history rewritten into the terminal).
 */
export function takeChunk(p: Pane, left: number): { chunk: string; preacked: number } | null {
  writeMarks(p);
  if (left <= 0 || !p.queue.length) return null;
  const mark = p.resizes[0];
  const cap = Math.min(left, WRITE_SLICE, mark ? mark.ahead : Infinity);
  if (cap <= 0) return null; // a due mark without a terminal to apply it
  let chunk = p.queue.shift()!;
  if (chunk.length > cap) {
    p.queue.unshift(chunk.slice(cap));
    chunk = chunk.slice(0, cap);
  }
  if (mark) mark.ahead -= chunk.length;
  const preacked = Math.min(p.preacked, chunk.length);
  p.preacked -= preacked;
  return { chunk, preacked };
}

/** Empties the queue; returns the characters in it not acknowledged yet (to acknowledge and count now). */
export function dropQueue(p: Pane): number {
  let pre = p.preacked;
  let unacked = 0;
  for (const chunk of p.queue) {
    const skip = Math.min(pre, chunk.length);
    pre -= skip;
    unacked += chunk.length - skip;
  }
  p.queue = [];
  p.resizes = [];
  p.preacked = 0;
  return unacked;
}

/** Puts the history (already acknowledged) in front of the queue; returns whether there is anything to write. */
export function requeueHistory(p: Pane): boolean {
  const text = p.history.join('');
  p.history = text ? [text] : [];
  p.queue = text ? [text] : [];
  p.resizes = [];
  p.preacked = text.length;
  return !!text;
}

/** The pane's text: its terminal's whole buffer, line by line, or its history while it has no terminal. */
export function paneText(p: Pane): string {
  if (!p.term) return p.history.join('');
  const buf = p.term.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < buf.length; i++) lines.push(buf.getLine(i)?.translateToString(true) ?? '');
  return lines.join('\n');
}
