/** The one way this program runs git: argv as data, no stdin, editors and prompts disabled so nothing waits for a person. */
import { spawnSync } from 'node:child_process';

export interface GitResult {
  ok: boolean;
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface GitOptions {
  env?: NodeJS.ProcessEnv;
  /** Kill git after this long (short probes); none by default (a merge takes what it takes). */
  timeoutMs?: number;
}

export function git(cwd: string, args: string[], opts: GitOptions = {}): GitResult {
  const r = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...(opts.env ?? process.env), GIT_EDITOR: 'true', EDITOR: 'true', VISUAL: 'true', GIT_SEQUENCE_EDITOR: 'true', GIT_TERMINAL_PROMPT: '0' },
    maxBuffer: 16 * 1024 * 1024,
    ...(opts.timeoutMs ? { timeout: opts.timeoutMs } : {}),
  });
  return { ok: r.status === 0, code: r.status, stdout: r.stdout ?? '', stderr: (r.stderr ?? '') + (r.error ? String(r.error.message) : '') };
}

/** Trimmed stdout of a successful call (possibly empty), else null. */
export function gitOut(cwd: string, args: string[], opts: GitOptions = {}): string | null {
  const r = git(cwd, args, opts);
  return r.ok ? r.stdout.trim() : null;
}
