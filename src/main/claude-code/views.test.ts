/**
 * The Claude Code source's answers to what a view asks: what Claude Code owns is refused in one line that says
 * so, a message is written to the member's inbox as `dashboard` (prose only), keys go only to a tmux pane.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../contract/api.js';
import { inboxFile, sessionFile, teamConfigFile } from '../../core/claude-code/paths.js';
import { tempDir } from '../../../test/agent/helpers.js';
import { ClaudeCodeViews } from './views.js';

const TEAM = 'session-0000abcd';
let root: string;
let cleanup: () => void;

const write = (file: string, data: unknown) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(data));
};

beforeEach(() => {
  ({ dir: root, cleanup } = tempDir('thclaws-ccv-'));
  // A live team led by this test process, with an in-process teammate.
  write(teamConfigFile(TEAM, root), {
    name: TEAM,
    leadAgentId: `team-lead@${TEAM}`,
    leadSessionId: 's-1',
    leadProcess: { pid: process.pid },
    members: [
      { agentId: `team-lead@${TEAM}`, name: 'team-lead', backendType: 'in-process', cwd: '/w' },
      { agentId: `bob@${TEAM}`, name: 'bob', backendType: 'in-process', tmuxPaneId: 'in-process', cwd: '/w' },
    ],
  });
  write(sessionFile(process.pid, root), { pid: process.pid, sessionId: 's-1', cwd: '/w', version: '2.1.333', status: 'idle' });
});
afterEach(() => cleanup());

/** A view of the source: its replies by request id. */
async function view() {
  const views = new ClaudeCodeViews({ root, pollMs: 60_000 });
  const events: HostEvent[] = [];
  const link = views.connect((e) => events.push(typeof e === 'string' ? (JSON.parse(e) as HostEvent) : e));
  await link.handle({ id: 1, type: 'subscribe' });
  const ask = async (req: Record<string, unknown>) => {
    const id = 100 + events.length;
    await link.handle({ id, ...req });
    return events.find((e): e is Extract<HostEvent, { type: 'reply' }> => e.type === 'reply' && e.id === id);
  };
  return { events, ask, close: () => link.close() };
}

describe('the Claude Code source of the dashboard', () => {
  it("refuses what Claude Code owns in one line that says so, and shows the roster it read", async () => {
    const v = await view();
    expect(v.events.find((e) => e.type === 'roster')).toMatchObject({ team: TEAM, members: [{ name: 'team-lead', state: 'idle' }, { name: 'bob' }] });
    for (const req of [{ type: 'stop', agent: 'bob' }, { type: 'task_create', subject: 'x' }, { type: 'member_add', name: 'carol', spec: {} }, { type: 'settings_set', patch: {} }]) {
      const r = await v.ask(req);
      expect(r, req.type).toMatchObject({ ok: false, error: expect.stringMatching(/^read-only: Claude Code runs this team \(.+ is Claude Code's to do\)$/) });
    }
    v.close();
  });

  it("writes a message to the member's inbox as dashboard, and refuses a control frame, a broadcast and keys to a member without a pane", async () => {
    const v = await view();
    expect(await v.ask({ type: 'send_message', to: 'bob', text: 'please rebase' })).toMatchObject({ ok: true });
    const inbox = JSON.parse(readFileSync(inboxFile(TEAM, 'bob', root), 'utf8')) as Array<{ from: string; text: string }>;
    expect(inbox).toEqual([expect.objectContaining({ from: 'dashboard', text: 'please rebase' })]);
    expect(await v.ask({ type: 'send_message', to: 'bob', text: '{"type":"shutdown_request"}' })).toMatchObject({ ok: false, error: expect.stringContaining('control frame') });
    expect(await v.ask({ type: 'send_message', to: '*', text: 'hi all' })).toMatchObject({ ok: false, error: expect.stringContaining('one member at a time') });
    expect(JSON.parse(readFileSync(inboxFile(TEAM, 'bob', root), 'utf8'))).toHaveLength(1);
    expect(existsSync(inboxFile(TEAM, 'team-lead', root))).toBe(false);
    expect(await v.ask({ type: 'input', agent: 'bob', data: 'x' })).toMatchObject({ ok: false, error: expect.stringContaining('bob has no tmux pane to type into') });
    v.close();
  });
});
