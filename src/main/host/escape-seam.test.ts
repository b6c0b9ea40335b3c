import { describe, expect, it } from 'vitest';
import { OPEN_LIMIT, unfinishedTail } from './escape-seam.js';

/** Feeds `parts` one after another, as batches reach the mirror's parser; returns what stays open. */
const after = (...parts: string[]) => parts.reduce((open, chunk) => unfinishedTail(open, chunk), '');

describe('the unfinished escape sequence at a cut in the stream', () => {
  it('plain text and finished sequences leave nothing open', () => {
    expect(after('hello')).toBe('');
    expect(after('\x1b[1;32mgreen\x1b[0m')).toBe('');
    expect(after('a\x1b(B')).toBe(''); // ESC, an intermediate, a final
    expect(after('\x1b7')).toBe(''); // save cursor
    expect(after('\x1b]0;title\x07after')).toBe(''); // OSC ended by BEL
    expect(after('\x1b]8;;http://x\x1b\\link')).toBe(''); // OSC ended by ST
    expect(after('\x9b2J')).toBe(''); // 8-bit CSI
  });

  it('a cut inside a sequence keeps the sequence from its introducer', () => {
    expect(after('step 1\r\n\x1b[1;3')).toBe('\x1b[1;3');
    expect(after('x\x1b')).toBe('\x1b');
    expect(after('x\x1b(')).toBe('\x1b(');
    expect(after('x\x1b]0;tit')).toBe('\x1b]0;tit');
    expect(after('x\x1bP1$r')).toBe('\x1bP1$r'); // DCS waits for ST, even with a final-looking byte
    expect(after('x\x9b1')).toBe('\x9b1');
    expect(after('x\x9d0;t')).toBe('\x9d0;t');
  });

  it('across batches: an open sequence grows until a later batch ends it', () => {
    expect(after('a\x1b', '[1;3')).toBe('\x1b[1;3');
    expect(after('a\x1b', '[1;3', '2mtext')).toBe('');
    expect(after('\x1b]0;ti', 'tle')).toBe('\x1b]0;title');
    expect(after('\x1b]0;ti', 'tle\x07')).toBe('');
    expect(after('\x1b]0;ti', 'tle\x1b\\rest')).toBe(''); // ST in the next batch
    // An earlier sequence ends where a newer one starts.
    expect(after('\x1b[1', '2m\x1b[')).toBe('\x1b[');
  });

  it('a sequence open past the limit is let go', () => {
    const big = '\x1b]52;c;' + 'A'.repeat(OPEN_LIMIT);
    expect(after(big)).toBe('');
    expect(after('\x1b]52;c;', 'A'.repeat(OPEN_LIMIT - 100))).toHaveLength(OPEN_LIMIT - 93);
  });
});
