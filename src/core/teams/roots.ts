import path from 'node:path';

/** The project root of a path that may sit inside a teammate worktree: worktrees never nest. */
export function outsideWorktrees(p: string): string {
  const parts = path.resolve(p).split(path.sep);
  const i = parts.indexOf('.worktrees');
  return i > 0 && i < parts.length - 1 ? parts.slice(0, i).join(path.sep) || path.sep : path.resolve(p);
}
