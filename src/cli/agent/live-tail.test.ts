import { describe, expect, it, vi } from 'vitest';
import { LiveTail, plainLine } from './live-tail.js';
import { painter } from './render.js';

describe('live tail', () => {
  it('reduces escape sequences and carriage-return redraws to what the line finally reads', () => {
    expect(plainLine('\x1b[1;32mok\x1b[0m\tdone')).toBe('ok  done');
    expect(plainLine('10%\r50%\r100% built')).toBe('100% built');
  });

  it('paints the last lines at most every 100 ms, erases them at the end, and ignores output after it', () => {
    vi.useFakeTimers();
    try {
      let out = '';
      const tail = new LiveTail((s: string) => (out += s), painter(false), () => 40);
      tail.begin('c1');
      for (let i = 1; i <= 8; i++) tail.push('c1', `line ${i}\n`);
      expect(out).toBe('');
      vi.advanceTimersByTime(100);
      expect(out).toContain('8 lines so far');
      expect(out).toContain('│ line 8');
      expect(out).toContain('│ line 4');
      expect(out).not.toContain('│ line 3');
      // Quiet for a while: the running time goes on, repainted each second.
      out = '';
      vi.advanceTimersByTime(2000);
      expect(out).toContain('running · 2 s · 8 lines so far');
      out = '';
      expect(tail.end('c1')).toBe(Array.from({ length: 8 }, (_, i) => `line ${i + 1}\n`).join(''));
      expect(out).toBe('\x1b[6A\r\x1b[J');
      out = '';
      tail.push('c1', 'late\n');
      vi.advanceTimersByTime(500);
      expect(out).toBe('');
    } finally {
      vi.useRealTimers();
    }
  });
});
