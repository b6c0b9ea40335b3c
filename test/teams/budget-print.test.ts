/**
 * `thclaws -p` as the lead of a team whose budget is reached: a print run cannot raise it, so it ends at once
 * with one line naming the budget and how to raise it, instead of waiting for --timeout (or forever).
 */
import { describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, scrubbedEnv } from '../agent/helpers.js';
import { cleanupsAfterEach, teamWorkspace, writeScript } from './helpers.js';
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
    expect(result.errors).toEqual([expect.stringMatching(/^budget reached: the team's budget: [\d,]+ tokens of 1 tokens \(\d+ %\) \(alice waits with 1 task\(s\) open; raise it with thclaws team budget --team --usd N\|--tokens N\)$/)]);
  }, 90_000);
});
