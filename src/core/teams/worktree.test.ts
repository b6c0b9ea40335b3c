import { describe, expect, it } from 'vitest';
import { outsideWorktrees } from './worktree.js';

describe('outsideWorktrees', () => {
  it('a path inside a teammate worktree resolves to the project above it, so worktrees never nest', () => {
    expect(outsideWorktrees('/p/app/.worktrees/alice')).toBe('/p/app');
    expect(outsideWorktrees('/p/app/.worktrees/alice/src/x')).toBe('/p/app');
    expect(outsideWorktrees('/p/app/.worktrees/alice/.worktrees/bob')).toBe('/p/app');
    expect(outsideWorktrees('/p/app')).toBe('/p/app');
    expect(outsideWorktrees('/p/app/.worktrees')).toBe('/p/app/.worktrees');
  });
});
