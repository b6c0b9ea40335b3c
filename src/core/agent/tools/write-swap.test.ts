/**
 * A link swapped while the person is asked: the write lands where it was approved, or nowhere. The sandbox
 * alone re-checked at run time; the role guard and the approved target were not.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/agent/helpers.js';
import { CallbackApprover, SessionPermissionChecker } from '../permissions.js';
import { runToolCall } from '../tool-run.js';
import type { ToolContext } from '../types.js';
import { builtinTools } from './index.js';

const tools = builtinTools();

describe.each(['Write', 'Edit'])('%s with a symlink swapped while the person is asked (real files)', (tool) => {
  let root: string;
  let cleanup: () => void;
  beforeEach(() => {
    ({ dir: root, cleanup } = tempDir());
    for (const d of ['ok', 'protected']) mkdirSync(path.join(root, d));
    writeFileSync(path.join(root, 'ok/f'), 'old\n');
    writeFileSync(path.join(root, 'protected/f'), 'old\n');
    symlinkSync('ok', path.join(root, 'x'));
  });
  afterEach(() => cleanup());

  const call = (withGuard: boolean) => {
    const approver = new CallbackApprover(async () => {
      // The link now points where the guard forbids writing.
      rmSync(path.join(root, 'x'));
      symlinkSync('protected', path.join(root, 'x'));
      return 'allow';
    });
    const ctx: ToolContext = {
      cwd: root,
      projectRoot: root,
      role: 'teammate',
      signal: new AbortController().signal,
      permissions: new SessionPermissionChecker('ask', approver),
      ...(withGuard ? { guard: {
        checkWrite: (p: string) => (p.includes(`${path.sep}protected${path.sep}`) ? { allowed: false, reason: 'protected/ is the lead\'s', advice: 'write under ok/' } : { allowed: true }),
        checkCommand: () => ({ allowed: true }),
      } as unknown as ToolContext['guard'] } : {}),
    };
    const input = tool === 'Write' ? { path: 'x/f', content: 'new\n' } : { path: 'x/f', old_string: 'old', new_string: 'new' };
    return runToolCall({ type: 'tool_use', id: 't', name: tool, input }, tools, ctx);
  };

  it('the role guard decides again: nothing written where it forbids', async () => {
    const r = await call(true);
    expect(r).toEqual({ isError: true, content: "refused: protected/ is the lead's — write under ok/" });
    expect(readFileSync(path.join(root, 'protected/f'), 'utf8')).toBe('old\n');
    expect(readFileSync(path.join(root, 'ok/f'), 'utf8')).toBe('old\n');
  });

  it('without a guard: nothing written elsewhere than the target checked, and it says so', async () => {
    const r = await call(false);
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/^x\/f now resolves to .*protected\/f, not the .*ok\/f that was checked; nothing written/);
    expect(readFileSync(path.join(root, 'protected/f'), 'utf8')).toBe('old\n');
    expect(readFileSync(path.join(root, 'ok/f'), 'utf8')).toBe('old\n');
    expect(existsSync(path.join(root, 'x'))).toBe(true);
  });
});
