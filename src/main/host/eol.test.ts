import { describe, expect, it } from 'vitest';
import { CrlfConverter } from './eol.js';

describe('CrlfConverter', () => {
  it('turns bare line feeds into CR LF and leaves CR LF alone, however the text is split into reads', () => {
    const text = 'one\ntwo\r\n\nthree\r\rfour\n\r\nend';
    const want = 'one\r\ntwo\r\n\r\nthree\r\rfour\r\n\r\nend';
    expect(new CrlfConverter().write(text)).toBe(want);
    for (let i = 0; i <= text.length; i++) {
      for (let j = i; j <= text.length; j++) {
        const c = new CrlfConverter();
        expect(c.write(text.slice(0, i)) + c.write(text.slice(i, j)) + c.write(text.slice(j))).toBe(want);
      }
    }
  });

  it('starts over after a reset (a truncated log)', () => {
    const c = new CrlfConverter();
    c.write('a\r');
    c.reset();
    expect(c.write('\nb')).toBe('\r\nb');
  });
});
