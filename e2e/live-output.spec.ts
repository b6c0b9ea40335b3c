/**
 * Live output of a running command in a teammate's pane (issue 32, item 4), in real Chromium through
 * `thclaws dashboard`: a real teammate (scripted provider, OS sandbox) runs a long Bash; its last lines show in
 * the pane while it runs, are replaced by the result when it ends, and the result names the file that holds
 * the whole output — at 1440×900 and 390×844.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { THCLAWS } from '../test/desktop/helpers.js';
import { startDashboard, type Dashboard } from './fixture.js';

const SHOTS = process.env.THCLAWS_SHOTS_DIR ?? path.join('test-results', 'screenshots');
const ROWS = 40;
// Prints its rows, then waits for the test's release file: what the pane shows before the end is checked then.
const COMMAND = `for i in $(seq 1 ${ROWS}); do echo "row $i"; done; while [ ! -e .home/release ]; do sleep 0.05; done; echo fin''ished`;
const SCRIPT = {
  rules: [{ match: 'Task #1 —', turns: [{ text: 'running it', tool_calls: [{ name: 'Bash', input: { command: COMMAND } }, { name: 'TeamTaskComplete', input: { task_id: '1', summary: 'done' } }] }, { text: 'end' }] }],
  fallback: [{ text: 'ok' }],
};

let d: Dashboard;
let alice: ChildProcess | undefined;

test.beforeAll(async () => {
  d = await startDashboard(['alice'], { teamEnabled: true });
  fs.appendFileSync(path.join(d.ws, '.git', 'info', 'exclude'), '.thclaws/\n.home/\n');
  const home = path.join(d.ws, '.home');
  const script = path.join(home, 'script.json');
  fs.writeFileSync(script, JSON.stringify(SCRIPT));
  // Like the background launcher: the teammate's terminal output goes to its output.log (the pane shows it).
  fs.mkdirSync(path.join(d.teamDir, 'agents', 'alice'), { recursive: true });
  const log = fs.openSync(path.join(d.teamDir, 'agents', 'alice', 'output.log'), 'a');
  alice = spawn(THCLAWS, ['--team-agent', 'alice', '--script', script], {
    cwd: d.ws,
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), THCLAWS_TEAM_DIR: d.teamDir },
    stdio: ['ignore', log, log],
  });
});

test.afterAll(async () => {
  alice?.kill('SIGKILL');
  await d?.stop();
});

const paneText = (page: Page) => page.evaluate(() => (window as unknown as { __thclaws: { terminals: { text(a: string): string } } }).__thclaws.terminals.text('alice'));

test('a long Bash shows its last lines in the pane while it runs, then its result and where the whole output is', async ({ browser }) => {
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto(d.url);
  await expect(page.locator('.pane[data-agent="alice"]')).toBeVisible();
  d.cli('team', 'task', 'add', '--subject', 'run the long command', '--owner', 'alice');
  // The person lets it run from the approval inbox.
  await page.locator('.approval', { hasText: 'seq 1 40' }).getByRole('button', { name: 'Approve', exact: true }).click({ timeout: 40_000 });
  // Running: the tail is in the pane (the last rows, not the first), and no result yet.
  await expect.poll(() => paneText(page), { timeout: 40_000 }).toContain(`│ row ${ROWS}`);
  const running = await paneText(page);
  expect(running).toMatch(/running · \d+ s · \d+ lines so far/);
  expect(running).not.toContain('│ row 1\n');
  expect(running).not.toContain('⎿');
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const [w, h] of [[1440, 900], [390, 844]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.locator('.pane[data-agent="alice"]').scrollIntoViewIfNeeded();
    await expect.poll(() => paneText(page)).toContain(`│ row ${ROWS}`);
    await page.screenshot({ path: path.join(SHOTS, `live-output-running-${w}x${h}.png`) });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  fs.writeFileSync(path.join(d.ws, '.home', 'release'), '');
  // Ended: the tail is replaced in place by the result's first lines and the way to the rest.
  await expect.poll(() => paneText(page), { timeout: 30_000 }).toContain(`… ${ROWS + 2 - 6} more lines (all in `);
  const ended = (await paneText(page)).replace(/\s*\n/g, '');
  expect(ended).not.toMatch(/running · \d+ s/);
  const saved = /all in (\S+?\.txt)\)/.exec(ended)?.[1];
  expect(saved, ended).toMatch(/^\.thclaws\/sessions\/[^/]+\.outputs\/Bash-.+\.txt$/);
  const whole = fs.readFileSync(path.join(d.ws, saved!), 'utf8');
  expect(whole).toContain('row 1\nrow 2\n');
  expect(whole).toContain(`row ${ROWS}\nfinished\n[exit code 0]`);
  await page.screenshot({ path: path.join(SHOTS, 'live-output-ended-1440x900.png') });
  // The expander: the file's name in the pane is a link; Ctrl+click shows the whole output over the page. A plain
  // click only focuses the pane (to type there: a click to type that opened the dialog gave it the keys).
  const dialog = page.getByRole('dialog', { name: 'whole output from alice' });
  for (const [w, h] of [[1440, 900], [390, 844]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.locator('.pane[data-agent="alice"]').scrollIntoViewIfNeeded();
    // The terminal settled at this size (the pty took it, the lines reflowed) before the name's cell is read: a
    // late reflow moved the name from under the pointer (the hover found no link, on a loaded machine).
    await expect.poll(() => settled(page, 'alice')).toBe(true);
    const at = await linkCell(page, 'alice', '.thclaws/sessions/');
    // xterm.js asks for links only when the pointer's cell changes: the first hover is a cell further along the
    // name than where the clicks go (the round before clicked there, and at the new size it can be the same cell),
    // reached from the terminal's first cell.
    const screen = (await page.locator('.pane[data-agent="alice"] .xterm-screen').boundingBox())!;
    await page.mouse.move(screen.x + 2, screen.y + 2);
    await page.mouse.move(at.x + 12, at.y);
    // Hovering the name says how to open it.
    await expect(page.locator('.pane[data-agent="alice"] .xterm')).toHaveAttribute('title', 'Ctrl+click (or tap): show the whole output');
    // Leaving it takes the hint away: left, the whole terminal would say it wherever the pointer rests.
    await page.locator('.pane[data-agent="alice"] .pane-name').hover();
    await expect(page.locator('.pane[data-agent="alice"] .xterm')).not.toHaveAttribute('title', /./);
    // Back onto the name, at another cell of it.
    await page.mouse.move(at.x, at.y);
    await expect(page.locator('.pane[data-agent="alice"] .xterm')).toHaveAttribute('title', /Ctrl\+click/);
    await page.mouse.click(at.x, at.y);
    await expect(page.locator('.pane[data-agent="alice"] .xterm-helper-textarea')).toBeFocused();
    await expect(dialog).toHaveCount(0);
    await page.keyboard.down('Control');
    await page.mouse.click(at.x, at.y);
    await page.keyboard.up('Control');
    await expect(dialog.getByTestId('saved-output-text')).toContainText('row 1\nrow 2\nrow 3\n');
    await expect(dialog.getByTestId('saved-output-text')).toContainText(`row ${ROWS}\nfinished\n[exit code 0]`);
    await expect(dialog.getByTestId('saved-output-meta')).toHaveText(`${ROWS + 2} lines · ${saved}`);
    await page.screenshot({ path: path.join(SHOTS, `live-output-expanded-${w}x${h}.png`) });
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  }
  await page.context().close();
});

test('the expander reads only saved outputs of this workspace: a name leading elsewhere is refused in one line', async ({ browser }) => {
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto(d.url);
  await expect(page.locator('.pane[data-agent="alice"]')).toBeVisible();
  // What an agent could print to make its pane show another file: the page asks, the host refuses.
  await page.evaluate(() => (window as unknown as { __thclaws: { dashboard: { getState(): { showSavedOutput(o: unknown): void } } } }).__thclaws.dashboard.getState().showSavedOutput({ agent: 'alice', file: '/etc/.thclaws/sessions/x.outputs/../../../../passwd.txt' }));
  await expect(page.getByRole('alert')).toContainText(/not a saved tool output: \/etc\//i);
  await expect(page.getByRole('dialog', { name: 'whole output from alice' })).toHaveCount(0);
  await page.context().close();
});

/** Whether the pane's terminal is shown at the size its box fits (the pty's, once the host said it took it). */
function settled(page: Page, agent: string): Promise<boolean> {
  return page.evaluate((a) => {
    const t = (window as unknown as { __thclaws: { terminals: { shownSize(a: string): { cols: number; rows: number } | null; size(a: string): { cols?: number; rows?: number } } } }).__thclaws.terminals;
    const shown = t.shownSize(a);
    const own = t.size(a);
    return !!shown && shown.cols === own.cols && shown.rows === own.rows;
  }, agent);
}

/** The middle of the first cell of `text` in an agent's pane, on screen (it must be in the pane's viewport). */
async function linkCell(page: Page, agent: string, text: string): Promise<{ x: number; y: number }> {
  const cell = await page.evaluate(({ agent, text }) => {
    const pane = (window as unknown as { __thclaws: { terminals: { panes: Map<string, { term: { rows: number; cols: number; buffer: { active: { viewportY: number; length: number; getLine(y: number): { translateToString(trim: boolean): string } | undefined } } } }> } } }).__thclaws.terminals.panes.get(agent)!;
    const buf = pane.term.buffer.active;
    for (let y = buf.viewportY; y < buf.viewportY + pane.term.rows; y++) {
      const x = buf.getLine(y)?.translateToString(false).indexOf(text) ?? -1;
      if (x >= 0) return { col: x, row: y - buf.viewportY, cols: pane.term.cols, rows: pane.term.rows };
    }
    return null;
  }, { agent, text });
  expect(cell, `"${text}" in ${agent}'s pane`).not.toBeNull();
  const box = (await page.locator(`.pane[data-agent="${agent}"] .xterm-screen`).boundingBox())!;
  return { x: box.x + ((cell!.col + 0.5) * box.width) / cell!.cols, y: box.y + ((cell!.row + 0.5) * box.height) / cell!.rows };
}

test('a cut output in Thai says how much of it is shown in bytes, as its size is, and ends on a whole character', async ({ browser }) => {
  // 3 bytes a character: 600 000 bytes, cut at 512 KB inside a character.
  const dir = path.join(d.ws, '.thclaws', 'sessions', 'th1.outputs');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'Bash-th.txt'), 'สวัสดี\n'.repeat(600_000 / 19) + 'x'.repeat(600_000 % 19));
  for (const [width, height] of [[1440, 900], [390, 844]] as const) {
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    await page.goto(d.url);
    await expect(page.locator('.pane[data-agent="alice"]')).toBeVisible();
    await page.evaluate(() => (window as unknown as { __thclaws: { dashboard: { getState(): { showSavedOutput(o: unknown): void } } } }).__thclaws.dashboard.getState().showSavedOutput({ agent: 'alice', file: '.thclaws/sessions/th1.outputs/Bash-th.txt' }));
    await expect(page.getByTestId('saved-output-meta')).toContainText('(512 KB of 586 KB)');
    expect(await page.getByTestId('saved-output-text').textContent()).not.toContain('\uFFFD');
    await page.screenshot({ path: path.join(SHOTS, `saved-output-thai-${width}.png`) });
    await page.context().close();
  }
});
