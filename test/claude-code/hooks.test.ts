/**
 * thclaws' PermissionRequest hook: installed into and removed from the user's Claude Code settings with the
 * rest kept, and the `hook` process itself — answered from `deny`, or falling back to Claude Code's dialog
 * (no output) when nobody answers in time.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, scrubbedEnv, tempDir } from '../agent/helpers.js';
import { waitFor } from '../teams/helpers.js';

let home: string;
let cleanup: () => void;
const settings = () => path.join(home, '.claude', 'settings.json');
const cli = (args: string[], input?: string) => runCli(args, { cwd: home, env: scrubbedEnv(home), ...(input !== undefined ? { input } : {}) });

beforeAll(() => ensureBuilt(), 60_000);
beforeEach(() => {
  ({ dir: home, cleanup } = tempDir('thclaws-cch-'));
  mkdirSync(path.join(home, '.claude'));
});
afterEach(() => cleanup());

describe('claude-team hooks install / uninstall', () => {
  const mine = '{\n    "model": "opus",\n  "hooks": { "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "my-guard" } ] } ] }\n}\n';

  it('adds the hook beside the user’s own settings and hooks, and the undo restores the file byte for byte', async () => {
    writeFileSync(settings(), mine);
    const r = await cli(['claude-team', 'hooks', 'install']);
    expect(r.stdout).toContain(`added a PermissionRequest hook to ${settings()}`);
    const installed = JSON.parse(readFileSync(settings(), 'utf8'));
    expect(installed.model).toBe('opus');
    expect(installed.hooks.PreToolUse).toEqual([{ matcher: 'Bash', hooks: [{ type: 'command', command: 'my-guard' }] }]);
    expect(installed.hooks.PermissionRequest[0].hooks[0]).toMatchObject({ type: 'command', command: expect.stringContaining('claude-team hook --wait 300'), timeout: 330 });
    expect((await cli(['claude-team', 'hooks', 'install'])).stdout).toContain('already in');
    const u = await cli(['claude-team', 'hooks', 'uninstall']);
    expect(u.stdout).toContain('restored');
    expect(readFileSync(settings(), 'utf8')).toBe(mine);
  }, 60_000);

  it('keeps an edit made after the install and removes only the hook; removes a file it created', async () => {
    writeFileSync(settings(), mine);
    await cli(['claude-team', 'hooks', 'install']);
    const edited = { ...JSON.parse(readFileSync(settings(), 'utf8')), theme: 'light' };
    writeFileSync(settings(), JSON.stringify(edited));
    expect((await cli(['claude-team', 'hooks', 'uninstall'])).stdout).toContain('the other changes are kept');
    expect(JSON.parse(readFileSync(settings(), 'utf8'))).toEqual({ ...JSON.parse(mine), theme: 'light' });

    const fresh = path.join(home, 'fresh');
    mkdirSync(path.join(fresh, '.claude'), { recursive: true });
    const env = scrubbedEnv(fresh);
    await runCli(['claude-team', 'hooks', 'install'], { cwd: fresh, env });
    expect(existsSync(path.join(fresh, '.claude', 'settings.json'))).toBe(true);
    await runCli(['claude-team', 'hooks', 'uninstall'], { cwd: fresh, env });
    expect(existsSync(path.join(fresh, '.claude', 'settings.json'))).toBe(false);
  }, 60_000);

  it('leaves a settings file that is not JSON alone, with a one-line error', async () => {
    writeFileSync(settings(), '{ "model": ');
    const r = await cli(['claude-team', 'hooks', 'install']);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining('is not valid JSON')]);
    expect(readFileSync(settings(), 'utf8')).toBe('{ "model": ');
  }, 30_000);
});

describe('claude-team hook (the process Claude Code runs)', () => {
  const request = JSON.stringify({ hook_event_name: 'PermissionRequest', session_id: 's', cwd: '/w', tool_name: 'Bash', tool_input: { command: 'rm -rf build' }, agent_id: 'abob-1', agent_type: 'bob' });

  it('prints a deny decision in the shape Claude Code reads once the person denies', async () => {
    const hook = cli(['claude-team', 'hook', '--wait', '60'], request);
    const pending = await waitFor(async () => JSON.parse((await cli(['claude-team', 'approvals', '--json'])).stdout)[0], 'the pending request', 30_000);
    expect(pending).toMatchObject({ agent: 'bob', toolName: 'Bash', toolInput: { command: 'rm -rf build' } });
    expect((await cli(['claude-team', 'deny', pending.id, '--message', 'not now'])).stdout).toContain('denied Bash for bob');
    const r = await hook;
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'not now' } } });
    expect(JSON.parse((await cli(['claude-team', 'approvals', '--json'])).stdout)).toEqual([]);
    const again = await cli(['claude-team', 'approve', pending.id]);
    expect(again.stderr.trim()).toBe(`thclaws: no pending Claude Code approval "${pending.id}"; pending: (none)`);
  }, 60_000);

  it('prints nothing when nobody answers in time, so Claude Code asks in its own dialog', async () => {
    const r = await cli(['claude-team', 'hook', '--wait', '1'], request);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(JSON.parse((await cli(['claude-team', 'approvals', '--json'])).stdout)).toEqual([]);
  }, 30_000);
});
