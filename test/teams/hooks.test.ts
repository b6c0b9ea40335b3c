/** Team hooks with a real teammate process: blocking events refuse with the hook's stderr, others are shown. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../agent/helpers.js';
import { taskTools } from '../../src/core/teams/tools/task-tools.js';
import { complete, done, exists, runCleanups, team, toolResults } from './approval-harness.js';
import { waitFor } from './helpers.js';

beforeAll(ensureBuilt, 120_000);
afterEach(runCleanups);

const cmd = (command: string, timeout?: number) => ({ hooks: [{ type: 'command', command, ...(timeout ? { timeout } : {}) }] });

describe('team hooks', () => {
  it('PreToolUse, TaskCreated and TaskCompleted block on a non-zero exit (stderr reaches the agent), allow on 0, time out; TeammateIdle runs and its failure is shown', async () => {
    const hooks = {
      PreToolUse: [
        { matcher: 'Bash', ...cmd('grep -q forbidden && { echo "no forbidden things" >&2; exit 2; }; exit 0') },
        { matcher: 'Bash', ...cmd('grep -q slowpoke && sleep 5; exit 0', 1) },
      ],
      TaskCreated: [cmd('grep -q WIP && { echo "no WIP tasks" >&2; exit 1; }; exit 0')],
      TaskCompleted: [cmd('test -f tests-pass || { echo "run the tests first" >&2; exit 1; }')],
      TeammateIdle: [cmd('printf \'%s\\n\' "$(cat)" >> idle-events.jsonl'), cmd('echo idle hook broke >&2; exit 3')],
    };
    const { ws, session } = await team(
      [
        { text: 'a', tool_calls: [{ name: 'Bash', input: { command: 'touch forbidden.txt' } }, { name: 'Bash', input: { command: 'touch fine.txt' } }, { name: 'Bash', input: { command: 'touch slowpoke.txt' } }] },
        { text: 'b', tool_calls: [{ name: 'TeamTaskCreate', input: { subject: 'WIP stuff', description: 'x' } }, { name: 'TeamTaskCreate', input: { subject: 'Real follow-up', description: 'x' } }] },
        { text: 'c', tool_calls: [complete] },
        { text: 'd', tool_calls: [{ name: 'Bash', input: { command: 'touch tests-pass' } }, complete] },
        { text: 'end' },
      ],
      { teammatePermissionMode: 'auto', hooks },
    );
    await done(session);
    expect(exists(ws, 'fine.txt')).toBe(true);
    expect(exists(ws, 'forbidden.txt')).toBe(false);
    expect(exists(ws, 'slowpoke.txt')).toBe(false);
    await waitFor(() => toolResults(ws).includes('run the tests first'), 'the TaskCompleted refusal in the transcript');
    const results = toolResults(ws);
    expect(results).toContain('PreToolUse hook refused (exit 2): no forbidden things');
    expect(results).toContain('PreToolUse hook refused (timed out after 1 s)');
    expect(results).toContain('task not created: TaskCreated hook refused (exit 1): no WIP tasks');
    expect(results).toContain('task #1 not completed: TaskCompleted hook refused (exit 1): run the tests first');
    const subjects = (await session.store.tasks.list()).map((t) => t.subject);
    expect(subjects).toContain('Real follow-up');
    expect(subjects).not.toContain('WIP stuff');
    const idle = await waitFor(() => {
      const f = path.join(ws.dir, 'idle-events.jsonl');
      return fs.existsSync(f) && fs.readFileSync(f, 'utf8').trim() ? fs.readFileSync(f, 'utf8') : null;
    }, 'the TeammateIdle event');
    expect(JSON.parse(idle.trim().split('\n')[0]!)).toMatchObject({ hook_event_name: 'TeammateIdle', agent: 'alice' });
    await waitFor(() => fs.readFileSync(session.store.paths.output('alice'), 'utf8').includes('TeammateIdle hook failed (exit 3)'), 'the failing idle hook shown');
    expect(fs.readFileSync(session.store.paths.log, 'utf8')).toContain('hook TeammateIdle failed (exit 3)');
  }, 90_000);

  it('a PermissionRequest hook sees the request and may answer it; a reassigned task reaches its new owner as a task_assignment frame', async () => {
    const hooks = { PermissionRequest: [cmd('tee "$PWD/request.json" | grep -q hooked && echo \'{"decision":"allow"}\' || echo \'{"decision":"deny","reason":"policy says no"}\'; exit 0')] };
    const { ws, session } = await team([{ text: 'a', tool_calls: [{ name: 'Bash', input: { command: 'touch refused.txt' } }, { name: 'Bash', input: { command: 'touch hooked.txt' } }, complete] }, { text: 'end' }], { hooks });
    await done(session);
    expect(exists(ws, 'hooked.txt')).toBe(true);
    // The hook's deny answers without asking anyone, and its reason reaches the teammate.
    expect(exists(ws, 'refused.txt')).toBe(false);
    await waitFor(() => toolResults(ws).includes('permission denied: denied by a PermissionRequest hook: policy says no'), 'the hook\'s reason in the tool result');
    expect(session.store.inboxes.list('lead').filter((m) => m.type === 'permission_request')).toEqual([]);
    expect(JSON.parse(fs.readFileSync(path.join(ws.dir, 'request.json'), 'utf8'))).toMatchObject({ hook_event_name: 'PermissionRequest', agent: 'alice', tool_name: 'Bash', tool_input: { command: 'touch hooked.txt' } });
    // Reassignment by the lead's TeamTaskUpdate.
    const t = await session.store.tasks.create({ subject: 'Later', description: 'x', reservedFor: 'lead' });
    const update = taskTools(session, 'lead').find((x) => x.name === 'TeamTaskUpdate')!;
    const r = await update.run({ task_id: t.id, owner: 'alice' } as never, {} as never);
    expect(r.isError).toBeFalsy();
    const frame = (await session.store.inboxes.read('alice')).find((m) => m.type === 'task_assignment');
    expect(frame).toMatchObject({ from: 'lead', task_id: t.id, subject: 'Later', previous_owner: 'lead' });
    await waitFor(() => fs.readFileSync(session.store.paths.output('alice'), 'utf8').includes(`task #${t.id} assigned by lead`), 'the teammate saw the assignment');
  }, 90_000);
});
