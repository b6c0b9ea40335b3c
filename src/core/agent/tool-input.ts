/**
 * The file a Read/Write/Edit call names, for the code that decides on it (permission rules, a teammate's
 * own-worktree writes, the approval card): `file_path` as Claude Code names it, or `path` in a request
 * recorded before the tools took Claude Code's names.
 */
export function filePathOf(input: unknown): string | undefined {
  if (!input || typeof input !== 'object') return undefined;
  const i = input as { file_path?: unknown; path?: unknown };
  if (typeof i.file_path === 'string') return i.file_path;
  return typeof i.path === 'string' ? i.path : undefined;
}
