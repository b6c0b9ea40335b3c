/**
 * Where a stream cut at an arbitrary point stands inside an escape sequence. A pty read (or a flow-control pause
 * that makes the kernel split a program's write) can end mid-sequence; a screen serialized there is the state
 * before that sequence, and a view that gets only the output after the cut would print the sequence's rest as
 * text ("33m● step 2"). So the mirror keeps the unfinished sequence and sends it ahead of the rest. What of it
 * has not acted yet is fed again after the serialized screen; a C0 control inside a CSI or ESC sequence has acted
 * (xterm executes it in place), so it is left out, or a view would run it twice.
 *
 * The scan follows xterm.js's parser (VT500 table, common/parser/EscapeSequenceParser.ts): CAN, SUB and every C1
 * control end any sequence (C1 ST, U+009C, ends a string), a non-ASCII character aborts a CSI, ESC, DCS header or
 * SOS/PM/APC string, and DEL is ignored.
 */

/** An unfinished sequence longer than this (a huge OSC 52 clipboard) is cut down to an introducer that ignores its rest. */
export const OPEN_LIMIT = 64 * 1024;

const ESC = 0x1b;
const BEL = 0x07;
const DEL = 0x7f;

const enum S {
  Ground,
  Esc,
  EscInt,
  CsiEntry,
  CsiParam,
  CsiInt,
  CsiIgnore,
  DcsEntry,
  DcsParam,
  DcsInt,
  DcsIgnore,
  DcsPass,
  Osc,
  Sos,
}

/** Codes that leave any state: ESC, CAN, SUB and the C1 controls (some of which start a sequence). */
const isBoundary = (c: number) => c === ESC || c === 0x18 || c === 0x1a || (c >= 0x80 && c <= 0x9f);

/** The state a boundary code leads to. */
function afterBoundary(c: number): S {
  if (c === ESC) return S.Esc;
  if (c === 0x9b) return S.CsiEntry;
  if (c === 0x9d) return S.Osc;
  if (c === 0x90) return S.DcsEntry;
  if (c === 0x98 || c === 0x9e || c === 0x9f) return S.Sos;
  return S.Ground;
}

/** The next state after a non-boundary code `c`; -1: stays, the code executed (it acted: not replayed). */
function step(s: S, c: number): S | -1 {
  const c0 = c < 0x20;
  const high = c >= 0xa0;
  const final = c >= 0x40 && c <= 0x7e;
  const inter = c >= 0x20 && c <= 0x2f;
  switch (s) {
    case S.Esc:
      if (c0) return -1;
      if (c === DEL) return s;
      if (inter) return S.EscInt;
      if (c === 0x5b) return S.CsiEntry;
      if (c === 0x5d) return S.Osc;
      if (c === 0x50) return S.DcsEntry;
      if (c === 0x58 || c === 0x5e || c === 0x5f) return S.Sos;
      return S.Ground; // ESC_DISPATCH, or a non-ASCII character (an error)
    case S.EscInt:
      if (c0) return -1;
      return c === DEL || inter ? s : S.Ground;
    case S.CsiEntry:
    case S.CsiParam:
    case S.CsiInt:
      if (c0) return -1;
      if (c === DEL) return s;
      if (final || high) return S.Ground;
      if (inter) return S.CsiInt;
      if (s === S.CsiInt) return S.CsiIgnore; // 0x30–0x3F after an intermediate
      if (s === S.CsiParam && c >= 0x3c) return S.CsiIgnore;
      return S.CsiParam;
    case S.CsiIgnore:
      if (c0) return -1;
      return final ? S.Ground : s;
    case S.DcsEntry:
    case S.DcsParam:
    case S.DcsInt:
      if (c0 || c === DEL) return s;
      if (high) return S.Ground;
      if (final) return S.DcsPass;
      if (inter) return S.DcsInt;
      if (s === S.DcsInt) return S.DcsIgnore;
      if (s === S.DcsParam && c >= 0x3c) return S.DcsIgnore;
      return S.DcsParam;
    case S.Osc:
      return c === BEL ? S.Ground : s;
    case S.Sos:
      return high ? S.Ground : s;
    default: // DcsIgnore, DcsPass
      return s;
  }
}

/** The sequence from `text[i]` (a boundary code) on: what a view must be fed again, or '' when it ended. */
function pending(text: string, i: number): string {
  let s = afterBoundary(text.charCodeAt(i));
  if (s === S.Ground) return '';
  let kept = text[i]!;
  let from = i + 1;
  for (let k = i + 1; k < text.length; k++) {
    const next = step(s, text.charCodeAt(k));
    if (next === S.Ground) return '';
    if (next === -1) {
      // Executed in place: already on the serialized screen.
      kept += text.slice(from, k);
      from = k + 1;
    } else s = next;
  }
  kept += text.slice(from);
  if (kept.length <= OPEN_LIMIT) return kept;
  // Too long to keep: an introducer that ignores what follows up to the string's end, so the rest is not printed.
  if (s === S.Osc) return '\x1b]!'; // an OSC whose identifier is not a number is ignored
  if (s === S.DcsPass || s === S.DcsIgnore) return '\x1bP<<'; // DCS_IGNORE until ST
  if (s === S.Sos) return '\x1bX';
  if (s >= S.CsiEntry && s <= S.CsiIgnore) return '\x1b[0<'; // CSI_IGNORE until its final
  return '';
}

/** The last position in `text` that starts or ends an escape sequence, or -1. */
function lastBoundary(text: string): number {
  for (let k = text.length - 1; k >= 0; k--) if (isBoundary(text.charCodeAt(k))) return k;
  return -1;
}

/**
 * The unfinished escape sequence at the end of `open + chunk` (the stream so far, `open` being what this returned
 * for the stream before `chunk`), or '' when the stream stands in plain text.
 */
export function unfinishedTail(open: string, chunk: string): string {
  // Only the chunk's last boundary can start an unfinished sequence: any earlier one is ended by it.
  const k = lastBoundary(chunk);
  if (k >= 0) return pending(chunk, k);
  // No boundary in the chunk: the open sequence goes on (or ends in this chunk).
  return open ? pending(open + chunk, 0) : '';
}
