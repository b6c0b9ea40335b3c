/**
 * Attack: `thclaws -p` as the lead of the demo team (mixed providers, as test/teams/mixed-providers.test.ts)
 * with a tiny team budget: does the run end and say why, or wait until --timeout?
 * Run: npx vitest run -c attacks/vitest.attacks.config.mts attacks/budget-print.attack.test.ts
 */
import { describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../test/agent/fake-anthropic.js';
import { FakeOpenAI } from '../test/agent/fake-openai.js';
import { ensureBuilt, runCli, scrubbedEnv } from '../test/agent/helpers.js';
import { anthropicResponder, openAIResponder } from '../test/agent/script-responders.js';
import { cleanupsAfterEach, teamWorkspace } from '../test/teams/helpers.js';
import { teamScript } from '../test/teams/scripts.js';
import { parseLines } from '../test/teams/stream.js';

const cleanups = cleanupsAfterEach();

describe('thclaws -p with a team budget reached', () => {
  it('ends with the budget named as the reason, before --timeout', async () => {
    const [anthropic, openai] = await Promise.all([new FakeAnthropic().start(), new FakeOpenAI().start(), ensureBuilt()]);
    const script = teamScript();
    anthropic.respond = anthropicResponder(script);
    openai.respond = openAIResponder(script);
    const ws = teamWorkspace({
      roleModels: { API: 'local/m', UI: 'local/m', QA: 'local/m' },
      providers: { local: { type: 'openai-compatible', baseURL: openai.url, models: { m: { price: { input: 1, output: 2 } } } } },
      budgets: { team: { tokens: 1 } },
    });
    cleanups.push(async () => {
      await Promise.all([anthropic.close(), openai.close()]);
      ws.cleanup();
    });
    const env = scrubbedEnv(ws.home, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: anthropic.url });
    const t0 = Date.now();
    const r = await runCli(['-p', 'build the app', '--accept-all', '--timeout', '60', '--output-format', 'stream-json'], { cwd: ws.dir, env, timeoutMs: 120_000 });
    const result = parseLines(r.stdout).find((e) => e.type === 'result');
    const took = Math.round((Date.now() - t0) / 1000);
    console.log(JSON.stringify({ code: r.code, took, stop: result?.stop_reason, errors: result?.errors, result: String(result?.result).slice(0, 300) }));
    expect(took).toBeLessThan(55);
    expect(JSON.stringify(result?.errors ?? result?.result)).toMatch(/budget/);
  }, 150_000);
});
