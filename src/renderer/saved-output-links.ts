/**
 * The expander of a tool output a pane cut short: the pane's "… N more lines (all in <file>)" names the whole
 * output's file, and that name is a link (xterm's link provider, as VS Code's terminal does): a click opens it
 * in the page. The line may wrap over several rows (an absolute path from a worktree teammate's pane).
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
        .map(({ f, range }) => ({ range, text: f.file, decorations: { underline: true, pointerCursor: true }, activate: () => open(f.file) }));
      callback(links.length ? links : undefined);
    },
  });
}
