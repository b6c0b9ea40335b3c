/**
 * `thclaws dashboard --claude-code` in Chromium: a Claude Code team's files (as 2.1.333 writes them) shown
 * read-only — roster with the lead's "waiting for permission prompt", the task board, the log — then a file
 * that stops parsing named on the page, and a request without the token refused.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';

const REPO = path.resolve(import.meta.dirname, '..');
const TEAM = 'session-abcd1234';
let home: string;
let child: ChildProcess;
let url: string;

function write(file: string, data: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data));
}

test.beforeAll(async () => {
  home = mkdtempSync(path.join(os.tmpdir(), 'thclaws-ccd-'));
  const c = path.join(home, '.claude');
  // The lead is this test runner's process: alive for the whole spec.
  write(path.join(c, 'teams', TEAM, 'config.json'), {
    name: TEAM,
    leadAgentId: `team-lead@${TEAM}`,
    leadSessionId: 'sess-1',
    leadProcess: { pid: process.pid },
    members: [
      { agentId: `team-lead@${TEAM}`, name: 'team-lead', backendType: 'in-process', cwd: '/w' },
      { agentId: `alice@${TEAM}`, name: 'alice', backendType: 'in-process', cwd: '/w' },
    ],
  });
  write(path.join(c, 'sessions', `${process.pid}.json`), { pid: process.pid, sessionId: 'sess-1', cwd: '/w', version: '2.1.333', status: 'waiting', waitingFor: 'permission prompt' });
  write(path.join(c, 'tasks', TEAM, '1.json'), { id: '1', subject: 'Write the parser', status: 'in_progress', owner: 'alice', blocks: [], blockedBy: [] });
  write(path.join(c, 'tasks', TEAM, '2.json'), { id: '2', subject: 'Ship it', status: 'pending', blocks: [], blockedBy: ['1'] });
  const sub = path.join(c, 'projects', '-w', 'sess-1', 'subagents');
  write(path.join(sub, 'agent-aalice-1.meta.json'), { name: 'alice' });
  write(
    path.join(sub, 'agent-aalice-1.jsonl'),
    [
      { type: 'user', timestamp: '2026-01-01T00:00:00Z', version: '2.1.333', message: { role: 'user', content: 'Parse the thing, please' } },
      { type: 'assistant', timestamp: '2026-01-01T00:00:01Z', version: '2.1.333', message: { role: 'assistant', content: [{ type: 'text', text: 'On it: parsing.' }], stop_reason: 'end_turn' } },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n'),
  );
  child = spawn(process.execPath, [path.join(REPO, 'bin/thclaws'), 'dashboard', '--claude-code', '--port', '0'], { env: { PATH: process.env.PATH, HOME: home }, stdio: ['ignore', 'pipe', 'inherit'] });
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (b) => {
      out += b;
      const m = /http:\/\/\S+/.exec(out);
      if (m) resolve(m[0]);
    });
    child.once('exit', (code) => reject(new Error(`dashboard exited ${code}: ${out}`)));
  });
});

test.afterAll(() => {
  child?.kill();
  rmSync(home, { recursive: true, force: true });
});

test('shows the roster, the board and the log, then names a file that stops parsing', async ({ page }) => {
  await page.goto(url);
  const team = page.locator(`section[data-team="${TEAM}"]`);
  await expect(team.locator('h2')).toContainText('live');
  await expect(team.locator('h2')).toContainText('Claude Code 2.1.333');
  await expect(team.locator('li[data-member="team-lead"]')).toContainText('waiting · waiting for permission prompt');
  await expect(team.locator('li[data-member="alice"]')).toContainText('idle');
  await expect(team.locator('li[data-task="1"]')).toContainText('#1 Write the parser @alice');
  await expect(team.locator('li[data-task="2"]')).toContainText('#2 Ship it');
  await expect(team.locator('.log')).toContainText('alice → On it: parsing.');
  await expect(team.locator('.log')).toContainText('alice ← Parse the thing, please');

  write(path.join(home, '.claude', 'tasks', TEAM, '2.json'), '{"id":"2","subj');
  await expect(page.getByRole('alert')).toContainText(`cannot read ${path.join(home, '.claude', 'tasks', TEAM, '2.json')} (Claude Code 2.1.333): not JSON`);
});

test('refuses a request without the token', async ({ request }) => {
  const r = await request.get(url.replace(/\?token=.*/, 'api/teams'));
  expect(r.status()).toBe(403);
});
