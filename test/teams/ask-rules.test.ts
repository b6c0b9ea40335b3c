/**
 * Settings `permissions.ask` / `permissions.deny` with real teammate processes: an ask rule makes a teammate
 * ask for a call its allow rules (or its own worktree) would let run; deny refuses without asking.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../agent/helpers.js';
import { pendingApprovals } from '../../src/core/teams/approvals.js';
import { cli, commitWork, complete, done, exists, nextRequest, runCleanups, team, toolResults } from './approval-harness.js';
import { waitFor } from './helpers.js';

beforeAll(ensureBuilt, 120_000);
afterEach(runCleanups);

describe('ask and deny rules', () => {
  it('Bash(git push:*) asks even though teammateAllow ["Bash"] allows every command; other commands run; chaining does not slip past', async () => {
    const { ws, session } = await team(
      [
        { text: 'a', tool_calls: [{ name: 'Bash', input: { command: 'touch free.txt' } }] },
        { text: 'b', tool_calls: [{ name: 'Bash', input: { command: 'touch chained.txt && FOO=1 git   push origin main; true' } }, complete] },
        { text: 'end' },
      ],
      { teammateAllow: ['Bash'], permissions: { ask: ['Bash(git push:*)'] } },
    );
    const w = await nextRequest(session);
    expect(exists(ws, 'free.txt')).toBe(true);
    expect(w).toMatchObject({ tool: 'Bash', ask_rule: 'Bash(git push:*)' });
    // "Always" could store nothing that stops the next question under an ask rule: no rule is offered.
    expect(w.rule).toBeUndefined();
    expect(exists(ws, 'chained.txt')).toBe(false);
    expect(cli(ws, 'deny', w.request_id, '--message', 'no pushing').code).toBe(0);
    await done(session);
    expect(exists(ws, 'chained.txt')).toBe(false);
    await waitFor(() => toolResults(ws).includes('permission denied: denied by the person: no pushing'), 'the denial in the tool result');
  }, 90_000);

  it('Write(src/**) asks for a write inside the teammate\'s own worktree (which otherwise never asks); approved, the file is written', async () => {
    const { ws, session } = await team(
      [
        { text: 'w', tool_calls: [{ name: 'Write', input: { path: 'notes.md', content: 'free\n' } }, { name: 'Write', input: { path: 'src/a.ts', content: 'export {};\n' } }, commitWork, complete] },
        { text: 'end' },
      ],
      { permissions: { ask: ['Write(src/**)'] }, teammateAllow: ['Bash'] },
      {},
      undefined,
      { isolation: 'worktree' },
    );
    const w = await nextRequest(session);
    const wt = path.join(ws.dir, '.worktrees', 'alice');
    expect(fs.readFileSync(path.join(wt, 'notes.md'), 'utf8')).toBe('free\n');
    expect(w).toMatchObject({ tool: 'Write', ask_rule: 'Write(src/**)' });
    expect(fs.existsSync(path.join(wt, 'src', 'a.ts'))).toBe(false);
    expect(cli(ws, 'approve', w.request_id).code).toBe(0);
    await done(session);
    expect(fs.readFileSync(path.join(wt, 'src', 'a.ts'), 'utf8')).toBe('export {};\n');
  }, 90_000);

  it('deny > ask > allow: a denied command is refused without a question even when allowed and asked for', async () => {
    const { ws, session } = await team(
      [{ text: 'a', tool_calls: [{ name: 'Bash', input: { command: 'rm -f README.md' } }, { name: 'Bash', input: { command: 'touch after.txt' } }, complete] }, { text: 'end' }],
      { teammateAllow: ['Bash'], permissions: { ask: ['Bash(rm:*)'], deny: ['Bash(rm:*)'] } },
    );
    await done(session);
    expect(exists(ws, 'README.md')).toBe(true);
    expect(exists(ws, 'after.txt')).toBe(true);
    expect(await pendingApprovals(session.store)).toEqual([]);
    await waitFor(() => toolResults(ws).includes('Bash is refused by the rule Bash(rm:*) in settings permissions.deny'), 'the deny reason in the tool result');
  }, 90_000);

  it('a deny rule holds through sh -c, eval, env, quoting, a here-doc fed to bash and a pipe into sh (real teammate, real shell)', async () => {
    const hidden = ["sh -c 'touch a.txt'", 'eval touch b.txt', 'env X=1 touch c.txt', '"tou"ch d.txt', 'bash <<EOF\ntouch e.txt\nEOF', "echo 'touch f.txt' | sh"];
    const { ws, session } = await team(
      [{ text: 'a', tool_calls: [...hidden.map((command) => ({ name: 'Bash', input: { command } })), { name: 'Bash', input: { command: 'echo ok > g.txt' } }, complete] }, { text: 'end' }],
      { teammateAllow: ['Bash'], permissions: { deny: ['Bash(touch:*)'] } },
    );
    await done(session);
    expect(exists(ws, 'g.txt')).toBe(true);
    for (const f of ['a', 'b', 'c', 'd', 'e', 'f']) expect(exists(ws, `${f}.txt`), f).toBe(false);
    // The session file is written after the turn that completed the task: wait for it, as the test above does.
    const refusals = () => toolResults(ws).split('refused by the rule Bash(touch:*)').length - 1;
    await waitFor(() => refusals() >= hidden.length, 'the six refusals in the tool results');
    expect(refusals()).toBe(hidden.length);
  }, 90_000);

  it('an ask rule on a tool that needs no permission (Read) asks too', async () => {
    const { ws, session } = await team([{ text: 'r', tool_calls: [{ name: 'Read', input: { path: 'README.md' } }, complete] }, { text: 'end' }], { permissions: { ask: ['Read'] } });
    const w = await nextRequest(session);
    expect(w).toMatchObject({ tool: 'Read', ask_rule: 'Read' });
    expect(cli(ws, 'deny', w.request_id, '--message', 'not that file').code).toBe(0);
    await done(session);
    await waitFor(() => toolResults(ws).includes('denied by the person: not that file'), 'the Read refused');
  }, 90_000);

  it('two asked calls of one turn that run concurrently (two Reads under an ask rule) are shown one after the other, both answerable', async () => {
    const { ws, session } = await team(
      [{ text: 'r', tool_calls: [{ name: 'Read', input: { path: 'README.md' } }, { name: 'Read', input: { path: 'README.md', offset: 1 } }, complete] }, { text: 'end' }],
      { permissions: { ask: ['Read'] }, approvalTimeoutMs: 120_000 },
    );
    const first = await nextRequest(session);
    expect(cli(ws, 'approve', first.request_id).code).toBe(0);
    const second = await nextRequest(session, new Set([first.request_id]));
    expect(cli(ws, 'deny', second.request_id, '--message', 'once is enough').code).toBe(0);
    await done(session);
    await waitFor(() => toolResults(ws).includes('once is enough'), 'the turn in the session file');
    const results = toolResults(ws);
    expect(results).toContain('# test project');
    expect(results).toContain('denied by the person: once is enough');
    expect(results).not.toContain('denied (timeout)');
  }, 90_000);
});

