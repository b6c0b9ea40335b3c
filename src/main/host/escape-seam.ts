/**
 * Where a stream cut at an arbitrary point stands inside an escape sequence. A pty read (or a flow-control pause
 * that makes the kernel split a program's write) can end mid-sequence; a screen serialized there is the state
 * before that sequence, and a view that gets only the output after the cut would print the sequence's rest as
 * text ("33m● step 2"). So the mirror keeps the unfinished sequence and sends it ahead of the rest: an
 * unfinished sequence has not acted yet, so feeding it again after the serialized screen is exact.
 */

/** An unfinished sequence longer than this (a huge OSC 52 clipboard) is dropped: the restore may show its rest. */
export const OPEN_LIMIT = 64 * 1024;

const ESC = 0x1b;
const BEL = 0x07;
/** 8-bit introducers xterm.js also parses: CSI, OSC, DCS, SOS, PM, APC. */
const C1_CSI = 0x9b;
const C1_STRINGS = new Set([0x9d, 0x90, 0x98, 0x9e, 0x9f]);
/** After ESC: the string sequences (OSC, DCS, SOS, PM, APC), ended by BEL (OSC) or ST (`ESC \`). */
const ESC_STRINGS = new Set([0x5d, 0x50, 0x58, 0x5e, 0x5f]);

const isCsiFinal = (c: number) => c >= 0x40 && c <= 0x7e;

/** Whether the sequence starting at `text[i]` (an introducer) ends within `text`. */
function finished(text: string, i: number): boolean {
  const first = text.charCodeAt(i);
  let j = i + 1;
  if (first === C1_CSI) return csiEnds(text, j);
  if (C1_STRINGS.has(first)) return stringEnds(text, j, first === 0x9d);
  // ESC
  if (j >= text.length) return false;
  const next = text.charCodeAt(j);
  if (next === 0x5b) return csiEnds(text, j + 1);
  if (ESC_STRINGS.has(next)) return stringEnds(text, j + 1, next === 0x5d);
  // ESC, intermediates (0x20–0x2F, as in `ESC ( B`), then one final character.
  while (j < text.length && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x2f) j++;
  return j < text.length;
}

function csiEnds(text: string, from: number): boolean {
  for (let k = from; k < text.length; k++) if (isCsiFinal(text.charCodeAt(k))) return true;
  return false;
}

/** A string sequence ends at BEL (OSC only) or at ST — and ST's ESC would be the later introducer. */
function stringEnds(text: string, from: number, bel: boolean): boolean {
  if (!bel) return false;
  return text.indexOf(String.fromCharCode(BEL), from) >= 0;
}

/** The last position in `text` that starts an escape sequence, or -1. */
function lastIntroducer(text: string): number {
  for (let k = text.length - 1; k >= 0; k--) {
    const c = text.charCodeAt(k);
    if (c === ESC || c === C1_CSI || C1_STRINGS.has(c)) return k;
  }
  return -1;
}

/**
 * The unfinished escape sequence at the end of `open + chunk` (the stream so far, `open` being what this returned
 * for the stream before `chunk`), or '' when the stream stands in plain text.
 */
export function unfinishedTail(open: string, chunk: string): string {
  // Only the chunk's last introducer can start an unfinished sequence: any earlier one is ended by it.
  const k = lastIntroducer(chunk);
  let text: string;
  let start: number;
  if (k >= 0) {
    text = chunk;
    start = k;
  } else if (open) {
    // No introducer in the chunk: the open sequence goes on (or ends in this chunk).
    text = open + chunk;
    start = 0;
  } else return '';
  if (finished(text, start)) return '';
  const tail = text.slice(start);
  return tail.length > OPEN_LIMIT ? '' : tail;
}
