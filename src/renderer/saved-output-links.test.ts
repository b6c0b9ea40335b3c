import { describe, expect, it } from 'vitest';
import { findSavedOutputs, followsLink } from './saved-output-links';

describe("a pane's link to it", () => {
  it('is the file named after "all in", to its closing parenthesis', () => {
    const line = '    … 36 more lines (Ctrl-O shows them · all in .thclaws/sessions/s-1.outputs/Bash-toolu_1.txt)';
    const [f] = findSavedOutputs(line);
    expect(f).toEqual({ file: '.thclaws/sessions/s-1.outputs/Bash-toolu_1.txt', start: line.indexOf('.thclaws'), end: line.length - 1 });
    expect(findSavedOutputs('    … 3 more lines (all in /w/t/.thclaws/sessions/s.outputs/Read-x.txt)')[0]?.file).toBe('/w/t/.thclaws/sessions/s.outputs/Read-x.txt');
    expect(findSavedOutputs('all in notes.txt)')).toEqual([]);
  });
});

describe('what opens it', () => {
  it('Ctrl or ⌘ with the click, or a tap; never a plain click (it focuses the pane to type there)', () => {
    expect(followsLink({ ctrlKey: false, metaKey: false })).toBe(false);
    expect(followsLink({ ctrlKey: false, metaKey: false, sourceCapabilities: { firesTouchEvents: false } })).toBe(false);
    expect(followsLink({ ctrlKey: true, metaKey: false })).toBe(true);
    expect(followsLink({ ctrlKey: false, metaKey: true })).toBe(true);
    expect(followsLink({ ctrlKey: false, metaKey: false, sourceCapabilities: { firesTouchEvents: true } })).toBe(true);
  });
});
