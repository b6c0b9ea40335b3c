/**
 * A unified patch cut into pages of at most `maxLines` hunk lines, each page itself a valid patch (the file
 * header, then whole hunks or pieces of one with recomputed `@@` headers). The Changes view renders a page
 * only when it comes near the screen, so a 5,000-line diff paints its first screen at once.
 */

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;

interface Piece {
  oldStart: number;
  newStart: number;
  lines: string[];
  tail: string;
}

function header(p: Piece): string {
  let oldCount = 0;
  let newCount = 0;
  for (const l of p.lines) {
    if (l[0] === ' ' || l[0] === '-') oldCount++;
    if (l[0] === ' ' || l[0] === '+') newCount++;
  }
  // A side with no lines names the line it comes after (git's convention), one before where it would start.
  const o = oldCount ? p.oldStart : Math.max(0, p.oldStart - 1);
  const n = newCount ? p.newStart : Math.max(0, p.newStart - 1);
  return `@@ -${o},${oldCount} +${n},${newCount} @@${p.tail}`;
}

export interface PatchPage {
  /** The page as a patch (file header + its hunks). */
  text: string;
  /** Hunk lines on the page (what its height is estimated from). */
  lines: number;
}

export function paginatePatch(patch: string, maxLines = 400, firstMax = maxLines): PatchPage[] {
  const all = patch.split('\n');
  if (all.length && all[all.length - 1] === '') all.pop();
  const first = all.findIndex((l) => l.startsWith('@@ '));
  if (first < 0) return [{ text: patch, lines: 0 }];
  const head = all.slice(0, first).join('\n');
  const pages: PatchPage[] = [];
  let pageHunks: string[] = [];
  let pageLines = 0;
  const flush = () => {
    if (!pageHunks.length) return;
    pages.push({ text: `${head}\n${pageHunks.join('\n')}\n`, lines: pageLines });
    pageHunks = [];
    pageLines = 0;
  };
  let i = first;
  while (i < all.length) {
    const m = HUNK.exec(all[i]!);
    if (!m) {
      i++;
      continue;
    }
    let oldLine = Number(m[1]) || 1;
    let newLine = Number(m[3]) || 1;
    if (m[2] === '0') oldLine = Number(m[1]) + 1;
    if (m[4] === '0') newLine = Number(m[3]) + 1;
    const tail = m[5] ?? '';
    i++;
    let piece: Piece = { oldStart: oldLine, newStart: newLine, lines: [], tail };
    const emit = () => {
      if (!piece.lines.length) return;
      pageHunks.push(header(piece), ...piece.lines);
      pageLines += piece.lines.length;
    };
    while (i < all.length && !all[i]!.startsWith('@@ ')) {
      const l = all[i]!;
      // A "\ No newline" marker belongs to the line before it: never the first line of a piece.
      if (pageLines + piece.lines.length >= (pages.length ? maxLines : firstMax) && l[0] !== '\\') {
        emit();
        flush();
        piece = { oldStart: oldLine, newStart: newLine, lines: [], tail: '' };
      }
      piece.lines.push(l);
      if (l[0] === ' ' || l[0] === '-') oldLine++;
      if (l[0] === ' ' || l[0] === '+') newLine++;
      i++;
    }
    emit();
  }
  flush();
  return pages.length ? pages : [{ text: patch, lines: 0 }];
}
