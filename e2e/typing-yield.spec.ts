import { expect, test, type Page } from '@playwright/test';
import { fakeClockPage, startDashboard, type Dashboard } from './fixture.js';

// The renderer's pump, wired to the person's typing: while they type into one pane, the others yield (one small
// write per turn) and catch up afterwards. The page's clock is Playwright's fake clock, so animation frames,
// xterm's parse timers and the pump's own timers run only as the test advances time (it is paused once the panes
// show, so the real time the test's own steps take does not leak in): nothing here depends on how fast this
// machine is. The lead's real echo of a key arrives over the WebSocket in real time and is written on arrival.

let d: Dashboard;
let page: Page;

test.beforeAll(async ({ browser }) => {
  d = await startDashboard(['alice']);
  // The panes' screens in and the lead's prompt drawn before the clock stops: output arriving later would wait
  // for a frame of the paused clock, with a key's echo queued behind it.
  page = await fakeClockPage(browser, d.url, 'alice', 'lead');
  await expect.poll(() => page.evaluate(() => {
    const t = (window as unknown as { __thclaws: { terminals: Terminals } }).__thclaws.terminals;
    return t.text('lead').includes('thclaws>') && t.pending() === 0;
  })).toBe(true);
  // Paused a little past the page's own time (not this process's clock: the page's fake time can lag it).
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100);
});

test.afterAll(async () => {
  await page?.close();
  await d?.stop();
});

interface Terminals {
  output(agent: string, data: string, reset: boolean): void;
  written(agent: string): number;
  text(agent: string): string;
  pending(): number;
}
const written = (agent: string) => page.evaluate((a) => (window as unknown as { __thclaws: { terminals: Terminals } }).__thclaws.terminals.written(a), agent);
/**
 * Advances the page's clock `ms` in 10 ms steps, each its own call: whatever a step's timers start outside the
 * fake clock (a promise, xterm's write callbacks) runs before the next step, as in a real browser.
 */
const advance = async (ms: number) => {
  for (let t = 0; t < ms; t += 10) await page.clock.runFor(10);
};
/** A key pressed in the lead's pane (focused), and its real echo written there. */
const keyAndEcho = async () => {
  const before = await written('lead');
  await page.keyboard.press('x');
  await expect.poll(() => written('lead')).toBeGreaterThan(before);
};
/** Output for alice's pane as if the host had sent it (her acknowledgements are clamped by the host's flow gate). */
const flood = (chars: number) =>
  page.evaluate((n) => {
    const line = `${'y'.repeat(1022)}\r\n`;
    (window as unknown as { __thclaws: { terminals: Terminals } }).__thclaws.terminals.output('alice', line.repeat(Math.ceil(n / line.length)).slice(0, n), false);
  }, chars);

test('while the person types into one pane, a flood in another gets one small write per turn; it catches up after', async () => {
  const total = 512 * 1024;
  // Not typing: the flood goes through the frame budget (256 K to start), far more than a yielding pane's 32 K.
  let base = await written('alice');
  await flood(total);
  await advance(200); // the pump, xterm's parse and their callbacks in turn
  expect(await written('alice')).toBeGreaterThan(base + 64 * 1024);
  await advance(3000);
  expect(await written('alice')).toBe(base + total);

  // Typing into the lead's pane: the same flood now gets at most 32 K per 100 ms of the page's clock.
  await page.locator('.pane[data-agent="lead"] .xterm').click();
  await page.keyboard.press('x');
  base = await written('alice');
  await flood(total);
  await advance(150); // ten frames: two turns of the others at most
  const during = (await written('alice')) - base;
  expect(during).toBeGreaterThan(0); // it still moves
  expect(during).toBeLessThanOrEqual(2 * 32 * 1024);
  // Two seconds after the last key the others catch up, nothing lost.
  await advance(5000);
  expect(await written('alice')).toBe(base + total);
});

test('the others\' turn waits for the echo of a key, and goes in the frame after the echo\'s', async () => {
  const lead = page.locator('.pane[data-agent="lead"] .xterm');
  await lead.click();
  /** Advances the page's clock 10 ms at a time until alice's pane gets its turn (a write); returns the ms taken. */
  const untilTurn = async (max: number) => {
    const base = await written('alice');
    for (let ms = 10; ms <= max; ms += 10) {
      await page.clock.runFor(10);
      if ((await written('alice')) > base) return ms;
    }
    return Infinity;
  };
  await keyAndEcho();
  await flood(512 * 1024);
  expect(await untilTurn(50)).toBeLessThan(Infinity); // the others' first turn: nothing held before it
  // 90 ms later their next turn is 10 ms away; a key now, its echo written at once on arrival: the turn waits for
  // the echo's frame and comes in the frame after it. Not told that the echo came, the pump would hold the turn
  // until 100 ms after the key.
  await page.clock.runFor(90);
  await keyAndEcho();
  expect(await untilTurn(150)).toBeLessThanOrEqual(50);
});

test('xterm\'s hidden textarea follows the cursor (where an IME shows what is being composed) in the frame, not as the output is parsed', async () => {
  const lead = page.locator('.pane[data-agent="lead"] .xterm');
  await lead.click();
  // Where the textarea is, against where the cursor is: the cell's size from the screen's width over its columns.
  const place = () =>
    page.evaluate(() => {
      const t = (window as unknown as { __thclaws: { terminals: { panes: Map<string, { term: { cols: number; textarea?: HTMLTextAreaElement; element?: HTMLElement; buffer: { active: { cursorX: number; cursorY: number } } } }> } } }).__thclaws.terminals;
      const term = t.panes.get('lead')!.term;
      const screen = term.element!.querySelector('.xterm-screen')!.getBoundingClientRect();
      const cell = screen.width / term.cols;
      return { left: parseFloat(term.textarea!.style.left), want: Math.min(term.buffer.active.cursorX, term.cols - 1) * cell, x: term.buffer.active.cursorX };
    });
  // It moves in the frame that draws the rows, not in the task that parsed the output (a style dirtied there made
  // that frame lay the page out twice): as the parse ends, the textarea is where it was.
  await page.evaluate(() => {
    const t = (window as unknown as { __thclaws: { terminals: { panes: Map<string, { term: { textarea?: HTMLTextAreaElement; write(d: string, cb: () => void): void } }> } } }).__thclaws.terminals;
    const term = t.panes.get('lead')!.term;
    const w = window as unknown as { __atParse?: { before: string; after: string } };
    const before = term.textarea!.style.left;
    term.write('\x1b[3C', () => (w.__atParse = { before, after: term.textarea!.style.left }));
  });
  await page.clock.runFor(20);
  const moved = await page.evaluate(() => (window as unknown as { __atParse?: { before: string; after: string } }).__atParse);
  expect(moved).toBeDefined();
  expect(moved!.after).toBe(moved!.before);
  expect(Math.abs((await place()).left - (await place()).want)).toBeLessThan(0.5);
  for (const key of ['a', 'b', 'c']) {
    const before = (await place()).x;
    await page.keyboard.press(key);
    await expect.poll(async () => (await place()).x).toBe(before + 1);
    await page.clock.runFor(20); // the frame that draws the echo
    const p = await place();
    expect(Math.abs(p.left - p.want)).toBeLessThan(0.5);
  }
});

test('a pane taken off the page (Max on another) while its output is being drawn: no error, and it shows its output when back', async () => {
  // The error a frame's callback throws (the fake clock's runFor throws it too).
  const errors: string[] = [];
  const onError = (e: Error) => errors.push(e.message);
  page.on('pageerror', onError);
  const text = () => page.evaluate(() => (window as unknown as { __thclaws: { terminals: { text(a: string): string } } }).__thclaws.terminals.text('alice'));
  const pending = () => page.evaluate(() => (window as unknown as { __thclaws: { terminals: { pending(): number } } }).__thclaws.terminals.pending());
  // The earlier tests' floods written, and their keys' hold over (alice's history is shown again at full speed).
  for (let ms = 0; ms < 10_000 && (await pending()) > 0; ms += 100) await advance(100);
  expect(await pending()).toBe(0);
  await advance(2000);
  await page.evaluate(() => (window as unknown as { __thclaws: { terminals: Terminals } }).__thclaws.terminals.output('alice', 'marker before Max', false));
  // Until xterm has parsed it (the cursor moved along the row), a millisecond at a time: the frame that draws it has not come yet.
  for (let ms = 0; ms < 200 && !(await text()).includes('marker before Max'); ms++) await page.clock.runFor(1);
  expect(await text()).toContain('marker before Max');
  await page.locator('.pane[data-agent="lead"]').getByRole('button', { name: 'Max' }).click();
  await expect(page.locator('.pane[data-agent="alice"] .xterm')).toHaveCount(0);
  await advance(100); // the frames after
  await page.locator('.pane[data-agent="lead"]').getByRole('button', { name: 'Restore' }).click();
  await expect(page.locator('.pane[data-agent="alice"] .xterm')).toBeVisible();
  for (let ms = 0; ms < 3000 && !(await text()).includes('marker before Max'); ms += 100) await advance(100);
  expect(await text()).toContain('marker before Max');
  page.off('pageerror', onError);
  expect(errors).toEqual([]);
});

test('when the echo\'s frame comes late, the others\' turn sleeps until it is due: the page runs no task for it every millisecond meanwhile', async () => {
  const lead = page.locator('.pane[data-agent="lead"] .xterm');
  await lead.click();
  await keyAndEcho();
  let base = await written('alice');
  await flood(512 * 1024);
  for (let ms = 0; ms < 100 && (await written('alice')) === base; ms += 10) await page.clock.runFor(10);
  expect(await written('alice')).toBeGreaterThan(base); // the others' first turn
  await page.clock.runFor(90);
  // Each run of the pump, counted from here.
  await page.evaluate(() => {
    const t = (window as unknown as { __thclaws: { terminals: { pump(now: number): void; runs?: number } } }).__thclaws.terminals;
    const pump = t.pump;
    t.runs = 0;
    t.pump = function (now: number) {
      t.runs!++;
      pump.call(this, now);
    };
  });
  // A key 90 ms after the turn, its echo written on arrival (the gap ends 10 ms later); the frame after it comes
  // 60 ms late (a long task before it), past the 50 ms after the echo in which the others' turn may go.
  await keyAndEcho();
  base = await written('alice');
  await page.clock.fastForward(60);
  await advance(300); // past the fourth gap after the last turn
  const runs = await page.evaluate(() => (window as unknown as { __thclaws: { terminals: { runs: number } } }).__thclaws.terminals.runs);
  expect(runs).toBeLessThanOrEqual(5);
  // The turn came at the fourth gap (400 ms after the last), nothing starved.
  expect(await written('alice')).toBeGreaterThan(base);
});

test('a pane shown again while the others yield (Restore after Max) draws its screen in the next frame, not at their next turn', async () => {
  const text = (agent: string) => page.evaluate((a) => (window as unknown as { __thclaws: { terminals: { text(a: string): string } } }).__thclaws.terminals.text(a), agent);
  const lead = page.locator('.pane[data-agent="lead"]');
  await lead.locator('.xterm').click();
  const before = await written('lead');
  await page.keyboard.press('z');
  await expect.poll(() => written('lead')).toBeGreaterThan(before);
  const base = await written('alice');
  await flood(512 * 1024);
  for (let ms = 0; ms < 100 && (await written('alice')) === base; ms += 10) await page.clock.runFor(10);
  expect(await written('alice')).toBeGreaterThan(base); // the others' turn: the pump sleeps until their next
  await page.clock.runFor(20);
  // The person maximises alice's pane and restores it: the lead's pane is taken off the page and shown again.
  const alice = page.locator('.pane[data-agent="alice"]');
  await alice.getByRole('button', { name: 'Max' }).click();
  await expect(lead.locator('.xterm')).toHaveCount(0);
  await alice.getByRole('button', { name: 'Restore' }).click();
  await expect(lead.locator('.xterm')).toBeVisible();
  await advance(50); // three frames
  expect(await text('lead')).toContain('thclaws>');
});

test('a pane whose screen came empty from the host (an agent that has drawn nothing yet) writes a key\'s echo on arrival', async () => {
  // The host's screen of the lead, empty: it leaves nothing queued that the echo would wait behind for a frame.
  await page.evaluate(() => (window as unknown as { __thclaws: { terminals: Terminals } }).__thclaws.terminals.output('lead', '', true));
  await page.locator('.pane[data-agent="lead"] .xterm').click();
  await keyAndEcho();
});
