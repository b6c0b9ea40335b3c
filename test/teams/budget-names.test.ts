/**
 * `thclaws team budget` with role names a JavaScript object treats specially: `__proto__` is refused in one
 * line with exit 2 and nothing stored (it used to print `$1` and store nothing); `constructor` is an ordinary
 * role; a role with a space (roles are free text, as members carry them) is stored as given.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, scrubbedEnv } from '../agent/helpers.js';
import { cleanupsAfterEach, teamWorkspace } from './helpers.js';

const cleanups = cleanupsAfterEach();

describe('team budget --role names', () => {
  it('refuses __proto__ (one line, exit 2, nothing stored); constructor and free-text roles are kept as given', async () => {
    const ws = teamWorkspace();
    cleanups.push(() => ws.cleanup());
    const cli = (...args: string[]) => runCli(['team', ...args], { cwd: ws.dir, env: scrubbedEnv(ws.home) });
    expect((await cli('create', 't', '--members', 'alice')).code).toBe(0);
    const file = path.join(ws.dir, '.thclaws', 'state', 'team', 'budgets.json');
    const stored = () => (fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { roles: Record<string, unknown> }).roles : {});

    for (const role of ['__proto__', ' __proto__ ']) {
      const r = await cli('budget', '--role', role, '--usd', '1');
      expect(r, role).toMatchObject({ code: 2, stdout: '', stderr: `thclaws: invalid role name ${JSON.stringify(role)}: use 1-64 characters without newlines, other than "__proto__"\n` });
    }
    expect(stored()).toEqual({});

    // Cleared, a role named like an Object.prototype member has no limit (not the prototype's function).
    expect(await cli('budget', '--role', 'constructor', '--usd', '2')).toMatchObject({ code: 0, stdout: 'budget of role constructor: $2\n' });
    expect(await cli('budget', '--role', 'constructor', '--clear')).toMatchObject({ code: 0, stdout: 'budget of role constructor: no limit\n' });
    expect(await cli('budget', '--role', 'backend developer', '--tokens', '500')).toMatchObject({ code: 0, stdout: 'budget of role backend developer: 500 tokens\n' });
    expect(stored()).toEqual({ 'backend developer': { tokens: 500 } });
  }, 60_000);

  it('a teammate named __proto__ (a valid agent name) cannot get a budget: one line, exit 2, nothing stored', async () => {
    const ws = teamWorkspace();
    cleanups.push(() => ws.cleanup());
    const cli = (...args: string[]) => runCli(['team', ...args], { cwd: ws.dir, env: scrubbedEnv(ws.home) });
    expect((await cli('create', 't', '--members', '__proto__,alice')).code).toBe(0);
    const r = await cli('budget', '__proto__', '--usd', '1');
    expect(r).toMatchObject({ code: 2, stdout: '', stderr: 'thclaws: invalid teammate name "__proto__" for a budget: "__proto__" cannot hold one\n' });
    expect(await cli('budget', 'alice', '--usd', '3')).toMatchObject({ code: 0, stdout: 'budget of alice: $3\n' });
    const file = path.join(ws.dir, '.thclaws', 'state', 'team', 'budgets.json');
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).teammates).toEqual({ alice: { usd: 3 } });
  }, 60_000);
});
