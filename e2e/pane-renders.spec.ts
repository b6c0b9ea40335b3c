/**
 * A member event re-renders that member's pane only, in real Chromium through `thclaws dashboard`. With hundreds
 * of teammates each CPU sample of one of them re-rendered every pane (a page of 200 used 65 % of a core; the
 * bench's large-team). Which panes rendered is read from React itself: a hook in DevTools' place, installed before
 * the page loads, sees each commit's fibers; a pane rendered in a commit when its fiber was worked on (a new fiber
 * object for its key) and its function ran (React's PerformedWork flag). Counts, no timings.
 */
import { expect, test, type Page } from '@playwright/test';
import { startDashboard, type Dashboard } from './fixture.js';

const N = 24;
const names = Array.from({ length: N }, (_, i) => `t${String(i).padStart(2, '0')}`);
const target = names[7]!;
let d: Dashboard;
let page: Page;

/** Runs in the page before its scripts: React's production build reports each commit to this hook. */
function installRenderHook(): void {
  const w = window as unknown as { __paneRenders: string[]; __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown };
  w.__paneRenders = [];
  /** Each pane's fiber as the last commit left it (a pane skipped by a commit keeps the same object). */
  const last = new Map<string, object>();
  interface Fiber {
    key: string | null;
    flags: number;
    memoizedProps: unknown;
    child: Fiber | null;
    sibling: Fiber | null;
  }
  /** A pane's fiber: the one keyed by its member's name whose props are a pane's (`member`, `visible`). */
  const paneKey = (f: Fiber): string | null => {
    const p = f.memoizedProps as { member?: { name?: unknown }; visible?: unknown } | null;
    return f.key !== null && p && typeof p === 'object' && 'visible' in p && p.member?.name === f.key ? f.key : null;
  };
  const PERFORMED_WORK = 1;
  const renderers = new Map<number, unknown>();
  w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    renderers,
    supportsFiber: true,
    isDisabled: false,
    inject(renderer: unknown) {
      renderers.set(renderers.size + 1, renderer);
      return renderers.size;
    },
    checkDCE() {},
    onScheduleFiberRoot() {},
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    onCommitFiberRoot(_id: number, root: { current: Fiber }) {
      const stack: Fiber[] = [root.current];
      while (stack.length) {
        const f = stack.pop()!;
        const key = paneKey(f);
        if (key !== null) {
          if (last.get(key) !== f && f.flags & PERFORMED_WORK) w.__paneRenders.push(key);
          last.set(key, f);
        }
        if (f.sibling) stack.push(f.sibling);
        if (f.child) stack.push(f.child);
      }
    },
  };
}

const renders = () => page.evaluate(() => (window as unknown as { __paneRenders: string[] }).__paneRenders.splice(0));

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  d = await startDashboard(names);
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.addInitScript(installRenderHook);
  await page.goto(d.url);
});

test.afterAll(async () => {
  await page?.close();
  await d?.stop();
});

test("one teammate's events re-render its own pane, not the other teammates'", async () => {
  test.setTimeout(120_000);
  await expect(page.locator('.pane')).toHaveCount(N + 1, { timeout: 60_000 });
  // The hook sees the page's React: every pane rendered when it first appeared.
  await expect.poll(async () => new Set(await renders()).size, { timeout: 30_000 }).toBeGreaterThanOrEqual(N + 1);
  // The teammate starts: its status, heartbeats and CPU samples reach the page as member events of its own.
  d.startSim(target);
  await expect(page.locator(`.pane[data-agent="${target}"] .badge`)).toHaveText(/idle|working/, { timeout: 30_000 });
  const seen: string[] = [];
  await expect
    .poll(
      async () => {
        seen.push(...(await renders()));
        return seen.filter((k) => k === target).length;
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThanOrEqual(3);
  // The lead runs too (its own member events re-render its own pane); no other teammate's pane rendered.
  expect([...new Set(seen)].filter((k) => k !== target && k !== 'lead')).toEqual([]);
});
