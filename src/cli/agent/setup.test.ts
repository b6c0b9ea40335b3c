import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/agent/helpers.js';
import type { ToolResultBlock } from '../../core/agent/providers/types.js';
import { agentHooks, registerAgentHooks } from './hooks.js';
import { NO_KEY_MESSAGE, setupRuntime } from './setup.js';

describe('setupRuntime (in process)', () => {
  let dir: string;
  let cleanup: () => void;
  const cwd0 = process.cwd();
  const env0 = { ...process.env };

  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
    for (const k of Object.keys(process.env)) if (k.startsWith('ANTHROPIC_') || k.startsWith('THCLAWS_')) delete process.env[k];
    process.env.HOME = dir;
  });
  afterEach(() => {
    process.chdir(cwd0);
    process.env = { ...env0 };
    agentHooks.length = 0;
    cleanup();
  });

  it('refuses to start the anthropic provider without a key', async () => {
    await expect(setupRuntime({ outputFormat: 'text', cwd: dir }, false)).rejects.toThrow(NO_KEY_MESSAGE);
  });

  it('a team agent gets its definition: role section, model and tool subset; env is set', async () => {
    mkdirSync(path.join(dir, '.thclaws/agents'), { recursive: true });
    writeFileSync(path.join(dir, '.thclaws/agents/alice.md'), '---\ndescription: Tester\nmodel: claude-haiku-4-5\ntools: [Read, Bash]\n---\nWrite tests only.');
    const rt = await setupRuntime({ outputFormat: 'text', provider: 'scripted', cwd: dir, teamAgent: 'alice' }, false);
    expect(rt.info.role).toBe('teammate');
    expect(rt.agent.model).toBe('claude-haiku-4-5');
    expect(rt.agent.tools.map((t) => t.name)).toEqual(['Read', 'Bash']);
    expect(process.env.THCLAWS_TEAM_AGENT).toBe('alice');
    expect(process.env.THCLAWS_TEAM_DIR).toBe(path.join(dir, '.thclaws/state/team'));
  });

  it('a teammate gets the real role guard: its Bash refuses what src/core/guard refuses', async () => {
    const script = path.join(dir, 's.json');
    writeFileSync(script, JSON.stringify({ rules: [{ turns: [{ tool_calls: [{ name: 'Bash', input: { command: 'git push --force origin main' } }] }, { text: 'ok' }] }] }));
    const rt = await setupRuntime({ outputFormat: 'text', script, acceptAll: true, cwd: dir, teamAgent: 'bob' }, false);
    expect(rt.agent.tools.map((t) => t.name)).toContain('Bash');
    await rt.agent.prompt('push', new AbortController().signal);
    const result = rt.agent.messages[2]!.content[0] as ToolResultBlock;
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/^refused: /);
  });

  it('hooks plug in the role, the guard and extra tools; the guard applies even with --accept-all', async () => {
    const script = path.join(dir, 's.json');
    writeFileSync(script, JSON.stringify({ rules: [{ turns: [{ tool_calls: [{ name: 'Bash', input: { command: 'git push' } }] }, { text: 'ok' }] }] }));
    registerAgentHooks({
      role: () => 'lead',
      guard: (info) => ({
        role: info.role,
        checkCommand: () => ({ allowed: false, reason: `${info.role} may not push`, advice: 'delegate' }),
        checkWrite: () => ({ allowed: true }),
      }),
    });
    const rt = await setupRuntime({ outputFormat: 'text', script, acceptAll: true, cwd: dir }, false);
    expect(rt.info.role).toBe('lead');
    const r = await rt.agent.prompt('push it', new AbortController().signal);
    expect(r.stop).toBe('end_turn');
    const result = rt.agent.messages[2]!.content[0] as ToolResultBlock;
    expect(result).toMatchObject({ is_error: true, content: 'refused: lead may not push — delegate' });
  });
});
