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

  it('follows xterm.js: C0 controls executed inside a sequence are not kept, CAN/SUB/C1 controls and non-ASCII end it', () => {
    expect(after('a\x1b[1\n')).toBe('\x1b[1'); // LF acted already
    expect(after('a\x1b[1\r', ';\b2')).toBe('\x1b[1;2');
    expect(after('a\x1b]0;t\ni')).toBe('\x1b]0;t\ni'); // ignored inside an OSC: kept as it is
    expect(after('a\x1b[1\x18')).toBe('');
    expect(after('a\x1b]0;t\x1a', 'text')).toBe('');
    expect(after('a\x1b]0;t\x9c')).toBe(''); // C1 ST
    expect(after('a\x1bP1$r\x85')).toBe('');
    expect(after('a\x1b[1é')).toBe('');
    expect(after('a\x1b_xé')).toBe('');
    expect(after('a\x1b\x7f')).toBe('\x1b\x7f'); // DEL ignored: still after ESC
    expect(after('a\x1b[?1;2', '<3')).toBe('\x1b[?1;2<3'); // CSI_IGNORE, until its final
  });

  it('a sequence open past the limit is cut down to an introducer that ignores its rest', () => {
    const big = '\x1b]52;c;' + 'A'.repeat(OPEN_LIMIT);
    expect(after(big)).toBe('\x1b]!');
    expect(after(big, 'AAAA')).toBe('\x1b]!AAAA');
    expect(after(big, 'AA\x07')).toBe('');
    expect(after('\x1bP1$r' + 'x'.repeat(OPEN_LIMIT))).toBe('\x1bP<<');
    expect(after('\x1b_' + 'x'.repeat(OPEN_LIMIT))).toBe('\x1bX');
    expect(after('\x1b[' + '1'.repeat(OPEN_LIMIT))).toBe('\x1b[0<');
    expect(after('\x1b]52;c;', 'A'.repeat(OPEN_LIMIT - 100))).toHaveLength(OPEN_LIMIT - 93);
  });
});
