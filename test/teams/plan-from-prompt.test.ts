/**
 * Plan mode switched on by the wording of the person's request: `thclaws -p "… have them plan first"` as a
 * real lead process; its model spawns a teammate without `plan_mode_required`, the runtime sets it anyway.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, scrubbedEnv } from '../agent/helpers.js';
import { TeamStore } from '../../src/core/store/index.js';
import { pendingApprovals } from '../../src/core/teams/approvals.js';
import { cli } from './approval-harness.js';
import { teamWorkspace, waitFor, writeScript } from './helpers.js';
import { parseLines, toolResults } from './stream.js';

beforeAll(ensureBuilt, 120_000);
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('plan mode from the person\'s prompt', () => {
  it('"have them plan first": the spawned teammate starts in plan mode, the spawn result and team.log say why', async () => {
    const ws = teamWorkspace({ teammateMode: 'background' });
    cleanups.push(ws.cleanup);
    const script = writeScript(ws, {
      rules: [
        {
          match: 'plan first',
          turns: [
            { text: 'go', tool_calls: [{ name: 'TeamCreate', input: { name: 't', agents: [{ name: 'alice' }] } }, { name: 'TeamTaskCreate', input: { subject: 'Notes', description: 'x', owner: 'alice' } }, { name: 'SpawnTeammate', input: { name: 'alice' } }] },
            { text: 'waiting' },
          ],
        },
        {
          match: 'Task #1 —',
          turns: [
            { text: 'try', tool_calls: [{ name: 'Write', input: { path: 'early.txt', content: 'x' } }, { name: 'SubmitPlan', input: { plan: '# Plan\n\n- write notes.txt' } }] },
            { text: 'go', tool_calls: [{ name: 'Write', input: { path: 'notes.txt', content: 'n\n' } }, { name: 'TeamTaskComplete', input: { task_id: '1', summary: 'done' } }] },
            { text: 'end' },
          ],
        },
      ],
      fallback: [{ text: 'noted' }],
    });
    const run = runCli(['-p', 'Write the notes; have them plan first.', '--script', script, '--accept-all', '--timeout', '90', '--output-format', 'stream-json'], {
      cwd: ws.dir,
      env: scrubbedEnv(ws.home),
      timeoutMs: 120_000,
    });
    const store = new TeamStore(path.join(ws.dir, '.thclaws/state/team'));
    const plan = await waitFor(async () => (fs.existsSync(store.paths.config) ? (await pendingApprovals(store)).find((w) => w.kind === 'plan') : undefined), 'the plan request', 60_000);
    expect(fs.existsSync(path.join(ws.dir, 'early.txt'))).toBe(false);
    expect(cli(ws, 'approve', plan.request_id).code).toBe(0);
    const r = await run;
    expect(r.code, r.stderr).toBe(0);
    const spawned = toolResults(parseLines(r.stdout)).find((t) => t.name === 'SpawnTeammate')!;
    expect(spawned.content).toContain('It starts in plan mode because the person\'s request said "have them plan first"');
    expect(fs.readFileSync(store.paths.log, 'utf8')).toContain('alice starts in plan mode: the person\'s request said \\"have them plan first\\"');
    expect(fs.readFileSync(path.join(ws.dir, 'notes.txt'), 'utf8')).toBe('n\n');
    expect(fs.existsSync(path.join(ws.dir, 'early.txt'))).toBe(false);
  }, 150_000);
});
