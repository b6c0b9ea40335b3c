/**
 * Setting `autoAllowSandboxedBash` with real teammate processes: Bash that would ask runs without asking
 * while the OS sandbox is on for the teammate; with the sandbox off (the person's user setting) it asks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../agent/helpers.js';
import { pendingApprovals } from '../../src/core/teams/approvals.js';
import { userSettingsPath } from '../../src/core/agent/settings.js';
import { cli, complete, done, exists, nextRequest, runCleanups, team } from './approval-harness.js';

beforeAll(ensureBuilt, 120_000);
afterEach(async () => {
  await runCleanups();
  fs.rmSync(userSettingsPath(), { force: true });
});

describe('autoAllowSandboxedBash', () => {
  it('on, sandbox on: a command that would ask runs without a question, inside the sandbox (it cannot write outside the workspace)', async () => {
    const { ws, session } = await team(
      [{ text: 'a', tool_calls: [{ name: 'Bash', input: { command: 'touch auto.txt; d=$(dirname "$PWD"); echo x > "$d/escape.txt"; echo ran' } }, complete] }, { text: 'end' }],
      { autoAllowSandboxedBash: true },
    );
    await done(session);
    expect(exists(ws, 'auto.txt')).toBe(true);
    expect(fs.existsSync(path.join(path.dirname(ws.dir), 'escape.txt'))).toBe(false);
    expect(fs.readFileSync(session.store.paths.output('alice'), 'utf8')).toContain('[sandbox] write refused');
    expect(await pendingApprovals(session.store)).toEqual([]);
    expect(JSON.stringify(session.store.inboxes.list('lead'))).not.toContain('permission_request');
  }, 90_000);

  it('on, sandbox off (user setting): the command still asks', async () => {
    fs.mkdirSync(path.dirname(userSettingsPath()), { recursive: true });
    fs.writeFileSync(userSettingsPath(), JSON.stringify({ sandbox: 'off' }));
    const { ws, session } = await team([{ text: 'a', tool_calls: [{ name: 'Bash', input: { command: 'touch asked.txt' } }, complete] }, { text: 'end' }], { autoAllowSandboxedBash: true });
    const w = await nextRequest(session);
    expect(w).toMatchObject({ tool: 'Bash', summary: expect.stringContaining('touch asked.txt') });
    expect(exists(ws, 'asked.txt')).toBe(false);
    expect(cli(ws, 'approve', w.request_id).code).toBe(0);
    await done(session);
    expect(exists(ws, 'asked.txt')).toBe(true);
  }, 90_000);

  it('off (the default), sandbox on: the command asks', async () => {
    const { ws, session } = await team([{ text: 'a', tool_calls: [{ name: 'Bash', input: { command: 'touch default.txt' } }, complete] }, { text: 'end' }]);
    const w = await nextRequest(session);
    expect(exists(ws, 'default.txt')).toBe(false);
    expect(cli(ws, 'deny', w.request_id).code).toBe(0);
    await done(session);
    expect(exists(ws, 'default.txt')).toBe(false);
  }, 90_000);
});
