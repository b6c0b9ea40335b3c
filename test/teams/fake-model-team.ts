/**
 * A team whose teammate `alice` (model claude-sonnet-5-5) is a real process on the real SDK against the fake
 * Messages API, with this test process as its lead; torn down (team, lead, fake, folder) after the test.
 */
import { FakeAnthropic } from '../agent/fake-anthropic.js';
import { runCli, scrubbedEnv } from '../agent/helpers.js';
import { LeadHandler } from '../../src/core/teams/lead-handler.js';
import { shutdownTeam } from '../../src/core/teams/shutdown.js';
import { leadSession, teamWorkspace, writeScript } from './helpers.js';

export async function aliceOnFakeModel(cleanups: Array<() => Promise<void> | void>) {
  const fake = await new FakeAnthropic().start();
  const ws = teamWorkspace();
  const session = leadSession(ws, writeScript(ws, { rules: [] }), {
    childFlags: [],
    childEnv: { HOME: ws.home, THCLAWS_TEST: '1', ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url },
  });
  cleanups.push(async () => {
    await shutdownTeam(session, new LeadHandler(session), { graceMs: 1000, force: true }).catch(() => {});
    await session.close();
    await fake.close();
    ws.cleanup();
  });
  /** `thclaws team …` in the workspace, as the person runs it. */
  const cli = (...args: string[]) => runCli(['team', ...args], { cwd: ws.dir, env: scrubbedEnv(ws.home) });
  session.store.init();
  await session.store.config.create({ name: 't', members: [{ name: 'alice', model: 'claude-sonnet-5-5' }] });
  await session.becomeLead();
  return { fake, ws, session, cli };
}
