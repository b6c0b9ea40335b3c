import { describe, expect, it } from 'vitest';
import { mapRange, parseHunks } from './comment-follow.js';

describe('mapRange: where old lines went after a -U0 diff', () => {
  it('hunks above shift the range; a hunk below leaves it; one touching or inserting into it outdates it', () => {
    const above = parseHunks('@@ -0,0 +1,5 @@\n+a\n+b\n+c\n+d\n+e\n'); // 5 lines inserted at the top
    expect(mapRange(above, 7, 7)).toEqual({ line: 12, end: 12 });
    expect(mapRange(parseHunks('@@ -2,3 +2 @@\n'), 7, 8)).toEqual({ line: 5, end: 6 }); // 3 lines replaced by 1 above
    expect(mapRange(parseHunks('@@ -9 +9,4 @@\n'), 7, 8)).toEqual({ line: 7, end: 8 }); // below
    expect(mapRange(parseHunks('@@ -8 +8 @@\n'), 7, 8)).toBeNull(); // its last line changed
    expect(mapRange(parseHunks('@@ -7,0 +8 @@\n'), 7, 8)).toBeNull(); // a line inserted between 7 and 8
    expect(mapRange(parseHunks('@@ -8,0 +9 @@\n'), 7, 8)).toEqual({ line: 7, end: 8 }); // inserted right after it
    expect(mapRange(parseHunks('@@ -6,0 +7,2 @@\n'), 7, 8)).toEqual({ line: 9, end: 10 }); // inserted right above it
  });
});
