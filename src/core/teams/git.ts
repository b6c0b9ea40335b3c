import { spawnSync } from 'node:child_process';

export interface GitResult {
  ok: boolean;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Plain git, argv as data, editors disabled so nothing ever waits for a person. */
export function git(cwd: string, args: string[], env: NodeJS.ProcessEnv = process.env): GitResult {
  const r = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...env, GIT_EDITOR: 'true', EDITOR: 'true', VISUAL: 'true', GIT_SEQUENCE_EDITOR: 'true', GIT_TERMINAL_PROMPT: '0' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return { ok: r.status === 0, code: r.status, stdout: r.stdout ?? '', stderr: (r.stderr ?? '') + (r.error ? String(r.error.message) : '') };
}

export function gitOut(cwd: string, args: string[]): string | null {
  const r = git(cwd, args);
  return r.ok ? r.stdout.trim() : null;
}
