import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runToolCall } from '../../src/core/agent/loop.js';
import { SessionPermissionChecker } from '../../src/core/agent/permissions.js';
import { builtinTools } from '../../src/core/agent/tools/index.js';
import type { ToolContext } from '../../src/core/agent/types.js';
import { createCommandGuard } from '../../src/core/guard/index.js';
import { git, teamRepo, type TeamRepo } from './git-repo.js';

/** D-3: the guard sees the whole original command before any part of it runs. */
describe('no part of a refused chain runs (through the real Bash tool)', () => {
  let repo: TeamRepo;
  let n = 0;
  beforeEach(() => {
    repo = teamRepo();
  });
  afterEach(() => repo.cleanup());

  const bash = (role: 'lead' | 'teammate', command: string) => {
    const cwd = role === 'lead' ? repo.ws : repo.alice;
    const ctx: ToolContext = {
      cwd,
      projectRoot: repo.ws,
      role,
      agentName: role === 'lead' ? 'lead' : 'alice',
      signal: new AbortController().signal,
      permissions: new SessionPermissionChecker('auto', { decide: async () => 'allow' }),
      guard: createCommandGuard(role, { workspaceRoot: repo.ws, cwd, branch: role === 'lead' ? 'main' : 'team/alice', agentName: role === 'lead' ? 'lead' : 'alice' }),
    };
    return runToolCall({ type: 'tool_use', id: `c${++n}`, name: 'Bash', input: { command } }, builtinTools(), ctx);
  };

  it('lead: `touch marker && rm -rf dir` creates no marker and deletes nothing', async () => {
    mkdirSync(path.join(repo.ws, 'dir'));
    writeFileSync(path.join(repo.ws, 'dir/keep.txt'), 'x');
    const r = await bash('lead', 'touch marker && rm -rf dir');
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/team lead may not run `rm -rf dir`/);
    expect(existsSync(path.join(repo.ws, 'marker'))).toBe(false);
    expect(existsSync(path.join(repo.ws, 'dir/keep.txt'))).toBe(true);
  });

  it('lead: a server tail does not split the chain (D-3)', async () => {
    // The scratch write at the head is allowed on its own: it must not run either.
    const scratch = path.join(os.tmpdir(), `thclaws-guard-never-${process.pid}-${n}`);
    const r = await bash('lead', `echo hi > ${scratch} && rm -rf .worktrees/bob && npm run dev`);
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/team lead may not run `rm -rf \.worktrees\/bob`/);
    expect(existsSync(scratch)).toBe(false);
    expect(existsSync(path.join(repo.bob, 'bob.txt'))).toBe(true);
  });

  it('teammate: `touch marker; git reset --hard main` runs nothing', async () => {
    const head = git(repo.alice, 'rev-parse', 'HEAD');
    const r = await bash('teammate', 'touch marker; git reset --hard main');
    expect(r.isError).toBe(true);
    expect(existsSync(path.join(repo.alice, 'marker'))).toBe(false);
    expect(git(repo.alice, 'rev-parse', 'HEAD')).toBe(head);
  });

  it('an allowed chain runs whole', async () => {
    const r = await bash('lead', 'touch marker && git status --short');
    expect(r.isError).toBeFalsy();
    expect(existsSync(path.join(repo.ws, 'marker'))).toBe(true);
  });
});
