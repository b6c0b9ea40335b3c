/**
 * A pane teammate (Claude Code's `teammateMode: "tmux"`: a second `claude` process in its own tmux pane, which
 * inherits the tmux server's scratch environment): listed with its backend and state from its own transcript,
 * and a message sent from thclaws reaches its model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../agent/helpers.js';
import { waitFor } from '../teams/helpers.js';
import { CLAUDE_BIN, startClaudeTeam, type ClaudeTeam } from './harness.js';

const DEADLINE = 90_000;

describe.skipIf(!CLAUDE_BIN)('claude-team with a pane teammate (needs the Claude Code binary in node_modules and tmux)', () => {
  let t: ClaudeTeam;

  beforeAll(async () => {
    await ensureBuilt();
    t = await startClaudeTeam(undefined, { teammateMode: 'tmux' });
    await waitFor(() => t.pane().includes('❯'), 'the Claude Code prompt', DEADLINE);
    t.keys('MAKE TEAM now', 'Enter');
  }, DEADLINE + 30_000);

  afterAll(async () => t?.cleanup());

  it("is listed as a tmux member, busy on its Bash call, and a message reaches its model", async () => {
    type Listed = { name: string; members: Array<{ name: string; backend?: string; state: string }> };
    const listed = await waitFor(
      async () => {
        const r = await t.cli(['claude-team', 'list', '--json']);
        const team = (JSON.parse(r.stdout) as Listed[])[0];
        const alice = team?.members.find((m) => m.name === 'alice');
        return alice?.state === 'busy' && team;
      },
      'alice in her pane, asking for Bash',
      DEADLINE,
    );
    expect(listed.members.find((m) => m.name === 'alice')!.backend).toBe('tmux');
    // alice waits for the lead's dialog (pane teammates' requests reach no PermissionRequest hook): answer it there.
    await waitFor(() => t.pane().includes('Do you want to proceed?'), "the lead's permission dialog", DEADLINE);
    // The dialog ignores keys for a moment after it opens: press Enter again, at most once a second, until it closes.
    let pressed = 0;
    await waitFor(
      () => {
        if (!t.pane().includes('Do you want to proceed?')) return true;
        if (Date.now() - pressed > 1000) {
          t.keys('Enter');
          pressed = Date.now();
        }
        return false;
      },
      'the dialog answered',
      DEADLINE,
    );
    const sent = await t.cli(['claude-team', 'send', listed.name, 'alice', 'PANE-PING how is it going']);
    expect(sent.code, sent.stderr).toBe(0);
    await waitFor(
      () => t.fake.requests.some((r) => r.body?.messages && !JSON.stringify(r.body.messages).includes('MAKE TEAM') && JSON.stringify(r.body.messages).includes('PANE-PING')),
      "alice's model asked with the message",
      DEADLINE,
    );
  }, 2 * DEADLINE + 30_000);
});
