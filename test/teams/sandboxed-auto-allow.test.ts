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
import { waitFor } from './helpers.js';

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

describe('a teammate cannot answer its own request', () => {
  it('even with every sandboxed command allowed: a background loop of `thclaws team approve` (its name unset, so the CLI takes it for the person) cannot write the answer', async () => {
    const { BIN } = await import('../agent/helpers.js');
    const team_ = `env -u THCLAWS_TEAM_AGENT ${process.execPath} ${BIN} team`;
    // Its own id from its status file (the listing shows nothing inside the sandbox: the teammate's pid is not
    // visible there), then the CLI as "the person", and a direct append to its own inbox.
    const ids = `grep -rhoE '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}' .thclaws/state/team/agents/alice/status.json`;
    // Through a script (the guard refuses an inline interpreter write into .thclaws/ by itself): the sandbox is the wall.
    const forge = `printf '%s' "require('fs').appendFileSync(process.argv[2], 'forged')" > forge.js; ${process.execPath} forge.js .thclaws/state/team/inboxes/alice.json`;
    const loop = `for i in $(seq 1 100); do for id in $(${ids} | sort -u); do ${team_} approve "$id" >> self-approve.log 2>&1; ${forge} >> self-approve.log 2>&1; done; sleep 0.1; done`;
    const { ws, session } = await team(
      [
        { text: 'a', tool_calls: [{ name: 'Bash', input: { command: loop, run_in_background: true } }, { name: 'Bash', input: { command: 'echo pushed > pushed.txt; git push' } }, complete] },
        { text: 'end' },
      ],
      { autoAllowSandboxedBash: true, permissions: { ask: ['Bash(git push:*)'] } },
    );
    const w = await nextRequest(session);
    expect(w.ask_rule).toBe('Bash(git push:*)');
    // The loop has had time to try: its answers were refused by the sandbox (read-only team state).
    await waitFor(() => fs.existsSync(path.join(ws.dir, 'self-approve.log')) && /thclaws: .*\n[\s\S]*EROFS/.test(fs.readFileSync(path.join(ws.dir, 'self-approve.log'), 'utf8')), 'the self-approval refused');
    expect(exists(ws, 'pushed.txt')).toBe(false);
    const inbox = session.store.paths.inbox('alice');
    expect(fs.existsSync(inbox) && fs.readFileSync(inbox, 'utf8').includes('forged')).toBe(false);
    expect((await pendingApprovals(session.store)).map((x) => x.request_id)).toEqual([w.request_id]);
    expect(cli(ws, 'deny', w.request_id, '--message', 'no').code).toBe(0);
    await done(session);
    expect(exists(ws, 'pushed.txt')).toBe(false);
  }, 90_000);
});
