/**
 * A mixed team end to end in real processes: the lead on the real Anthropic SDK against the fake Messages API,
 * its three teammates on the real openai package against the fake OpenAI-compatible server (two by their
 * role's model, one by the model SpawnTeammate names), playing the demo team's script on both servers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../agent/fake-anthropic.js';
import { FakeOpenAI } from '../agent/fake-openai.js';
import { ensureBuilt, runCli, scrubbedEnv } from '../agent/helpers.js';
import { anthropicResponder, openAIResponder } from '../agent/script-responders.js';
import { cleanupsAfterEach, teamWorkspace } from './helpers.js';
import { teamScript } from './scripts.js';
import { parseLines } from './stream.js';

const cleanups = cleanupsAfterEach();

describe('mixed providers in one team', () => {
  it('lead on Anthropic, teammates on an OpenAI-compatible profile: the demo team builds, merges and shows each model', async () => {
    const [anthropic, openai] = await Promise.all([new FakeAnthropic().start(), new FakeOpenAI().start(), ensureBuilt()]);
    const script = teamScript();
    // qa's model is named by the spawn; backend and frontend get theirs from roleModels.
    const spawnTurn = script.rules[0]!.turns[2]!.tool_calls!;
    spawnTurn[2] = { name: 'SpawnTeammate', input: { name: 'qa', model: 'local/coder-small' } as never };
    anthropic.respond = anthropicResponder(script);
    openai.respond = openAIResponder(script);
    const ws = teamWorkspace({
      roleModels: { API: 'local/qwen3-coder', UI: 'local/qwen3-coder' },
      providers: {
        local: {
          type: 'openai-compatible',
          baseURL: openai.url,
          apiKeyEnv: 'LOCAL_API_KEY',
          models: { 'qwen3-coder': { contextWindow: 32768, maxOutput: 8192, price: { input: 1, output: 2 } }, 'coder-small': { contextWindow: 32768, maxOutput: 4096 } },
        },
      },
    });
    cleanups.push(async () => {
      await Promise.all([anthropic.close(), openai.close()]);
      ws.cleanup();
    });
    // The key reaches teammates through the environment they inherit, never through a file or argv.
    openai.requiredKey = 'sk-local';
    const env = scrubbedEnv(ws.home, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: anthropic.url, LOCAL_API_KEY: 'sk-local' });
    const r = await runCli(['-p', 'build the app', '--accept-all', '--timeout', '90', '--output-format', 'stream-json'], { cwd: ws.dir, env, timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    const result = parseLines(r.stdout).find((e) => e.type === 'result');
    expect(result.tasks).toEqual({ total: 3, open: 0 });
    expect(fs.readFileSync(path.join(ws.dir, 'api/server.js'), 'utf8')).toContain('api = 1');
    expect(fs.readFileSync(path.join(ws.dir, 'ui/index.html'), 'utf8')).toContain('demo');

    // Only the lead's conversation went to Anthropic; every teammate's went to the profile's server.
    const firstUser = (m: any) => JSON.stringify(m.body.messages.find((x: any) => x.role === 'user'));
    expect(anthropic.requests.every((q) => firstUser(q).includes('build the app'))).toBe(true);
    const roleOf = (q: any) => /You (build the API|build the UI|review)/.exec(firstUser(q))?.[1] ?? 'unknown';
    const asked = new Map<string, Set<string>>();
    for (const q of openai.requests) asked.set(roleOf(q), (asked.get(roleOf(q)) ?? new Set()).add(q.body.model));
    expect(Object.fromEntries([...asked].map(([k, v]) => [k, [...v]]))).toEqual({ 'build the API': ['qwen3-coder'], 'build the UI': ['qwen3-coder'], review: ['coder-small'] });
    expect(openai.requests.length).toBeGreaterThanOrEqual(6);

    // `team status` names each member's model and spend: a priced model in dollars, an unpriced one `?`.
    const status = await runCli(['team', 'status', '--json'], { cwd: ws.dir, env });
    const members = JSON.parse(status.stdout).members as Array<{ name: string; model: string | null; cost_usd: number | null; tokens: number | null }>;
    const of = (n: string) => members.find((m) => m.name === n)!;
    expect([of('backend').model, of('frontend').model, of('qa').model]).toEqual(['local/qwen3-coder', 'local/qwen3-coder', 'local/coder-small']);
    expect(of('backend').cost_usd).toBeGreaterThan(0);
    expect(of('qa').cost_usd).toBeNull();
  }, 150_000);
});
