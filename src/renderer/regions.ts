import { terminals } from './context';
import { dashboard } from './store';

/**
 * The page's regions, in the order F6 visits them (as browsers and VS Code do): the header bar, the
 * approval inbox, the team bar, the budgets, then each pane (or the task board). A terminal keeps every other key for the agent's REPL
 * (Tab, Shift+Tab, Escape included), so F6 / Shift+F6 is how focus leaves it. Regions are marked
 * `data-region` in the markup; entering a pane focuses its terminal, any other region itself (announced by
 * its label), from where Tab moves through its controls.
 */
export function cycleRegion(delta: 1 | -1): void {
  const regions = [...document.querySelectorAll<HTMLElement>('[data-region]')].filter((r) => r.offsetParent !== null || r === document.body);
  if (!regions.length) return;
  const active = document.activeElement;
  const at = regions.findIndex((r) => active instanceof Node && r.contains(active));
  const next = regions[at < 0 ? (delta > 0 ? 0 : regions.length - 1) : (at + delta + regions.length) % regions.length]!;
  enterRegion(next);
}

function enterRegion(r: HTMLElement): void {
  const agent = r.dataset.agent;
  if (agent) {
    dashboard.getState().focus(agent);
    terminals.focus(agent);
    if (r.contains(document.activeElement)) return;
  }
  if (!r.hasAttribute('tabindex')) r.tabIndex = -1;
  r.focus();
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The elements Tab stops at inside `root`, in order (visible ones only). */
export function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((e) => e.offsetParent !== null || e.getClientRects().length > 0);
}
