/**
 * `thclaws team resume` where the old host's key is gone (it was held in memory, or the shell that had it is
 * closed): nothing can come up, and the command says so — the lead is not "resumed", each teammate's real
 * cause (no API key) is named at once instead of an 8 s boot timeout — and it exits non-zero.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SessionStore } from '../../src/core/agent/sessions.js';
import { LEAD, TeamStore } from '../../src/core/store/index.js';
import { runCli, scrubbedEnv } from '../agent/helpers.js';
import { THCLAWS } from '../desktop/helpers.js';
import { cleanupsAfterEach, teamWorkspace } from './helpers.js';

const execFileP = promisify(execFile);
const cleanups = cleanupsAfterEach();

describe('team resume without a key', () => {
  it('reports that nothing came up, with the real cause for the lead and each teammate, and exits 1', async () => {
    const ws = teamWorkspace();
    cleanups.push(() => ws.cleanup());
    // Its own runtime dir: the host this resume starts is this test's alone.
    const env = scrubbedEnv(ws.home, { XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-rt-')), XDG_CONFIG_HOME: path.join(ws.home, '.config') });
    cleanups.push(async () => void (await execFileP(THCLAWS, ['host', '--stop', '--dir', ws.dir], { env }).catch(() => undefined)));
    expect((await runCli(['team', 'create', 't', '--members', 'alice,bob'], { cwd: ws.dir, env })).code).toBe(0);
    // The team a killed host left behind: each agent dead (its pid gone), each with a saved conversation.
    const store = TeamStore.forWorkspace(ws.dir);
    const dead = { pid: 999_999, pid_start: '1', host: os.hostname() };
    for (const name of [LEAD, 'alice', 'bob']) {
      const saved = SessionStore.create(ws.dir, { model: 'claude-sonnet-5-5', provider: 'anthropic', cwd: ws.dir, ...(name === LEAD ? {} : { agentName: name }) });
      await store.statuses.write(name, { status: 'working', ...dead, session_id: saved.id } as never);
    }

    const started = Date.now();
    const r = await runCli(['team', 'resume', '--dir', ws.dir], { cwd: ws.dir, env, timeoutMs: 60_000 });
    const tookMs = Date.now() - started;
    expect(r.stdout).not.toMatch(/resumed lead/);
    expect(r.stdout).not.toMatch(/resumed (alice|bob)/);
    expect(r.stderr).toMatch(/^thclaws: lead could not start: no API key/m);
    for (const n of ['alice', 'bob']) {
      expect(r.stderr).toMatch(new RegExp(`^thclaws: ${n} could not start: .*no API key: set ANTHROPIC_API_KEY`, 'm'));
    }
    expect(r.stderr).not.toContain('did not come up within');
    expect(r.stderr).toMatch(/nothing came up/);
    expect(r.code).toBe(1);
    // Each teammate's cause was read from its early exit, not waited out (two 8 s boot timeouts).
    expect(tookMs).toBeLessThan(14_000);
  }, 90_000);
});
