/**
 * The expander of a tool output a pane cut short: the pane's "… N more lines (all in <file>)" names the whole
 * output's file, and that name is a link (xterm's link provider, as VS Code's terminal does): a click opens it
 * in the page with Ctrl/⌘+click or a tap (a plain click focuses the pane: a click to type there that landed on the
 * name opened the dialog, which then took the keys). The line may wrap over several rows (an absolute path from a
 * worktree teammate's pane).
 */
import type { IBufferLine, ILink, Terminal } from '@xterm/xterm';

/** The saved file in a line of a pane, with its column range (0-based, end exclusive). */
export function findSavedOutputs(line: string): Array<{ file: string; start: number; end: number }> {
  const out: Array<{ file: string; start: number; end: number }> = [];
  for (const m of line.matchAll(/all in (\S*\.thclaws\/sessions\/[A-Za-z0-9][\w-]*\.outputs\/[\w.-]+\.txt)\)/g)) {
    const start = m.index! + 'all in '.length;
    out.push({ file: m[1]!, start, end: start + m[1]!.length });
  }
  return out;
}

const MODIFIER = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl';

/** Whether a click opens the link: with Ctrl or ⌘ held, or a tap on a touch screen (no modifier there). */
export function followsLink(e: Pick<MouseEvent, 'ctrlKey' | 'metaKey'> & { sourceCapabilities?: { firesTouchEvents?: boolean } | null }): boolean {
  return e.ctrlKey || e.metaKey || e.sourceCapabilities?.firesTouchEvents === true;
}

export function savedOutputLinks(term: Terminal, open: (file: string) => void): void {
  term.registerLinkProvider({
    provideLinks(y, callback) {
      const buf = term.buffer.active;
      // The logical line holding row y (1-based): its first row, then every row wrapped onto it.
      let first = y - 1;
      while (first > 0 && buf.getLine(first)?.isWrapped) first--;
      const rows: IBufferLine[] = [];
      for (let r = first; ; r++) {
        const l = buf.getLine(r);
        if (!l || (r > first && !l.isWrapped)) break;
        rows.push(l);
      }
      const cols = term.cols;
      const text = rows.map((l) => l.translateToString(false, 0, cols)).join('');
      const at = (offset: number) => ({ x: (offset % cols) + 1, y: first + Math.floor(offset / cols) + 1 });
      const links: ILink[] = findSavedOutputs(text)
        .map((f) => ({ f, range: { start: at(f.start), end: at(f.end - 1) } }))
        .filter(({ range }) => range.start.y <= y && range.end.y >= y)
        .map(({ f, range }) => ({
          range,
          text: f.file,
          decorations: { underline: true, pointerCursor: true },
          // Ctrl/⌘+click, as in VS Code's terminal, or a tap: a plain click into a pane focuses it (to type there).
          activate: (e: MouseEvent) => void (followsLink(e) && open(f.file)),
          hover: () => term.element?.setAttribute('title', `${MODIFIER}+click (or tap): show the whole output`),
          leave: () => term.element?.removeAttribute('title'),
        }));
      callback(links.length ? links : undefined);
    },
  });
}
