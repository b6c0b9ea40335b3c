import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, SandboxError } from '../../src/core/agent/sandbox.js';
import { checkCommand, createCommandGuard, type CommandGuard } from '../../src/core/guard/index.js';
import { teamRepo, type TeamRepo } from './git-repo.js';

/** The agent sandbox escapes, re-run for a teammate (root = the lead's workspace), plus the role rule. */
describe('teammate sandbox and worktree rule', () => {
  let repo: TeamRepo;
  let guard: CommandGuard;
  /** What Write/Edit do: sandbox first, then the role guard. */
  const write = (p: string): string => {
    const sandbox = createSandbox(repo.ws);
    try {
      const abs = sandbox.resolve(p, repo.alice, 'write');
      const v = guard.checkWrite(abs);
      return v.allowed ? 'ok' : v.reason;
    } catch (err) {
      if (err instanceof SandboxError) return err.message;
      throw err;
    }
  };

  beforeAll(() => {
    repo = teamRepo();
    guard = createCommandGuard('teammate', { workspaceRoot: repo.ws, cwd: repo.alice, branch: 'team/alice', agentName: 'alice' });
    mkdirSync(path.join(repo.ws, '.thclaws/state/team'), { recursive: true });
    symlinkSync('/etc', path.join(repo.alice, 'etc-link'));
    symlinkSync(repo.bob, path.join(repo.alice, 'bob-link'));
  });
  afterAll(() => repo.cleanup());

  it('allows its own worktree and the shared workspace', () => {
    expect(write('src/new.ts')).toBe('ok');
    expect(write(path.join(repo.alice, 'a.txt'))).toBe('ok');
  });

  it('refuses the sandbox escapes', () => {
    expect(write('../../../../etc/passwd')).toMatch(/^access denied:/);
    expect(write('/etc/hosts')).toMatch(/^access denied:/);
    expect(write('etc-link/hosts')).toMatch(/^access denied:/);
    expect(write(path.join(repo.ws, '.thclaws/state/team/config.json'))).toMatch(/^access denied: .*\.thclaws/);
    expect(write('../../.thclaws/state/team/inbox/lead.json')).toMatch(/^access denied: .*\.thclaws/);
  });

  it("refuses another teammate's worktree, however it is reached", () => {
    expect(write('../bob/bob.txt')).toMatch(/teammate may not write .*another teammate's worktree/);
    expect(write(path.join(repo.bob, 'new.txt'))).toMatch(/another teammate's worktree/);
    expect(write('bob-link/bob.txt')).toMatch(/another teammate's worktree/);
    expect(write('./../../.worktrees/bob/x')).toMatch(/another teammate's worktree/);
  });

  it('refuses the same through the shell', () => {
    const ctx = { workspaceRoot: repo.ws, cwd: repo.alice, branch: 'team/alice', agentName: 'alice' };
    for (const cmd of ['echo x > ../bob/bob.txt', `cp a.txt ${repo.bob}/`, 'rm -rf ../bob', 'echo {} > ../../.thclaws/state/team/config.json', 'cd ../bob && git commit -am x']) {
      expect(checkCommand('teammate', cmd, ctx).allowed, cmd).toBe(false);
    }
    expect(checkCommand('teammate', 'echo x > notes.txt && git commit -am x', ctx).allowed).toBe(true);
  });
});
