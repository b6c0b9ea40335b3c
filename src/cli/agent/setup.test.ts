import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
    expect(rt.agent.tools.map((t) => t.name)).toEqual(['Read', 'Bash', 'BashOutput', 'KillShell']);
    expect(process.env.THCLAWS_TEAM_AGENT).toBe('alice');
    expect(process.env.THCLAWS_TEAM_DIR).toBe(path.join(dir, '.thclaws/state/team'));
  });

  it("a team agent whose own definition is broken fails with one line naming the file and key", async () => {
    mkdirSync(path.join(dir, '.thclaws/agents'), { recursive: true });
    writeFileSync(path.join(dir, '.thclaws/agents/carol.md'), '---\nisolation: sideways\n---\nX');
    writeFileSync(path.join(dir, '.thclaws/agents/other.md'), '---\nname: [unclosed\n---\nY');
    await expect(setupRuntime({ outputFormat: 'text', provider: 'scripted', cwd: dir, teamAgent: 'carol' }, false)).rejects.toThrow(
      /^agent definition: .*carol\.md: key "isolation"/,
    );
    // Another agent's broken file does not stop a teammate without a definition.
    const rt = await setupRuntime({ outputFormat: 'text', provider: 'scripted', cwd: dir, teamAgent: 'dave' }, false);
    expect(rt.agent.tools.map((t) => t.name)).toEqual(['Read', 'Write', 'Edit', 'Bash', 'BashOutput', 'KillShell', 'Glob', 'Grep']);
  });

  it('THCLAWS_PROJECT_ROOT is the sandbox and settings root; relative paths still resolve against the cwd', async () => {
    const sub = path.join(dir, 'worktrees/alice');
    mkdirSync(sub, { recursive: true });
    mkdirSync(path.join(dir, '.thclaws'), { recursive: true });
    writeFileSync(path.join(dir, '.thclaws/settings.json'), JSON.stringify({ model: 'from-project-root' }));
    const script = path.join(dir, 's.json');
    writeFileSync(
      script,
      JSON.stringify({
        rules: [
          {
            turns: [
              {
                tool_calls: [
                  { name: 'Write', input: { path: '../../shared.txt', content: 'root' } },
                  { name: 'Write', input: { path: 'here.txt', content: 'cwd' } },
                  { name: 'Write', input: { path: '../../../escape.txt', content: 'x' } },
                  { name: 'Write', input: { path: '../../.thclaws/x.json', content: '{}' } },
                ],
              },
              { text: 'ok' },
            ],
          },
        ],
      }),
    );
    process.env.THCLAWS_PROJECT_ROOT = dir;
    const rt = await setupRuntime({ outputFormat: 'text', script, acceptAll: true, cwd: sub }, false);
    expect(rt.info.projectRoot).toBe(dir);
    expect(rt.agent.model).toBe('from-project-root');
    expect(rt.agent.session.file.startsWith(path.join(dir, '.thclaws/sessions/'))).toBe(true);
    await rt.agent.prompt('go', new AbortController().signal);
    const results = (rt.agent.messages[2]!.content as ToolResultBlock[]).map((r) => r.content);
    expect(results[0]).toMatch(/^wrote 4 bytes/);
    expect(results[1]).toMatch(/^wrote 3 bytes/);
    expect(results[2]).toMatch(/^access denied: .*outside the workspace root/);
    expect(results[3]).toMatch(/^access denied: .*inside \.thclaws\//);
    expect(readFileSync(path.join(dir, 'shared.txt'), 'utf8')).toBe('root');
    expect(readFileSync(path.join(sub, 'here.txt'), 'utf8')).toBe('cwd');
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
