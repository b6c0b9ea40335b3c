/**
 * The dashboard's Claude Code source with a pane teammate (Claude Code's `teammateMode: "tmux"`): alice's own
 * tmux pane is her terminal in the view — its screen at its tmux size on attach, keys typed reach that pane,
 * and its echo comes back live through tmux control mode.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../src/contract/api.js';
import { tmuxSocketOf, TmuxServer } from '../../src/main/claude-code/tmux.js';
import { ClaudeCodeViews } from '../../src/main/claude-code/views.js';
import type { ViewLink } from '../../src/main/daemon/remote-views.js';
import { waitFor } from '../teams/helpers.js';
import { CLAUDE_BIN, startClaudeTeam, type ClaudeTeam } from './harness.js';

const DEADLINE = 90_000;

describe.skipIf(!CLAUDE_BIN)('a pane teammate in the dashboard (needs the Claude Code binary in node_modules and tmux)', () => {
  let t: ClaudeTeam;
  let link: ViewLink;
  const events: HostEvent[] = [];

  beforeAll(async () => {
    t = await startClaudeTeam(undefined, { teammateMode: 'tmux' });
    await waitFor(() => t.pane().includes('❯'), 'the Claude Code prompt', DEADLINE);
    t.keys('MAKE TEAM now', 'Enter');
    link = new ClaudeCodeViews({ root: path.join(t.home, '.claude'), pollMs: 300 }).connect((e) => void events.push(e as HostEvent));
    await link.handle({ id: 1, type: 'subscribe' });
  }, DEADLINE + 30_000);

  afterAll(async () => {
    link?.close();
    await t?.cleanup();
  });

  it("shows alice's tmux pane live at its size, and types into it", async () => {
    const pane = await waitFor(
      () => events.flatMap((e) => (e.type === 'workspace' ? [e.workspace.claude_code?.members.alice?.pane] : [])).find((p) => p),
      "alice's tmux pane in the view",
      DEADLINE,
    );
    expect(pane).toMatch(/^%\d+$/);
    await link.handle({ id: 2, type: 'attach', agent: 'alice' });
    const size = await waitFor(() => events.find((e): e is Extract<HostEvent, { type: 'pty_size' }> => e.type === 'pty_size' && e.agent === 'alice'), "alice's pane size", DEADLINE);
    const lead = Number(readdirSync(path.join(t.home, '.claude', 'sessions')).find((f) => /^\d+\.json$/.test(f))!.replace('.json', ''));
    const tmux = new TmuxServer(await tmuxSocketOf(lead));
    const [cols, rows] = (await tmux.run('display-message', '-p', '-t', pane!, '#{pane_width} #{pane_height}')).trim().split(' ').map(Number);
    expect([size.cols, size.rows]).toEqual([cols, rows]);
    expect(events.some((e) => e.type === 'replay' && e.agent === 'alice' && e.data.length > 0)).toBe(true);
    await link.handle({ id: 3, type: 'input', agent: 'alice', data: 'PANE-TYPED' });
    expect(events.find((e) => e.type === 'reply' && e.id === 3)).toMatchObject({ ok: true });
    await waitFor(() => t.pane(pane!).includes('PANE-TYPED'), "the keys in alice's pane", DEADLINE);
    const live = () => events.filter((e) => e.type === 'output' && e.agent === 'alice').map((e) => (e as { data: string }).data).join('');
    await waitFor(() => live().includes('PANE-TYPED'), "the echo in the view's terminal", DEADLINE);
  }, 2 * DEADLINE);
});
