/**
 * `thclaws -p` as the lead of a team whose budget is reached: a print run cannot raise it, so it ends at once
 * with one line naming the budget and how to raise it, instead of waiting for --timeout (or forever).
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { deriveState, isLive, TeamStore } from '../../src/core/store/index.js';
import { ensureBuilt, runCli, scrubbedEnv } from '../agent/helpers.js';
import { cleanupsAfterEach, teamWorkspace, waitFor, writeScript } from './helpers.js';
import { parseLines } from './stream.js';

const cleanups = cleanupsAfterEach();

describe('thclaws -p with a reached team budget', () => {
  it('ends before --timeout with the budget named, exit 1', async () => {
    await ensureBuilt();
    const ws = teamWorkspace({ budgets: { team: { tokens: 1 } } });
    cleanups.push(() => ws.cleanup());
    const script = writeScript(ws, {
      rules: [
        {
          match: 'start',
          turns: [
            { text: 'team', tool_calls: [{ name: 'TeamCreate', input: { name: 't', agents: [{ name: 'alice', prompt: 'You work.' }] } }] },
            { text: 'task', tool_calls: [{ name: 'TeamTaskCreate', input: { subject: 'part', description: 'write it', owner: 'alice' } }] },
            { text: 'spawn', tool_calls: [{ name: 'SpawnTeammate', input: { name: 'alice' } }] },
            { text: 'working' },
          ],
        },
      ],
      fallback: [{ text: 'Noted.' }],
    });
    const r = await runCli(['-p', 'start', '--script', script, '--accept-all', '--timeout', '60', '--output-format', 'stream-json'], { cwd: ws.dir, env: scrubbedEnv(ws.home), timeoutMs: 90_000 });
    const result = parseLines(r.stdout).find((e) => e.type === 'result');
    expect({ code: r.code, stop: result?.stop_reason, tasks: result?.tasks }).toEqual({ code: 1, stop: 'budget', tasks: { total: 1, open: 1 } });
    expect(result.errors).toEqual([expect.stringMatching(/^budget reached: the team's budget: [\d,]+ tokens of 1 tokens \(\d+ %\) \(alice was stopped with 1 task\(s\) open; to go on, raise it with thclaws team budget --team --usd N\|--tokens N, then start alice again with thclaws team resume --dir \S+\)$/)]);
  }, 90_000);

  it("a teammate's own budget: says which budget stopped alice, that she was stopped, and the command that starts her again", async () => {
    await ensureBuilt();
    // The scripted provider in the settings too: the host that resumes alice starts her on it (no key here).
    const ws = teamWorkspace({ provider: 'scripted', budgets: { teammates: { alice: { tokens: 1 } } } });
    cleanups.push(() => ws.cleanup());
    const script = writeScript(ws, {
      rules: [
        {
          match: 'start',
          turns: [
            { text: 'team', tool_calls: [{ name: 'TeamCreate', input: { name: 't', agents: [{ name: 'alice', prompt: 'You work.' }] } }] },
            { text: 'task', tool_calls: [{ name: 'TeamTaskCreate', input: { subject: 'part', description: 'write it', owner: 'alice' } }] },
            { text: 'spawn', tool_calls: [{ name: 'SpawnTeammate', input: { name: 'alice' } }] },
            { text: 'working' },
          ],
        },
        { match: 'write it', turns: [{ text: 'looking', tool_calls: [{ name: 'Bash', input: { command: 'ls' } }] }, { text: 'done' }] },
      ],
      fallback: [{ text: 'Noted.' }],
    });
    const r = await runCli(['-p', 'start', '--script', script, '--accept-all', '--timeout', '60', '--output-format', 'stream-json'], { cwd: ws.dir, env: scrubbedEnv(ws.home), timeoutMs: 90_000 });
    const result = parseLines(r.stdout).find((e) => e.type === 'result');
    expect({ code: r.code, stop: result?.stop_reason }).toEqual({ code: 1, stop: 'budget' });
    const dir = fs.realpathSync(ws.dir);
    expect(result.errors).toEqual([
      expect.stringMatching(
        new RegExp(`^budget reached: alice's budget: [\\d,]+ tokens of 1 tokens \\(\\d+ %\\) \\(alice was stopped with 1 task\\(s\\) open; to go on, raise it with thclaws team budget alice --usd N\\|--tokens N, then start alice again with thclaws team resume --dir ${dir.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\)$`),
      ),
    ]);
    // She was stopped indeed: not live once the run has exited.
    const st = await TeamStore.forWorkspace(ws.dir).statuses.read('alice');
    expect(deriveState(st)).toMatch(/^(stopped|dead)$/);
    // The two commands the message names: the limit raised, then alice running again.
    const env = scrubbedEnv(ws.home, { XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(ws.home, 'rt-')) });
    expect((await runCli(['team', 'budget', 'alice', '--tokens', '1000000', '--dir', ws.dir], { cwd: ws.dir, env })).code).toBe(0);
    cleanups.push(async () => void (await runCli(['host', '--stop', '--dir', ws.dir], { cwd: ws.dir, env })));
    const resumed = await runCli(['team', 'resume', '--dir', dir], { cwd: ws.dir, env, timeoutMs: 60_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    await waitFor(async () => isLive(deriveState(await TeamStore.forWorkspace(ws.dir).statuses.read('alice'))), 'alice running again');
  }, 120_000);
});
