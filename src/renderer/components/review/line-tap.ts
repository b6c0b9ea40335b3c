import { SplitSide } from '@git-diff-view/react';

/**
 * The diff line a click or tap landed on, read from the diff component's markup: unified rows carry
 * `data-line-new-num` / `data-line-old-num`; split rows (or their cells, when lines wrap) carry `data-side` and
 * a `data-line-num`. The new side when the line has one (comments are on the teammate's version). Null off a
 * line: rows of comment boxes, forms and hunk headers carry no line number.
 */
export function lineAt(target: Element): { side: SplitSide; line: number } | null {
  const row = target.closest('.diff-line');
  if (!row) return null;
  const num = (el: Element | null, attr: string) => {
    const n = Number(el?.getAttribute(attr));
    return Number.isInteger(n) && n > 0 ? n : null;
  };
  const sideEl = target.closest('[data-side]');
  if (sideEl && (sideEl === row || row.contains(sideEl))) {
    const name = sideEl.getAttribute('data-side');
    // Side by side: the row is one side's line, or (lines wrapped) holds both sides' cells.
    const numEl = sideEl === row ? row.querySelector('[data-line-num]') : row.querySelector(`[data-side="${name}"] [data-line-num]`);
    const line = num(numEl, 'data-line-num');
    return line ? { side: name === 'old' ? SplitSide.old : SplitSide.new, line } : null;
  }
  const added = num(row.querySelector('[data-line-new-num]'), 'data-line-new-num');
  if (added) return { side: SplitSide.new, line: added };
  const old = num(row.querySelector('[data-line-old-num]'), 'data-line-old-num');
  return old ? { side: SplitSide.old, line: old } : null;
}

/** A tap (touch) anywhere on a line, or a click on its number: a mouse click in the code stays for selecting text. */
export function opensComment(target: Element, pointerType: string | undefined): boolean {
  return pointerType === 'touch' || pointerType === 'pen' || target.closest('[class*="-num"]') !== null;
}
