/** The lead in the real REPL (a pty): teammate messages become lead turns while idle at the prompt; /team; exit shuts down. */
import path from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, scrubbedEnv } from '../agent/helpers.js';
import { PtySession } from '../agent/pty.js';
import { TeamStore } from '../../src/core/team/index.js';
import { teamWorkspace, writeScript } from './helpers.js';

beforeAll(ensureBuilt, 120_000);
let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

it('a teammate message reaches the idle lead as a turn; /team shows the roster; leaving the REPL ends the session', async () => {
  const ws = teamWorkspace();
  cleanups.push(ws.cleanup);
  const store = new TeamStore(path.join(ws.dir, '.thclaws/state/team'));
  store.init();
  await store.config.create({ name: 'squad', members: [{ name: 'alice', role: 'API' }] });
  const script = writeScript(ws, { rules: [{ match: 'api is ready', turns: [{ text: 'LEAD-HANDLED-IT' }] }], fallback: [{ text: 'fallback' }] });
  const s = new PtySession(['--script', script], { cwd: ws.dir, env: scrubbedEnv(ws.home) });
  cleanups.push(() => s.kill());
  await s.waitFor('thclaws> ');
  // The person's session in a project with a team is its lead: the lead guard is on.
  await store.send('alice', 'lead', 'the api is ready for review');
  await s.waitFor("[message from 'alice']: the api is ready for review");
  await s.waitFor('LEAD-HANDLED-IT');
  await s.waitFor('thclaws> ');
  s.type('/team\r');
  await s.waitFor('## Team squad');
  await s.waitFor('alice — defined');
  await s.waitFor('sandbox: '); // the OS sandbox's status line ("guards only" where it cannot run)
  await s.waitFor('## Recent messages to the lead');
  s.type('/quit\r');
  expect((await s.exited).exitCode).toBe(0);
  // The message was acknowledged after the turn: nothing is delivered twice.
  expect(store.inboxes.unread('lead')).toEqual([]);
}, 60_000);
