/**
 * The live tail of a running command in a terminal: its last few lines under the tool call, repainted in
 * place (throttled) while it runs and erased when its result is printed; the whole output is kept for the
 * result's expander (saved file, Ctrl-O).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Painter } from './render.js';

/** Lines of a running command shown under its call. */
export const TAIL_LINES = 5;
/** At most one repaint per this many ms: a chatty command costs the terminal ~10 frames a second. */
const PAINT_EVERY_MS = 100;
/** Memory bound on a command's kept output (the Bash tool keeps far less for the model). */
const KEEP_CHARS = 8 * 1024 * 1024;

/** Terminal control sequences and carriage-return progress redraws reduced to what a line finally reads. */
export function plainLine(raw: string): string {
  // eslint-disable-next-line no-control-regex
  const noEscapes = raw.replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[@-_]/g, '');
  const afterReturn = noEscapes.slice(noEscapes.lastIndexOf('\r') + 1 || 0);
  // eslint-disable-next-line no-control-regex
  return afterReturn.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '').replace(/\t/g, '  ');
}

export class LiveTail {
  private id: string | undefined;
  private text = '';
  private cut = false;
  private lineCount = 0;
  /** Rows painted below the cursor's line start; erased before anything else is written. */
  private painted = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Repaints each second while the command is quiet, so its running time goes on. */
  private tick: NodeJS.Timeout | undefined;
  /** Calls begun and not ended; the time of the running one's first output (its tail starts then). */
  private readonly begun = new Set<string>();
  private firstOutputAt = 0;

  constructor(
    private readonly write: (s: string) => void,
    private readonly paint: Painter,
    private readonly columns: () => number,
  ) {}

  /** A call started: its output, if any streams, is shown from now. */
  begin(id: string): void {
    this.begun.add(id);
  }

  push(id: string, chunk: string): void {
    if (!this.begun.has(id) || !chunk) return;
    if (this.id !== id) {
      this.id = id;
      this.firstOutputAt = Date.now();
      this.text = '';
      this.cut = false;
      this.lineCount = 0;
    }
    if (this.text.length < KEEP_CHARS) this.text += chunk.slice(0, KEEP_CHARS - this.text.length);
    else this.cut = true;
    for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) this.lineCount++;
    this.timer ??= setTimeout(() => this.repaint(), PAINT_EVERY_MS);
    this.timer.unref?.();
  }

  /** Removes the painted tail (the cursor is back where it was before the tail). */
  erase(): void {
    if (this.painted === 0) return;
    this.write(`\x1b[${this.painted}A\r\x1b[J`);
    this.painted = 0;
  }

  /** The call ended: the tail stops and is erased; returns everything the call streamed, if it streamed. */
  end(id: string): string | undefined {
    this.begun.delete(id);
    if (this.id !== id) return undefined;
    clearTimeout(this.timer);
    clearTimeout(this.tick);
    this.timer = this.tick = undefined;
    this.erase();
    this.id = undefined;
    const all = this.cut ? `${this.text}\n[output beyond ${KEEP_CHARS / 1024 / 1024} MB was not kept]` : this.text;
    this.text = '';
    return all;
  }

  private repaint(): void {
    this.timer = undefined;
    const id = this.id;
    if (id === undefined) return;
    const width = Math.max(20, this.columns() - 8);
    const lines = this.text.replace(/\n$/, '').split('\n').slice(-TAIL_LINES).map((l) => plainLine(l).slice(0, width));
    const secs = Math.round((Date.now() - this.firstOutputAt) / 1000);
    const head = `    running · ${secs} s · ${this.lineCount} line${this.lineCount === 1 ? '' : 's'} so far`;
    const rows = [head, ...lines.map((l) => `    │ ${l}`)];
    this.erase();
    this.write(rows.map((r) => `${this.paint.dim(r)}\n`).join(''));
    this.painted = rows.length;
    clearTimeout(this.tick);
    this.tick = setTimeout(() => this.repaint(), 1000);
    this.tick.unref?.();
  }
}

export type SaveOutput = (text: string, call: { id: string; name: string }) => string | undefined;

/**
 * Saves a tool's whole output beside the session's transcript (`<session>.outputs/<tool>-<call id>.txt`) and
 * returns its path (relative when under the working directory); undefined when the session is not saved
 * (`--no-session-persistence`) or the write failed.
 */
export function outputSaver(session: () => { file: string; persisted: boolean }): SaveOutput {
  return (text, call) => {
    const { file, persisted } = session();
    if (!persisted) return undefined;
    const dir = file.replace(/\.jsonl$/, '.outputs');
    const out = path.join(dir, `${call.name}-${call.id}.txt`.replace(/[^\w.-]/g, '_'));
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(out, text.endsWith('\n') ? text : `${text}\n`);
    } catch {
      return undefined;
    }
    const rel = path.relative(process.cwd(), out);
    return rel && !rel.startsWith('..') ? rel : out;
  };
}
