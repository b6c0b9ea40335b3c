/**
 * Per-role models from the settings (`roleModels`, what the dashboard's Settings writes): the real CLI lead on
 * the real SDK against the fake Messages API spawns real teammate processes, and each teammate asks the API
 * for the model a spawn picks: the one named for it, else its role's, else the default.
 */
import { describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../agent/fake-anthropic.js';
import { runCli, scrubbedEnv } from '../agent/helpers.js';
import { DEFAULT_MODEL } from '../../src/contract/models.js';
import { cleanupsAfterEach, modelsAsked, teamWorkspace } from './helpers.js';

const cleanups = cleanupsAfterEach();

describe('roleModels', () => {
  it("a teammate requests its role's model; a model named for it wins; another role gets the default", async () => {
    const fake = await new FakeAnthropic().start();
    // The key's case and spaces differ from the member's role on purpose: roles are matched as people type them.
    const ws = teamWorkspace({ roleModels: { ' Reviewer': 'claude-haiku-4-5' } });
    cleanups.push(async () => {
      await fake.close();
      ws.cleanup();
    });
    fake.fallback = { text: 'ok' };
    fake.enqueue(
      {
        toolUses: [
          {
            name: 'TeamCreate',
            input: {
              name: 'models',
              agents: [
                { name: 'rev', role: 'reviewer' },
                { name: 'pinned', role: 'reviewer', model: 'claude-opus-4-5' },
                { name: 'dev', role: 'developer' },
                { name: 'rev2', role: 'reviewer' },
              ],
            },
          },
        ],
      },
      {
        toolUses: [
          { name: 'SpawnTeammate', input: { name: 'rev', prompt: 'marker-rev' } },
          { name: 'SpawnTeammate', input: { name: 'pinned', prompt: 'marker-pinned' } },
          { name: 'SpawnTeammate', input: { name: 'dev', prompt: 'marker-dev' } },
          { name: 'SpawnTeammate', input: { name: 'rev2', prompt: 'marker-explicit', model: 'claude-sonnet-4-5' } },
        ],
      },
    );
    const r = await runCli(['-p', 'make the team', '--accept-all', '--timeout', '60', '--output-format', 'json'], {
      cwd: ws.dir,
      env: scrubbedEnv(ws.home, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url }),
      timeoutMs: 90_000,
    });
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(modelsAsked(fake.requests, 'make the team')).toEqual([DEFAULT_MODEL]);
    expect(modelsAsked(fake.requests, 'marker-rev')).toEqual(['claude-haiku-4-5']);
    expect(modelsAsked(fake.requests, 'marker-pinned')).toEqual(['claude-opus-4-5']);
    expect(modelsAsked(fake.requests, 'marker-dev')).toEqual([DEFAULT_MODEL]);
    expect(modelsAsked(fake.requests, 'marker-explicit')).toEqual(['claude-sonnet-4-5']);
  }, 120_000);
});
