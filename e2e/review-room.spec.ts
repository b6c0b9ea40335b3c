/**
 * Review with room to work, in real Chromium through `thclaws dashboard`, on a desktop (1440×900) and a touch
 * phone (390×844, hasTouch): Changes and Merge are views within the page (the header and its tabs stay on top
 * and usable); a line is commented by tapping it (phone) or its number (desktop); long lines wrap on the phone
 * (a toggle, remembered); an added file is one column; "Send review" reads disabled, with the reason, until
 * there is a comment. Screenshots of Changes and Merge at both sizes go to test-results/review-room.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { ROOT } from '../test/desktop/helpers.js';
import { startDashboard, type Dashboard } from './fixture.js';

let d: Dashboard;
let desk: Page;
const deskErrors: string[] = [];
const SHOTS = path.join(ROOT, 'test-results', 'review-room');
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const LONG = `  const message = 'a long line that a phone could only read by scrolling sideways: ${'word '.repeat(30).trim()}';`;
const CALC = 'function total(items) {\n  let sum = 0;\n  for (const i of items) sum += i.price;\n  return sum;\n}\n';

async function phonePage(browser: Browser, hash = ''): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  const p = await ctx.newPage();
  await p.goto(d.url + hash);
  return p;
}

/** What a person can click at the middle of `loc`: the element itself (or inside it), not something over it. */
async function onTop(loc: Locator): Promise<boolean> {
  return loc.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return r.width > 0 && hit !== null && (hit === el || el.contains(hit));
  });
}

async function serious(p: Page, what: string): Promise<string[]> {
  const r = await new AxeBuilder({ page: p }).analyze();
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${what}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

test.beforeAll(async ({ browser }) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  d = await startDashboard(['alice'], { teamEnabled: true });
  const git = (...a: string[]) => execFileSync('git', ['-c', 'user.email=e2e@thclaws.local', '-c', 'user.name=e2e', ...a], { cwd: d.ws, encoding: 'utf8' });
  fs.writeFileSync(path.join(d.ws, 'calc.js'), CALC);
  fs.writeFileSync(path.join(d.ws, 'gone.js'), 'export const gone = true;\n');
  fs.appendFileSync(path.join(d.ws, '.git', 'info', 'exclude'), '.worktrees/\n.thclaws/\n.home/\n');
  git('add', 'calc.js', 'gone.js');
  git('commit', '-qm', 'calc');
  git('worktree', 'add', '-q', '-b', 'team/alice', path.join('.worktrees', 'alice'));
  const wt = path.join(d.ws, '.worktrees', 'alice');
  fs.writeFileSync(path.join(wt, 'calc.js'), CALC.replace('  return sum;', `${LONG}\n  return Math.round(sum);`));
  fs.writeFileSync(path.join(wt, 'added.js'), 'export const added = 1;\nexport const more = 2;\n');
  fs.rmSync(path.join(wt, 'gone.js'));
  desk = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  desk.on('pageerror', (e) => deskErrors.push(e.message));
  await desk.goto(d.url);
  await expect(desk.locator('.pane[data-agent="alice"] .pane-changes')).toBeVisible({ timeout: 30_000 });
});

test.afterAll(async () => {
  await desk?.context().close();
  await d?.stop();
});

test('Changes and Merge are views within the page: the header and its tabs stay on top and take clicks (1440 and 390)', async ({ browser }) => {
  const phone = await phonePage(browser);
  try {
    for (const p of [desk, phone]) {
      const header = p.getByRole('banner', { name: 'team header' });
      await header.getByRole('button', { name: 'Changes' }).click();
      const view = p.getByTestId('changes-view');
      await expect(view).toBeVisible();
      expect(await onTop(p.locator('.team-name')), 'the team name is not covered by the Changes view').toBe(true);
      expect(await onTop(header.getByRole('button', { name: 'Team', exact: true })), 'the Team tab is not covered').toBe(true);
      await expect(header.getByRole('button', { name: 'Changes' })).toHaveAttribute('aria-current', 'page');
      // Marked on screen too, as the current tab is: its colour is not the other buttons'.
      const bg = async (name: string) => {
        await p.mouse.move(1, p.viewportSize()!.height - 1); // the pointer off the buttons (hover has its own colour)
        return header.getByRole('button', { name, exact: true }).evaluate((el) => getComputedStyle(el).backgroundColor);
      };
      expect(await bg('Changes')).not.toBe(await bg('Merge'));
      await expect(header.getByRole('button', { name: 'Team', exact: true })).not.toHaveAttribute('aria-current', 'page');
      // A region of the page: F6 from the header reaches the view (after the approvals strip).
      await header.getByRole('button', { name: 'Changes' }).focus();
      const visited: string[] = [];
      for (let i = 0; i < 4 && !visited.includes('changes'); i++) {
        await p.keyboard.press('F6');
        visited.push((await p.evaluate(() => document.activeElement?.closest('[data-region]')?.getAttribute('aria-label'))) ?? 'none');
      }
      expect(visited).toContain('changes');
      // The header's Merge opens the merge panel in the same place, header still there.
      await header.getByRole('button', { name: 'Merge', exact: true }).click();
      await expect(p.getByTestId('merge-panel')).toBeVisible();
      expect(await onTop(header.getByRole('button', { name: 'Tasks' })), 'the Tasks tab is not covered by the merge panel').toBe(true);
      await expect(header.getByRole('button', { name: 'Merge', exact: true })).toHaveAttribute('aria-current', 'page');
      expect(await bg('Merge')).not.toBe(await bg('Changes'));
      // A tab leaves the review for that view.
      await header.getByRole('button', { name: 'Tasks' }).click({ timeout: 5_000 });
      await expect(p.getByTestId('merge-panel')).toHaveCount(0);
      await expect(p.locator('.board')).toBeVisible();
      await header.getByRole('button', { name: 'Team', exact: true }).click();
      await expect(p.locator('.pane[data-agent="alice"]')).toBeVisible();
    }
  } finally {
    await phone.context().close();
  }
});

test('an added or deleted file is one column (unified) even in side-by-side mode; a modified one keeps both sides', async () => {
  await desk.evaluate(() => (location.hash = '#review/alice'));
  const view = desk.getByTestId('changes-view');
  await view.getByRole('button', { name: 'Side by side' }).click();
  const added = view.locator('.review-file[data-path="added.js"]');
  await expect(added.locator('.review-status')).toHaveText('A');
  await expect(added).toContainText('export const more = 2;');
  await expect(added.locator('.old-diff-table-wrapper')).toHaveCount(0);
  // The added text spans the file's width, not its right half.
  const share = await added.evaluate((el) => {
    const line = [...el.querySelectorAll<HTMLElement>('td, .diff-line-content, [class*="-content"]')].find((c) => c.textContent?.includes('export const more = 2;'));
    return line ? line.getBoundingClientRect().width / el.getBoundingClientRect().width : 0;
  });
  expect(share).toBeGreaterThan(0.6);
  const gone = view.locator('.review-file[data-path="gone.js"]');
  await expect(gone.locator('.review-status')).toHaveText('D');
  await expect(gone).toContainText('export const gone = true;');
  await expect(gone.locator('.new-diff-table-wrapper')).toHaveCount(0);
  await expect(view.locator('.review-file[data-path="calc.js"] .old-diff-table-wrapper')).toHaveCount(1);
});

test('"Send review" reads disabled (other colours, not-allowed cursor, the reason said) until a comment exists', async () => {
  await desk.evaluate(() => (location.hash = '#review/alice'));
  const view = desk.getByTestId('changes-view');
  const head = view.locator('.review-agent[data-agent="alice"] .review-agent-head');
  const send = head.getByRole('button', { name: 'Send review' });
  await expect(send).toBeDisabled();
  const reason = head.getByText('add a comment first');
  await expect(reason).toBeVisible();
  await expect(send).toHaveAttribute('aria-describedby', (await reason.getAttribute('id'))!);
  const style = (l: Locator) => l.evaluate((el) => { const s = getComputedStyle(el); return { bg: s.backgroundColor, color: s.color, cursor: s.cursor, border: s.borderStyle }; });
  const off = await style(send);
  await head.screenshot({ path: path.join(SHOTS, 'send-review-disabled.png') });
  expect(off.cursor).toBe('not-allowed');
  // A comment from the line number (a desktop click): the form opens on that line.
  await view.getByRole('button', { name: 'Unified' }).click();
  const row = view.locator('.review-file[data-path="calc.js"] tr.diff-line').filter({ hasText: 'return Math.round(sum);' }).first();
  await row.locator('.diff-line-num').click();
  const form = view.getByTestId('comment-form');
  await expect(form.getByLabel('review comment')).toHaveAttribute('placeholder', 'comment on calc.js:5');
  await form.getByLabel('review comment').fill('floor, not round');
  await form.getByRole('button', { name: 'Add to review' }).click();
  await expect(view.locator('[data-testid="pending-count"]')).toHaveText('1 pending');
  await expect(send).toBeEnabled();
  await expect(reason).toHaveCount(0);
  const on = await style(send);
  await head.screenshot({ path: path.join(SHOTS, 'send-review-enabled.png') });
  expect(on.cursor).toBe('pointer');
  expect(on.bg, 'enabled and disabled differ in colour, not only in opacity').not.toBe(off.bg);
  expect(on.color).not.toBe(off.color);
  for (const [w, h] of [[1440, 900], [390, 844]] as const) {
    await desk.setViewportSize({ width: w, height: h });
    await desk.screenshot({ path: path.join(SHOTS, `changes-${w}x${h}.png`) });
  }
  await desk.setViewportSize({ width: 1440, height: 900 });
});

test('on a desktop: a click on a line number opens its comment form (unified, side by side, wrapped); a click in the code does not', async () => {
  await desk.evaluate(() => (location.hash = '#review/alice'));
  const view = desk.getByTestId('changes-view');
  const calc = view.locator('.review-file[data-path="calc.js"]');
  const form = view.getByTestId('comment-form');
  const cancel = () => form.getByRole('button', { name: 'Cancel' }).click();
  await view.getByRole('button', { name: 'Unified' }).click();
  // A click in the code selects text as usual: no form (added.js's), while its number's click opens one (calc.js's).
  await view.locator('.review-file[data-path="added.js"] tr.diff-line').filter({ hasText: 'export const more' }).locator('.diff-line-content').click();
  await calc.locator('tr.diff-line').filter({ hasText: 'return Math.round(sum);' }).locator('.diff-line-num').click();
  await expect(form.getByLabel('review comment')).toHaveAttribute('placeholder', 'comment on calc.js:5');
  await expect(form).toHaveCount(1);
  await cancel();
  // A stylus cannot hover either: its tap in the code opens the form (the pen events Chromium gets from a tablet).
  const box = (await calc.locator('tr.diff-line').filter({ hasText: 'return Math.round(sum);' }).locator('.diff-line-content').boundingBox())!;
  const cdp = await desk.context().newCDPSession(desk);
  for (const type of ['mousePressed', 'mouseReleased'] as const) await cdp.send('Input.dispatchMouseEvent', { type, x: box.x + 40, y: box.y + box.height / 2, button: 'left', clickCount: 1, pointerType: 'pen' });
  await expect(form.getByLabel('review comment')).toHaveAttribute('placeholder', 'comment on calc.js:5');
  await cancel();
  // Side by side: the new side's number opens the form; the old side's says where comments go.
  await view.getByRole('button', { name: 'Side by side' }).click();
  await calc.locator('.new-diff-table-wrapper tr.diff-line').filter({ hasText: 'return Math.round(sum);' }).locator('.diff-line-new-num').click();
  await expect(form.getByLabel('review comment')).toHaveAttribute('placeholder', 'comment on calc.js:5');
  await cancel();
  await calc.locator('.old-diff-table-wrapper tr.diff-line').filter({ hasText: 'return sum;' }).locator('.diff-line-old-num').click();
  await expect(calc.getByText('comment on the new side')).toBeVisible();
  // Wrapped, side by side (one table, each cell with its side).
  await view.getByRole('button', { name: 'Wrap lines' }).click();
  await expect(view.getByRole('button', { name: 'Wrap lines' })).toHaveAttribute('aria-pressed', 'true');
  await calc.locator('tr.diff-line').filter({ hasText: 'return Math.round(sum);' }).locator('.diff-line-new-num').click();
  await expect(form.getByLabel('review comment')).toHaveAttribute('placeholder', 'comment on calc.js:5');
  await cancel();
  await view.getByRole('button', { name: 'Wrap lines' }).click();
  await expect(view.getByRole('button', { name: 'Wrap lines' })).toHaveAttribute('aria-pressed', 'false');
  expect(deskErrors).toEqual([]);
});

test('on a touch phone: a tapped line opens its comment form; long lines wrap (no sideways scroll); the wrap choice is remembered', async ({ browser }) => {
  const phone = await phonePage(browser, '#review/alice');
  try {
    const view = phone.getByTestId('changes-view');
    const file = view.locator('.review-file[data-path="calc.js"]');
    await expect(file).toContainText('word word');
    // A tap on the line itself (no hover on a phone): the comment form opens on it; a deleted file's line has
    // nothing to comment on (no teammate's version), so its tap opens nothing.
    await view.locator('.review-file[data-path="gone.js"] .diff-line').filter({ hasText: 'export const gone' }).locator('.diff-line-content').tap();
    await file.locator('tr.diff-line, .diff-line').filter({ hasText: 'return Math.round(sum);' }).first().locator('.diff-line-content, [class*="-content"]').first().tap();
    const form = view.getByTestId('comment-form');
    await expect(form.getByLabel('review comment')).toHaveAttribute('placeholder', 'comment on calc.js:5');
    await expect(form).toHaveCount(1);
    await expect(view.locator('.review-file[data-path="gone.js"] .review-empty')).toHaveCount(0);
    await form.getByLabel('review comment').fill('from the phone');
    await form.getByRole('button', { name: 'Add to review' }).tap();
    await expect(view.locator('.review-comment[data-state="pending"]', { hasText: 'from the phone' })).toBeVisible();
    // Wrapped by default on a phone: the long line is read without scrolling sideways.
    await expect(view.getByRole('button', { name: 'Wrap lines' })).toHaveAttribute('aria-pressed', 'true');
    const sideways = await phone.evaluate(() => [document.scrollingElement!, ...document.querySelectorAll('.review-scroll, .review-file-body, .diff-table-scroll-container, .diff-view')].filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.className || e.tagName));
    expect(sideways).toEqual([]);
    const longRight = await file.locator('tr.diff-line, .diff-line').filter({ hasText: 'word word' }).first().evaluate((el) => el.getBoundingClientRect().right);
    expect(longRight).toBeLessThanOrEqual(390);
    await phone.screenshot({ path: path.join(SHOTS, 'changes-phone-touch-390x844.png') });
    // Turned off, the choice holds after a reload.
    await view.getByRole('button', { name: 'Wrap lines' }).tap();
    await expect(view.getByRole('button', { name: 'Wrap lines' })).toHaveAttribute('aria-pressed', 'false');
    await phone.reload();
    await expect(phone.getByTestId('changes-view').getByRole('button', { name: 'Wrap lines' })).toHaveAttribute('aria-pressed', 'false');
  } finally {
    await phone.context().close();
  }
});

test('screenshots of Changes and Merge at 1440×900 and 390×844; axe finds nothing serious there', async () => {
  const found: string[] = [];
  for (const [hash, name] of [['#review/all', 'changes'], ['#merge', 'merge']] as const) {
    await desk.evaluate((h) => (location.hash = h), hash);
    await expect(desk.getByTestId(name === 'merge' ? 'merge-panel' : 'changes-view')).toContainText('alice');
    for (const [w, h] of [[1440, 900], [390, 844]] as const) {
      await desk.setViewportSize({ width: w, height: h });
      await expect(desk.locator('.team-name')).toBeVisible();
      await desk.screenshot({ path: path.join(SHOTS, `${name}-view-${w}x${h}.png`) });
      found.push(...(await serious(desk, `${name} ${w}`)));
    }
    await desk.setViewportSize({ width: 1440, height: 900 });
  }
  expect(found).toEqual([]);
});
